// What a pass leaves for others: its summary in the index meta, which `mch-sync status` reads when no service runs.
import type { IndexStore } from '../../index/index-store.ts';
import type { OnDemandPolicy } from '../engine-options.ts';
import type { ScanResult } from '../local/scan-result.ts';
import type { OnDemandUse, PassIssue, PassReport } from '../pass-report.ts';
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
  /**
   * An on-demand pair: where its files' content is, as the last round that read the whole cache folder
   * counted it (a scoped pass keeps the count before it: the files it did not read did not change).
   */
  onDemand?: OnDemandUse;
}

/** What `mch-sync status` shows when no service runs: the last pass, read back from the index. */
export function rememberPass(index: IndexStore, report: PassReport): void {
  const onDemand = report.onDemand ?? storedOnDemandUse(index.getMeta(META_LAST_PASS));
  const summary: StoredPassSummary = {
    status: report.status,
    finishedAtMs: report.finishedAtMs,
    counts: report.counts,
    hold: report.hold,
    issues: report.issues.slice(0, MAX_STORED_ISSUES),
    issueCount: report.issues.length,
    ...(onDemand === undefined ? {} : { onDemand }),
  };
  index.setMeta(META_LAST_PASS, JSON.stringify(summary));
  if (report.status === 'synced') index.setMeta(META_LAST_SYNC, String(report.finishedAtMs));
}

/** The use `scan` shows; undefined when the folder was not read (a held root). */
export function onDemandUseOf(scan: ScanResult, nowMs: number): OnDemandUse | undefined {
  if (scan.root !== 'ok' && scan.root !== 'empty') return undefined;
  const use: OnDemandUse = {
    whole: { files: 0, bytes: 0 },
    placeholders: { files: 0, bytes: 0 },
    countedAtMs: nowMs,
  };
  for (const entry of scan.entries) {
    if (entry.kind !== 'file') continue;
    const side = scan.placeholders?.has(entry.inode) === true ? use.placeholders : use.whole;
    side.files += 1;
    side.bytes += entry.size;
  }
  return use;
}

/** Puts a whole round's count in the pass's report (on-demand pairs only): a scoped scan saw a part. */
export function countOnDemandUse(
  report: PassReport,
  scan: ScanResult,
  whole: boolean,
  onDemand: OnDemandPolicy | undefined,
): void {
  if (!whole || onDemand === undefined) return;
  const use = onDemandUseOf(scan, Date.now());
  if (use !== undefined) report.onDemand = use;
}

/** The count the last pass kept, when its record holds one that reads as such. */
function storedOnDemandUse(text: string | undefined): OnDemandUse | undefined {
  if (text === undefined) return undefined;
  try {
    const found = (JSON.parse(text) as { onDemand?: OnDemandUse }).onDemand;
    return typeof found?.whole?.bytes === 'number' && typeof found.placeholders?.bytes === 'number'
      ? found
      : undefined;
  } catch {
    return undefined;
  }
}
