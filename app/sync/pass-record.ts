// What a pass leaves for others: its summary in the index meta (for `mch-sync status`) and the advice of a hold.
import type { IndexStore } from '../index/index-store.ts';
import type { PassHold, PassIssue, PassReport } from './pass-report.ts';
import type { Plan } from './planner.ts';
import type { ScanResult } from './scanner.ts';

/** Keys of the index's meta table the engine writes (`mch-sync status` reads them). */
export const META_REMOTE_ROOT = 'remoteRootId';
export const META_REMOTE_FOLDER = 'remoteFolder';
export const META_LOCAL_ROOT = 'localRoot';
/** A `StoredPassSummary` as JSON. */
export const META_LAST_PASS = 'lastPass';
/** When a pass last ended with both sides matching, ms since the epoch. */
export const META_LAST_SYNC = 'lastSyncAtMs';
const MAX_STORED_ISSUES = 200;

export interface StoredPassSummary {
  status: PassReport['status'];
  finishedAtMs: number;
  counts: PassReport['counts'];
  hold: PassReport['hold'];
  /** The first issues of the pass; `issueCount` says how many there were. */
  issues: PassIssue[];
  issueCount: number;
}

/** What `mch-sync status` shows when no service runs: the last pass, read back from the index. */
export function rememberPass(index: IndexStore, report: PassReport): void {
  const summary: StoredPassSummary = {
    status: report.status,
    finishedAtMs: report.finishedAtMs,
    counts: report.counts,
    hold: report.hold,
    issues: report.issues.slice(0, MAX_STORED_ISSUES),
    issueCount: report.issues.length,
  };
  index.setMeta(META_LAST_PASS, JSON.stringify(summary));
  if (report.status === 'synced') index.setMeta(META_LAST_SYNC, String(report.finishedAtMs));
}

export function rootHold(localRoot: string, scan: ScanResult): PassHold {
  const why =
    scan.root === 'missing'
      ? 'is missing'
      : scan.root === 'not-a-folder'
        ? 'is not a folder'
        : `cannot be read (${scan.rootDetail ?? 'unknown error'})`;
  return {
    reason: 'local-root-missing',
    deletes: { local: 0, localTotal: 0, remote: 0, remoteTotal: 0 },
    advice: `The folder ${localRoot} ${why}. Nothing was changed: if it is on a drive that is not mounted, mount it and run again.`,
  };
}

export function massDeleteHold(planned: Extract<Plan, { status: 'held' }>, localRoot: string): PassHold {
  const { deletes } = planned;
  const paths = planned.deletedPaths;
  if (planned.reason === 'emptied-root') {
    return {
      reason: planned.reason,
      deletes,
      paths,
      advice:
        `The folder ${localRoot} is empty, but ${deletes.remote} of ${deletes.remoteTotal} items on the ` +
        `device were synced into it. Nothing was changed on either side. If you deleted them on purpose, ` +
        `confirm the deletes (--confirm-deletes) and they are deleted on the device too; to bring them ` +
        `back from the device, restore them (--restore).`,
    };
  }
  const earlier = planned.earlierDeletes;
  const before =
    earlier.local + earlier.remote === 0
      ? ''
      : ` Just before, ${earlier.remote} items were deleted on the device and ${earlier.local} moved to ` +
        `the trash here: together they are too many to go ahead unasked.`;
  return {
    reason: planned.reason,
    deletes,
    paths,
    advice:
      `This pass would delete ${deletes.remote} of ${deletes.remoteTotal} items on the device and move ` +
      `${deletes.local} of ${deletes.localTotal} items on this computer to the trash.${before} Nothing ` +
      `more was deleted. If that is what you want, run again with --confirm-deletes.`,
  };
}
