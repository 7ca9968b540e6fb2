// An on-demand pair in a randomized run (issue 30): the pins, the user's steps on placeholders (the real Hydrator, a free in place), and the state as the checks must read it.
import {
  closeSync,
  existsSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
} from 'node:fs';
import { constants } from 'node:fs';
import { join, relative } from 'node:path';
import type { DeviceClient } from '../../../app/api/device-client.ts';
import type { IndexStore } from '../../../app/index/index-store.ts';
import { msOfNs, type IndexEntry } from '../../../app/model/items.ts';
import { PLACEHOLDER_MARK, PLACEHOLDER_XATTR } from '../../../app/mount/hydration-protocol.ts';
import { Hydrator, type HydrationEvent } from '../../../app/on-demand/hydrator.ts';
import { pinnedPolicy } from '../../../app/on-demand/pinned-policy.ts';
import type { OnDemandPolicy } from '../../../app/sync/engine-options.ts';
import { isPlaceholder, placeholderAttributes } from '../../../app/sync/local/placeholders.ts';
import { absolute, resolve, type LocalOnDemand, type LocalSide, type RemoteSide } from './apply.ts';
import { showPath, type PassState, type SnapshotItem, type Violation } from './invariants.ts';
import type { Ledger } from './ledger.ts';
import { isWithin } from './model.ts';
import { describeStep, type OnDemandPlan, type OnDemandStep } from './on-demand-plan.ts';

const nfc = (path: string): string => path.normalize('NFC');

/** What a view of a state found, kept beside the state it made. */
interface Looked {
  violations: Violation[];
  /** Inodes of the local placeholders. */
  placeholders: Set<string>;
}

export class OnDemandWorld {
  readonly plan: OnDemandPlan;
  /** The device ids the user keeps here (the pair's record: kept by the user, not by a process). */
  readonly pinned = new Set<string>();
  readonly policy: OnDemandPolicy = pinnedPolicy(
    () => this.pinned,
    () => undefined,
  );
  /** Steps that did not fit what was there (or a hydration that failed), in words. */
  readonly impossible: string[] = [];
  /** What each step did, in words, for a story. */
  readonly story: string[] = [];
  readonly #local: LocalSide;
  readonly #index: () => IndexStore;
  readonly #remote: () => RemoteSide;
  readonly #hydrator: Hydrator;
  readonly #trash: readonly string[];
  readonly #looked = new WeakMap<PassState, Looked>();
  /** Initial pins the device could not name before the first pass (made locally): pinned after it. */
  #pendingPins: string[] = [];

