// What a pass leaves for others: its summary in the index meta, which `mch-sync status` reads when no service runs.
import type { IndexStore } from '../../index/index-store.ts';
import type { PassIssue, PassReport } from '../pass-report.ts';
import { META_LAST_PASS, META_LAST_SYNC } from '../../index/meta-keys.ts';

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
