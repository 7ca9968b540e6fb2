// What a pass report says it changed, as one number, for benches that fail when a pass with nothing to do changed anything.
import type { PassReport } from '../../app/sync/pass-report.ts';

/** Everything a pass changed, as one number: 0 for a pass with nothing to do. */
export function changesOf(report: Pick<PassReport, 'counts' | 'operations' | 'issues'>): number {
  // A spread is a plain object type, so Object.values sees numbers (an interface would give any[]).
  const counted: Record<string, number> = { ...report.counts };
  const counts = Object.values(counted).reduce((sum, count) => sum + count, 0);
  const operations = Object.values(report.operations).reduce((sum, count) => sum + count, 0);
  return counts + operations + report.issues.length;
}