  constructor(options: {
    plan: OnDemandPlan;
    local: LocalSide;
    /** The index of the engine process now running. */
    index: () => IndexStore;
    remote: () => RemoteSide;
    /** The service's own client to the device, for hydrations (not the engine's, which may crash). */
    client: DeviceClient;
    /** The trash folders the engine may use. */
    trash: readonly string[];
  }) {
    this.plan = options.plan;
    this.#local = options.local;
    this.#index = options.index;
    this.#remote = options.remote;
    this.#trash = options.trash;
    this.#hydrator = new Hydrator({
      client: options.client,
      index: { byInode: (inode) => this.#index().byInode(inode) },
      cacheRoot: options.local.root,
      stallMs: 10_000,
    });
    const hooks: LocalOnDemand = {
      placeholderContent: (path) => this.#placeholderContent(path),
      beforeOverwrite: (path) => {
        overwriteThroughMount(path);
      },
    };
    this.#local.onDemand = hooks;
  }

  /** The plan's initial pins the device already has (an initial tree made there); the rest wait for `afterFirstPass`. */
  pinInitial(): void {
    for (const path of this.plan.pinned) {
      try {
        this.pinned.add(resolve(this.#remote(), path));
      } catch {
        this.#pendingPins.push(path);
      }
    }
  }

  /** The initial pins of items made locally, now synced. */
  afterFirstPass(): void {
    for (const path of this.#pendingPins) this.#pin(path, true);
    this.#pendingPins = [];
  }

  async apply(ledger: Ledger, steps: readonly OnDemandStep[]): Promise<void> {
    for (const step of steps) await this.step(ledger, step);
  }

  async step(ledger: Ledger, step: OnDemandStep): Promise<void> {
    const skip = (why: string): void => {
      this.impossible.push(`${describeStep(step)}: ${why}`);
    };
    let target: string;
    try {
      target = absolute(this.#local, step.path);
    } catch (error) {
      // A file where the path needs a folder (the user's changes made it one): nothing there.
      return skip((error as Error).message.split('\n')[0] ?? 'no such path');
    }
    switch (step.op) {
      case 'pin':
      case 'unpin':
        if (!this.#pin(step.path, step.op === 'pin')) skip('no synced item there');
        return;
      case 'overwrite':
        if (!existsSync(target) || !isPlaceholder(target)) return skip('not a placeholder');
        // As the mount does for an O_TRUNC open: truncated, unmarked, then written (apply.ts's edit).
        ledger.local(this.#local, { op: 'edit', path: step.path, content: step.content });
        this.story.push(describeStep(step));
        return;
      case 'hydrate': {
        if (!existsSync(target) || !isPlaceholder(target)) return skip('not a placeholder');
        const events: HydrationEvent[] = [];
        await this.#hydrator.hydrate(relative(this.#local.root, target), (event) => events.push(event));
        const failed = events.find((event) => event.type === 'failed');
        if (failed !== undefined) return skip(`the hydrator failed: ${failed.errno} ${failed.message}`);
        this.story.push(describeStep(step));
        return;
      }
      case 'free': {
        const held = existsSync(target) ? readFileSync(target).toString('latin1') : undefined;
        const why = this.#free(target);
        if (why !== undefined) return skip(why);
        // The device was to hold it: what the other client deleted there since is gone on purpose.
        if (held !== undefined) ledger.letGo(held);
        this.story.push(describeStep(step));
        return;
      }
    }
  }

  /** Pins or unpins the synced item at `path` (by its row's device id); false when there is none. */
  #pin(path: string, pin: boolean): boolean {
    const target = absolute(this.#local, path);
    if (!existsSync(target)) return false;
    const row = this.#index().byInode(lstatSync(target, { bigint: true }).ino.toString())[0];
    if (row === undefined) return false;
    if (pin) this.pinned.add(row.remoteId);
    else this.pinned.delete(row.remoteId);
    this.story.push(`${pin ? 'pin' : 'unpin'} ${showPath(path)} (${row.remoteId})`);
    return true;
  }

  /**
   * Frees a whole synced file as app/on-demand/free-in-place.ts does (a copy of its steps until it
   * lands): refused unless the file is its row's, at the row's path, size and time, and not kept; then marked first,
   * truncated to 0 and back to its size (no block left), its time put back. Undefined when freed.
   */
  #free(target: string): string | undefined {
    if (!existsSync(target)) return 'nothing there';
    if (isPlaceholder(target)) return 'already a placeholder';
    const stats = lstatSync(target, { bigint: true });
    if (!stats.isFile()) return 'not a file';
    const row = this.#index()
      .byInode(stats.ino.toString())
      .find((entry) => entry.kind === 'file');
    // The window frees what it shows at its synced place: a file moved here since is not the row's yet.
    if (row === undefined || nfc(row.path) !== nfc(relative(this.#local.root, target))) return 'not synced';
    if (this.#kept(row)) return 'kept on this computer (pinned)';
    if (row.localMtimeNs === null || BigInt(row.localSize ?? -1) !== stats.size)
      return 'changed since it was synced (size)';
    if (row.localMtimeNs !== stats.mtimeNs) return 'changed since it was synced (time)';
    const fd = openSync(target, constants.O_RDWR | constants.O_NOFOLLOW);
    try {
      const attributes = placeholderAttributes();
      attributes.setAttribute(fd, PLACEHOLDER_XATTR, Buffer.from(PLACEHOLDER_MARK));
      ftruncateSync(fd, 0);
      ftruncateSync(fd, Number(stats.size));
      attributes.setMtimeNs(fd, stats.mtimeNs);
    } finally {
      closeSync(fd);
    }
    return undefined;
  }

  /** Whether the row's item or a folder above it on the device is pinned. */
  #kept(row: IndexEntry): boolean {
    const device = this.#remote().device;
    for (let id: string | null = row.remoteId; id !== null; id = device.items.get(id)?.parent_id ?? null) {
      if (this.pinned.has(id)) return true;
    }
    return false;
  }

  /**
   * The version a placeholder stands for, for the ledger: what the device holds for its row when that
   * is still the row's size and time; null when it is another by now (whoever changed it there removed
   * the row's version on purpose); undefined when `path` is no placeholder. Never the zeros it holds.
   */
  #placeholderContent(path: string): string | null | undefined {
    if (!existsSync(path) || !lstatSync(path).isFile() || !isPlaceholder(path)) return undefined;
    const row = this.#index()
      .byInode(lstatSync(path, { bigint: true }).ino.toString())
      .find((entry) => entry.kind === 'file');
    if (row === undefined) return null;
    const device = this.#remote().device;
    const item = device.items.get(row.remoteId);
    if (item === undefined || item.size !== row.size || item.m_time !== row.mTimeMs) return null;
    return item.blob === null ? '' : readFileSync(device.blobs.path(item.blob)).toString('latin1');
  }

  /**
   * The state as the checks must read it: a local placeholder holds what the device holds for its row
   * (the device keeps the content), once its size and time are checked against the device's and the
   * row's. What the view found wrong is kept for `check`.
   */
  view(raw: PassState): PassState {
    const violations: Violation[] = [];
    const placeholders = new Set<string>();
    const hidden = [...(raw.skipped ?? []), ...(raw.skippedLocal ?? [])];
    const rows = new Map(
      raw.index.flatMap((row) =>
        row.kind === 'file' && row.inode !== null ? [[row.inode, row] as const] : [],
      ),
    );
    const remoteById = new Map(
      raw.remote.flatMap((item) => (item.id === undefined ? [] : [[item.id, item] as const])),
    );
    const local = raw.local.map((item): SnapshotItem => {
      if (item.kind !== 'file' || item.inode === undefined) return item;
      const path = join(this.#local.root, item.path);
      if (!isPlaceholder(path)) return item;
      placeholders.add(item.inode);
      const outOfSight = hidden.some((skipped) => isWithin(nfc(item.path), nfc(skipped)));
      const fail = (message: string): void => {
        if (!outOfSight)
          violations.push({ code: 'placeholder', message: `placeholder ${showPath(item.path)}: ${message}` });
      };
      // Under a name the pass leaves out (a NAME_CLASH), a placeholder whose item moved on or went on
      // the device stays as it was until the user renames (then it has no row: removed). Its zeros are
      // no version of anything, and its content is on the device (generated seed 190).
      const { content: _zeros, ...noContent } = item;
      const row = rows.get(item.inode);
      if (row === undefined) {
        fail('no index row has its inode');
        return outOfSight ? noContent : item;
      }
      const onDevice = remoteById.get(row.remoteId);
      if (onDevice === undefined) {
        fail(`its row's item ${row.remoteId} is not in the device folder`);
        return outOfSight ? noContent : item;
      }
      const stats = lstatSync(path, { bigint: true });
      const size = Number(stats.size);
      if (size !== row.size || size !== onDevice.size)
        fail(`size ${size}, the row ${row.size}, the device ${onDevice.size}`);
      if (row.localMtimeNs !== stats.mtimeNs)
        fail(`mtime ${stats.mtimeNs} ns, the row's local time ${row.localMtimeNs} ns`);
      if (msOfNs(stats.mtimeNs) !== onDevice.mTimeMs)
        fail(`mtime ${msOfNs(stats.mtimeNs)} ms, the device ${onDevice.mTimeMs} ms`);
      return onDevice.content === undefined ? item : { ...item, content: onDevice.content };
    });
    const state = this.#outOfSight({ ...raw, local }, placeholders, violations);
    this.#looked.set(state, { violations, placeholders });
    return state;
  }

  /**
   * The client's decision (f6e2c8d, 3d5bfaa; app/sync/on-demand/placeholder-inputs.ts, movedOutOfSight):
   * in a pair that holds placeholders, an item moved here to a name the pass left out for a NAME_CLASH
   * (known as the engine pairs a move: its row's inode and kind, for a file its row's size and time) is
   * unknown for the round, not deleted on the device, where a placeholder's only content is. Its row
   * stays at its old path, and with it the rows below; that path is left out on both sides (a device
   * change there waits for the user's rename too). Each such row must still be the device's item at
   * its path, kind, size and time, or gone from the device (the other client deleted or replaced it).
   * A placeholder under the left-out name stands for its row's device item: its content (the view gave
   * it the device's), or none once the device's user removed that item (its zeros are no version).
   */
  #outOfSight(state: PassState, placeholders: ReadonlySet<string>, violations: Violation[]): PassState {
    const clashes = state.nameClashes ?? [];
    if (placeholders.size === 0 || clashes.length === 0) return state;
    const underClash = (path: string): boolean => clashes.some((clash) => isWithin(path, clash));
    const moved = new Map(
      state.local.flatMap((item) =>
        item.inode !== undefined && underClash(item.path) ? [[item.inode, item] as const] : [],
      ),
    );
    const out = state.index.filter((row) => {
      const item = row.inode === null ? undefined : moved.get(row.inode);
      if (item === undefined || item.kind !== row.kind || underClash(row.path)) return false;
      if (row.kind === 'folder') return true;
      const stats = lstatSync(join(this.#local.root, item.path), { bigint: true });
      return Number(stats.size) === row.localSize && stats.mtimeNs === row.localMtimeNs;
    });
    if (out.length === 0) return state;
    const paths = out.map((row) => row.path);
    const waiting = state.index.filter((row) => paths.some((path) => isWithin(row.path, path)));
    const remoteById = new Map(
      state.remote.flatMap((item) => (item.id === undefined ? [] : [[item.id, item] as const])),
    );
    for (const row of waiting) {
      const onDevice = remoteById.get(row.remoteId);
      if (onDevice === undefined) continue;
      const where = `index row ${showPath(row.path)} (${row.remoteId}), its item moved here to a name left out`;
      const fail = (message: string): void => {
        violations.push({ code: 'index-mismatch', message: `${where}: ${message}` });
      };
      // Its content may be newer there (the other client edited it: soak 2036): that edit waits for
      // the rename too, and the ledger checks that no version is lost meanwhile.
      if (nfc(onDevice.path) !== nfc(row.path)) fail(`the device has it at ${showPath(onDevice.path)}`);
      else if (onDevice.kind !== row.kind) fail(`the device has a ${onDevice.kind}`);
    }
    const gone = new Map(
      out.flatMap((row) =>
        row.kind === 'file' && row.inode !== null && !remoteById.has(row.remoteId)
          ? [[row.inode, row] as const]
          : [],
      ),
    );
    const local = state.local.map((item) => {
      const row = item.inode === undefined ? undefined : gone.get(item.inode);
      if (row === undefined || !placeholders.has(item.inode ?? '') || !underClash(item.path)) return item;
      if (Number(lstatSync(join(this.#local.root, item.path)).size) !== row.size) return item;
      const { content: _zeros, ...rest } = item;
      return rest;
    });
    return {
      ...state,
      local,
      index: state.index.filter((row) => !waiting.includes(row)),
      skipped: [...(state.skipped ?? []), ...paths],
    };
  }

  /**
   * Issue 30's checks at quiet, on a state `view` made: what the view found; (c) every file the user
   * keeps (pinned, or below a pinned folder) is whole here; (d) no placeholder (nor its zeros) in a trash.
   */
  check(state: PassState): Violation[] {
    const looked = this.#looked.get(state);
    if (looked === undefined) throw new Error('check takes a state that view made');
    const violations = [...looked.violations];
    const keptPaths = state.remote
      .filter((item) => item.id !== undefined && this.pinned.has(item.id))
      .map((item) => item.path);
    const keptIds = new Set(
      state.remote
        .filter((item) => item.kind === 'file' && keptPaths.some((kept) => isWithin(item.path, kept)))
        .flatMap((item) => (item.id === undefined ? [] : [item.id])),
    );
    for (const row of state.index) {
      if (row.kind !== 'file' || row.inode === null || !keptIds.has(row.remoteId)) continue;
      if (looked.placeholders.has(row.inode))
        violations.push({
          code: 'placeholder',
          message: `${showPath(row.path)} is kept on this computer (pinned) but still a placeholder`,
        });
    }
    for (const folder of this.#trash) violations.push(...placeholdersIn(folder));
    return violations;
  }
}

/** What the mount does for an O_TRUNC open of a placeholder: truncated, then unmarked; the write follows. */
function overwriteThroughMount(path: string): void {
  if (!existsSync(path) || !isPlaceholder(path)) return;
  const fd = openSync(path, constants.O_RDWR | constants.O_NOFOLLOW);
  try {
    ftruncateSync(fd, 0);
    placeholderAttributes().removeAttribute(fd, PLACEHOLDER_XATTR);
  } finally {
    closeSync(fd);
  }
}

/** (d) Files in a trash folder that are placeholders, or hold only zeros (a placeholder's bytes). */
function placeholdersIn(folder: string): Violation[] {
  const violations: Violation[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const bytes = readFileSync(path);
        if (isPlaceholder(path) || (bytes.length > 0 && bytes.every((byte) => byte === 0)))
          violations.push({ code: 'placeholder', message: `a placeholder in the trash: ${showPath(path)}` });
      }
    }
  };
  if (existsSync(folder)) walk(folder);
  return violations;
}
