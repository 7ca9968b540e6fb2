// "Keep on this device", its undoing and "Free up space" for the window's core: the pair's pins changed in its record (as `mch-sync pin`, `unpin` and `free` change them), a pass asked for, files freed by the pair's own live service.
import { formatBytes } from '../../../common/units.ts';
import { StateError } from '../../file-state/state-errors.ts';
import { ancestorIds } from '../../index/ancestors.ts';
import { folderKey } from '../../index/index-db.ts';
import { META_REMOTE_ROOT } from '../../index/meta-keys.ts';
import { askService } from '../../live-service/control-client.ts';
import { controlSocketPath } from '../../live-service/control-socket-path.ts';
import { isAtOrBelow } from '../../model/selection.ts';
import type { FolderPair, PlaceInPair } from '../../profile/folder-pairs.ts';
import {
  readPairOnDemand,
  updatePairOnDemand,
  type PairOnDemand,
  type PinnedItem,
} from '../../profile/pair-on-demand.ts';
import type { HandlerCore } from '../handler-core.ts';

type PinCore = Pick<HandlerCore, 'options' | 'connection'>;

/** A free takes a file at a time; a big folder may take a while, and the service answers when done. */
const FREE_TIMEOUT_MS = 10 * 60_000;

/** The items of one on-demand pair, read from its running service's index. */
interface PinPlace {
  pair: FolderPair;
  onDemand: PairOnDemand;
  items: Array<{ path: string; id: string; ancestors: string[] }>;
  /** Where each pinned item is now (its row's path; the recorded one if the index lost it). */
  pinnedPaths: Map<string, string>;
}

export async function pinItems(core: PinCore, places: readonly PlaceInPair[]): Promise<string> {
  const place = pinPlaceOf(core, places);
  const added: PinnedItem[] = [];
  const words: string[] = [];
  for (const item of place.items) {
    const keeper = keeperOf(place, item) ?? added.find((pin) => pin.id === item.id);
    if (keeper === undefined) added.push({ path: item.path, id: item.id });
    else words.push(`${shown(place, item.path)} is kept on this computer already.`);
  }
  if (added.length > 0) {
    await updatePairOnDemand(core.options.profileDir, place.pair.localRoot, (before) =>
      before === undefined ? undefined : { ...before, pinned: [...before.pinned, ...added] },
    );
    // Pins are read at the start of a pass: one now downloads what is not here yet.
    syncNow(core, place.pair);
    for (const pin of added)
      words.push(`${shown(place, pin.path)} is kept on this computer: what is not here yet comes down now.`);
  }
  return words.join('\n');
}

export async function unpinItems(core: PinCore, places: readonly PlaceInPair[]): Promise<string> {
  const place = pinPlaceOf(core, places);
  const removed = await removePins(core, place);
  if (removed.length === 0) return 'Nothing there was kept on this computer; nothing changed.';
  return [
    ...removed.map((path) => `${shown(place, path)} is no longer kept on this computer.`),
    'What is here stays until space is freed (Free up space, or the cache limit).',
  ].join('\n');
}

export async function freeItems(core: PinCore, places: readonly PlaceInPair[]): Promise<string> {
  const place = pinPlaceOf(core, places);
  const unpinned = await removePins(core, place);
  const answer = await askService(
    controlSocketPath(core.options.profileDir, place.pair.localRoot),
    { op: 'free', paths: place.items.map((item) => item.path) },
    { timeoutMs: FREE_TIMEOUT_MS },
  );
  if (answer === undefined) throw notRunning(place.pair);
  if (!answer.ok) throw new StateError('STATE_ACTION_FAILED', answer.error.message);
  const counts = answer.freed ?? { freed: 0, bytesFreed: 0, busy: [], changed: [], failed: [] };
  const words = unpinned.map((path) => `${shown(place, path)} is no longer kept on this computer.`);
  words.push(
    `Freed ${counts.freed} ${counts.freed === 1 ? 'file' : 'files'} (${formatBytes(counts.bytesFreed)}): ` +
      'their entries stay, and opening one downloads it again.',
  );
  if (counts.busy.length > 0) {
    words.push(`${counts.busy.length} open in a program stayed whole: close them, then free again.`);
  }
  if (counts.changed.length > 0)
    words.push(`${counts.changed.length} changed here and not synced yet stayed whole.`);
  if (counts.failed.length > 0) words.push(`${counts.failed.length} could not be freed.`);
  return words.join('\n');
}

