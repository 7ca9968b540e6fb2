// What a pass leaves for others: its summary in the index meta (for `mch-sync status`) and the advice of a hold.
import type { IndexStore } from '../../index/index-store.ts';
import type { PassHold, PassIssue, PassReport } from '../pass-report.ts';
import { holdAdvice } from '../hold-words.ts';
import type { Plan } from '../plan/planner.ts';
import type { ScanResult } from '../local/scanner.ts';

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
  return withAdvice(localRoot, {
    reason: 'local-root-missing',
    deletes: { local: 0, localTotal: 0, remote: 0, remoteTotal: 0 },
    what: `The folder ${localRoot} ${why}. Nothing was changed.`,
  });
}

export function massDeleteHold(planned: Extract<Plan, { status: 'held' }>, localRoot: string): PassHold {
  const { deletes } = planned;
  const paths = planned.deletedPaths;
  if (planned.reason === 'emptied-root') {
    return withAdvice(localRoot, {
      reason: planned.reason,
      deletes,
      paths,
      what:
        `The folder ${localRoot} is empty, but ${count(deletes.remote)} of ${deletes.remoteTotal} on the ` +
        `device were synced into it. Nothing was changed on either side.`,
    });
  }
  const earlier = planned.earlierDeletes;
  const before =
    earlier.local + earlier.remote === 0
      ? ''
      : ` Just before, ${count(earlier.remote)} were deleted on the device and ${count(earlier.local)} ` +
        `moved to the trash here: together they are too many to go ahead unasked.`;
  const sides = [
    ...(deletes.remote > 0
      ? [
          `delete ${count(deletes.remote)} of ${deletes.remoteTotal} on the device (they were deleted on ` +
            `this computer)`,
        ]
      : []),
    ...(deletes.local > 0
      ? [
          `move ${count(deletes.local)} of ${deletes.localTotal} on this computer to the trash (they were ` +
            `deleted on the device)`,
        ]
      : []),
  ];
  return withAdvice(localRoot, {
    reason: planned.reason,
    deletes,
    paths,
    what: `This pass would ${sides.join(' and ')}.${before} Nothing ${before === '' ? '' : 'more '}was deleted.`,
  });
}

/** The hold with the command line's advice, which older records and `mch-sync status` show. */
export function withAdvice(localRoot: string, hold: Omit<PassHold, 'advice'> & { what: string }): PassHold {
  const held: PassHold = { ...hold, advice: hold.what };
  held.advice = holdAdvice(held, localRoot, 'command');
  return held;
}

function count(items: number): string {
  return `${items} ${items === 1 ? 'item' : 'items'}`;
}
