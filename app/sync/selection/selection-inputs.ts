// What selective sync leaves out of a round's inputs: excluded and waiting folders, new items in a copy about to go, files moved into a kept copy; the folders above one are marked.
import { formatBytes } from '../../../common/units.ts';
import {
  nameKey,
  type IndexRow,
  type LocalEntry,
  type RelativePath,
  type RemoteEntry,
} from '../../model/items.ts';
import { unsyncedItem, type PassIssue } from '../pass-report.ts';
import type { ScanResult } from '../local/scan-result.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';

/** A remote entry the round leaves out, itself and all below it, with what the pass says of it. */
export interface LeftOutBySelection {
  issue: PassIssue | undefined;
}

/**
 * Judges the walk's entries, parents before children: an excluded or waiting folder is left out (a
 * waiting one says so), and so is what is new (`isKnown` false) below a folder whose local copy goes
 * once synced; what the index knows there goes on being synced, so what is unsynced here goes up first.
 */
export class SelectionLeftOut {
  readonly #excluded: ReadonlySet<string>;
  readonly #waiting: ReadonlyMap<string, { bytes: number; files: number }>;
  readonly #newOnly: Set<string>;
  readonly #isKnown: (id: string) => boolean;

  /** `nameKey` of the places of the kept copies the scan skipped. */
  readonly #keptPlaces: ReadonlySet<string>;

  constructor(excluded: RemoteWalkResult['excluded'], scan: ScanResult, isKnown: (id: string) => boolean) {
    this.#keptPlaces = new Set(
      scan.skipped.filter((item) => item.reason === 'excluded').map((item) => nameKey(item.path)),
    );
    this.#excluded = new Set(excluded.filter((folder) => folder.newOnly !== true).map((folder) => folder.id));
    this.#waiting = new Map(
      excluded.flatMap((folder) =>
        folder.waiting === undefined ? [] : [[folder.id, folder.waiting] as const],
      ),
    );
    this.#newOnly = new Set(excluded.filter((folder) => folder.newOnly === true).map((folder) => folder.id));
    this.#isKnown = isKnown;
  }

  get isEmpty(): boolean {
    return this.#excluded.size === 0 && this.#newOnly.size === 0;
  }

  /**
   * The issue of a device item, not itself excluded, at the very place of a kept copy (another client
   * deleted the excluded folder and put something else under its name): the copy holds the name here.
   */
  keptCopyHolds(found: RemoteEntry, path: RelativePath): PassIssue | undefined {
    if (this.#keptPlaces.size === 0 || this.#excluded.has(found.id) || !this.#keptPlaces.has(nameKey(path)))
      return undefined;
    return unsyncedItem(
      'KEPT_COPY_HOLDS_NAME',
      path,
      'On the device: this item has the name of a folder excluded from this computer whose copy is kept here, so it is not synced. Rename one of them, or move the kept copy away.',
    );
  }

  judge(found: RemoteEntry, path: RelativePath): LeftOutBySelection | undefined {
    if (this.#excluded.has(found.id)) {
      const waiting = this.#waiting.get(found.id);
      return { issue: waiting === undefined ? undefined : waitingFolder(path, waiting) };
    }
    if (!this.#newOnly.has(found.parentId)) return undefined;
    if (!this.#isKnown(found.id)) return { issue: undefined };
    if (found.kind === 'folder') this.#newOnly.add(found.id);
    return undefined;
  }
}

/** A new device folder over the pair's threshold, left out until the user answers. */
export function waitingFolder(path: RelativePath, size: { bytes: number; files: number }): PassIssue {
  const files = `${size.files} ${size.files === 1 ? 'file' : 'files'}`;
  return {
    kind: 'skipped',
    path,
    code: 'WAITING_FOR_ANSWER',
    message: `A new folder on the device (${files}, ${formatBytes(size.bytes)}), over the size to ask about: it is not synced until you choose to sync it or leave it out.`,
  };
}

/**
 * The synced items the user moved into the kept copy of an excluded folder (an item there has their
 * inode, kind, size and time, and their path has not): not deleted, but left out on both sides, the
 * device keeping each where it was.
 */
export function movedIntoKeptCopies(
  scan: ScanResult,
  rows: ReadonlyMap<string, IndexRow>,
  local: ReadonlyMap<RelativePath, LocalEntry>,
): Array<{ path: RelativePath; issue: PassIssue }> {
  const kept = scan.keptInodes;
  if (kept === undefined || kept.size === 0) return [];
  const moved: Array<{ path: RelativePath; issue: PassIssue }> = [];
  // Under NFC, as the reconciler pairs a row with what was saved at its path: a name spelled the other
  // way is the same name (seed 615: left out, the row's place was free for a new file that could never go up).
  let here: Set<string> | undefined;
  for (const row of rows.values()) {
    // Something is at its path (itself, or a new file an editor saved there): it did not move.
    if (row.inode === null || local.has(row.path)) continue;
    here ??= new Set([...local.keys()].map(nameKey));
    if (here.has(nameKey(row.path))) continue;
    const found = kept.get(row.inode);
    // The same inode, kind, size and time: moved there (a new file given a freed inode is not).
    if (found === undefined || found.kind !== row.kind) continue;
    if (row.kind === 'file' && (found.size !== row.localSize || found.mtimeNs !== row.localMtimeNs)) continue;
    moved.push({
      path: row.path,
      issue: unsyncedItem(
        'MOVED_INTO_EXCLUDED',
        row.path,
        'It was moved into a folder excluded from this computer, so it is not synced there: the device keeps it here. Move it back, or include that folder.',
      ),
    });
  }
  return moved;
}

/**
 * Flags every local folder above a kept copy of an excluded folder (`holdsLeftOut`): the planner sees
 * nothing of the copy, and a folder the device deleted would otherwise go to the trash with it.
 */
export function markHoldersOfKeptCopies(scan: ScanResult, local: Map<RelativePath, LocalEntry>): void {
  for (const item of scan.skipped) {
    if (item.reason !== 'excluded') continue;
    for (let end = item.path.lastIndexOf('/'); end > 0; end = item.path.lastIndexOf('/', end - 1)) {
      const entry = local.get(item.path.slice(0, end));
      if (entry === undefined || entry.holdsLeftOut === true) continue;
      local.set(entry.path, { ...entry, holdsLeftOut: true });
    }
  }
}