/** The pins at or below the items, removed; refused when a pinned folder above one keeps it. */
async function removePins(core: PinCore, place: PinPlace): Promise<string[]> {
  const removed = new Map<string, string>();
  for (const item of place.items) {
    const keeper = keeperOf(place, item);
    if (keeper !== undefined && keeper.id !== item.id) {
      throw new StateError(
        'STATE_ACTION_FAILED',
        `${shown(place, item.path)} is kept because ${shown(place, keeper.path)} is: undo that on the folder (nothing changed).`,
      );
    }
    for (const pin of place.onDemand.pinned) {
      const path = place.pinnedPaths.get(pin.id) ?? pin.path;
      if (item.path === '' || isAtOrBelow(path, item.path)) removed.set(pin.id, path);
    }
  }
  if (removed.size > 0) {
    await updatePairOnDemand(core.options.profileDir, place.pair.localRoot, (before) =>
      before === undefined
        ? undefined
        : { ...before, pinned: before.pinned.filter((pin) => !removed.has(pin.id)) },
    );
  }
  return [...removed.values()];
}

/** The pair (one, on demand, running) and its items, each known to the index; refused with words otherwise. */
function pinPlaceOf(core: PinCore, places: readonly PlaceInPair[]): PinPlace {
  const [first] = places;
  if (first === undefined) throw new StateError('STATE_ACTION_FAILED', 'Say which files.');
  const pair = first.pair;
  if (places.some((place) => place.pair.localRoot !== pair.localRoot)) {
    throw new StateError(
      'STATE_ACTION_FAILED',
      'The files are in different synced folders: choose those of one at a time.',
    );
  }
  const onDemand = readPairOnDemand(core.options.profileDir, pair.localRoot);
  if (onDemand === undefined) {
    throw new StateError(
      'STATE_ACTION_FAILED',
      `${pair.localRoot} keeps every file on this computer (files on demand are off for it): there is nothing to keep or free.`,
    );
  }
  const store = core.connection().pairs.selectionTarget(folderKey(pair.localRoot)).store;
  if (store === undefined) throw notRunning(pair);
  const rootId = store.getMeta(META_REMOTE_ROOT);
  const items = places.map(({ relativePath: path }) => {
    const id = path === '' ? rootId : store.byPath(path)?.remoteId;
    if (id === undefined) {
      throw new StateError(
        'STATE_ACTION_FAILED',
        `${path || pair.localRoot} is not synced yet: try again once it is.`,
      );
    }
    return { path, id, ancestors: path === '' ? [] : ancestorIds(store, id) };
  });
  const pinnedPaths = new Map<string, string>();
  for (const pin of onDemand.pinned) {
    pinnedPaths.set(pin.id, pin.id === rootId ? '' : (store.get(pin.id)?.path ?? pin.path));
  }
  return { pair, onDemand, items, pinnedPaths };
}

/** The pinned item that keeps `item`: itself or a folder above it. */
function keeperOf(place: PinPlace, item: PinPlace['items'][number]): PinnedItem | undefined {
  for (const id of [item.id, ...item.ancestors]) {
    const pin = place.onDemand.pinned.find((pinned) => pinned.id === id);
    if (pin !== undefined) return { id: pin.id, path: place.pinnedPaths.get(pin.id) ?? pin.path };
  }
  return undefined;
}

function syncNow(core: PinCore, pair: FolderPair): void {
  core.connection().pairs.control(folderKey(pair.localRoot), (live) => live.syncNow());
}

function notRunning(pair: FolderPair): StateError {
  return new StateError(
    'STATE_ACTION_FAILED',
    `${pair.localRoot} is not syncing now (see the window's Status): try again once it is.`,
  );
}

function shown(place: PinPlace, path: string): string {
  return path === '' ? place.pair.localRoot : path;
}
