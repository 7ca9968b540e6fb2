// Whether a whole pass has nothing to do: the disk as the index left it and the device as the last settled pass saw it.
import type { IndexStore } from '../../index/index-store.ts';
import { META_SETTLED } from '../../index/meta-keys.ts';
import { FOLDER_DIGEST_VERSION } from '../../model/folder-digest.ts';
import type { IndexEntry, LocalEntry, RelativePath } from '../../model/items.ts';
import { scanIssues } from './pass-inputs.ts';
import type { PassIssue } from '../pass-report.ts';
import { baseName } from '../../model/paths.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';
import type { ScannedFolder, ScanResult } from '../local/scanner.ts';

/** Folders whose digest differs that are still compared row by row; more, and the pass plans. */
const MAX_FOLDERS_COMPARED = 32;

/** Issues a settled pass reports again: the scan's own (found again by every scan) and the others. */
export interface StandingIssues {
  issues: readonly PassIssue[];
  /** How many of `issues`, at the start, came from the scan. */
  fromScan: number;
}

/**
 * What a pass that left both sides matching (nothing to retry, no hold) writes for the next engine on
 * this index; every pass deletes it before it changes anything, so it only ever describes the index
 * and the stored listings as that pass left them.
 */
export interface SettledRecord {
  version: number;
  remoteRootId: string;
  /** The pass's issues that did not come from its scan (refused or clashing names on the device...). */
  issues: PassIssue[];
}

/** Reads the record and deletes it: from now on this pass may change the index. */
export function takeSettledRecord(index: IndexStore): SettledRecord | undefined {
  const text = index.getMeta(META_SETTLED);
  if (text === undefined) return undefined;
  index.deleteMeta(META_SETTLED);
  try {
    const record = JSON.parse(text) as Partial<SettledRecord>;
    const usable =
      record.version === FOLDER_DIGEST_VERSION &&
      typeof record.remoteRootId === 'string' &&
      Array.isArray(record.issues);
    return usable ? (record as SettledRecord) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts a taken record back after a pass that ended (cancelled, failed) without writing a row: the
 * index and the stored listings are still exactly as the record describes them. Without it, a live
 * service stopped while a pass was still looking would leave the next `run --once` to plan over
 * everything. Any write since the record was taken (`writesAtTake`) keeps it gone.
 */
export function putBackSettledRecord(index: IndexStore, record: SettledRecord, writesAtTake: number): void {
  if (index.writeCount() !== writesAtTake || index.getMeta(META_SETTLED) !== undefined) return;
  index.setMeta(META_SETTLED, JSON.stringify(record));
}

/** putBackSettledRecord for a pass that failed: its own error is the one to report, so this never throws. */
export function putBackQuietly(index: IndexStore, taken: { record: SettledRecord; writes: number }): void {
  try {
    putBackSettledRecord(index, taken.record, taken.writes);
  } catch {
    // An index that cannot be read or written now (closed, locked): nothing is lost by leaving it; the
    // record stays gone and the next pass compares.
  }
}

/** Records a settled pass: the digests of folders whose rows changed, then the record, in one transaction. */
export function recordSettled(index: IndexStore, remoteRootId: string, standing: StandingIssues): void {
  const record: SettledRecord = {
    version: FOLDER_DIGEST_VERSION,
    remoteRootId,
    issues: standing.issues.slice(standing.fromScan),
  };
  index.transaction(() => {
    index.digests.fillMissing(remoteRootId);
    index.setMeta(META_SETTLED, JSON.stringify(record));
  });
}

/** Whether a folder's synced children on disk are the index's rows under it, as a pass would compare them. */
function sameChildren(
  entries: readonly LocalEntry[],
  rows: readonly IndexEntry[],
  unknown: ReadonlySet<RelativePath>,
): boolean {
  const byName = new Map<string, LocalEntry>();
  for (const entry of entries) byName.set(baseName(entry.path), entry);
  let paired = 0;
  for (const row of rows) {
    // Skipped by this scan (a file that became a symlink...): left out of a pass, row and all.
    if (unknown.has(row.path)) continue;
    const entry = byName.get(baseName(row.path));
    if (
      entry === undefined ||
      entry.path !== row.path ||
      entry.kind !== row.kind ||
      entry.inode !== row.inode
    ) {
      return false;
    }
    if (entry.kind === 'file' && (entry.size !== row.localSize || entry.mtimeNs !== row.localMtimeNs))
      return false;
    paired += 1;
  }
  return paired === entries.length;
}

/**
 * The issues of a pass that has nothing to do, or undefined when it may have something to do (then it
 * plans as usual). Nothing to do means: the last pass on this index settled (`settled`); every remote
 * folder answered 304, so the device holds what that pass saw; and every folder on disk holds what the
 * index says, by digest or, for a few folders, row by row. A pass that planned from these inputs would
 * find no change on either side.
 */
export function quietPassIssues(
  scan: ScanResult,
  walk: RemoteWalkResult,
  index: IndexStore,
  remoteRootId: string,
  settled: SettledRecord,
): PassIssue[] | undefined {
  if (settled.remoteRootId !== remoteRootId) return undefined;
  if ((scan.root !== 'ok' && scan.root !== 'empty') || scan.folders === undefined) return undefined;
  // Names one file system would take as one: the planner decides which is synced.
  if (scan.clashes.length > 0) return undefined;
  if (walk.listed.size > 0 || walk.vanished.length > 0 || walk.rejected.length > 0) return undefined;
  const issues = scanIssues(scan);
  if (issues.some((issue) => issue.kind === 'retry')) return undefined;

  const folderIds = index.digests.folderIdsByPath();
  const digests = index.digests.all();
  const differing: Array<{ folder: ScannedFolder; id: string }> = [];
  for (const folder of scan.folders) {
    const id = folder.path === '' ? remoteRootId : folderIds.get(folder.path);
    // A folder the index does not have: new, or renamed.
    if (id === undefined) return undefined;
    if (digests.get(id) === folder.digest) continue;
    differing.push({ folder, id });
    if (differing.length > MAX_FOLDERS_COMPARED) return undefined;
  }
  if (differing.length > 0) {
    const unknown = new Set(scan.skipped.map((skipped) => skipped.path));
    for (const { folder, id } of differing) {
      const entries = scan.entries.slice(folder.first, folder.end);
      if (!sameChildren(entries, index.children(id), unknown)) return undefined;
    }
  }
  return [...issues, ...settled.issues];
}
