// What a finished pass says of itself: its status, and the issues a later quiet pass may report again.
import { staysOut, type PassReport, type PassStatus } from '../pass-report.ts';
import type { StandingIssues } from './quiet-pass.ts';

/**
 * An item left to retry (changed while it was sent, locked, vanished) is not synced: the sides do not
 * match until a later pass sends it, and the pass never says they do.
 */
export function passStatus(report: Pick<PassReport, 'hold' | 'issues'>): PassStatus {
  if (report.hold) return 'held';
  return report.issues.some((issue) => issue.kind === 'failed' || issue.kind === 'retry')
    ? 'errors'
    : 'synced';
}

/**
 * What a later quiet pass may report again: issues that stay until the user acts (a name that cannot
 * sync as it is), never one a later pass could resolve by itself (a retry). Undefined after a hold or
 * with anything left to retry.
 */
export function standingIssuesOf(
  report: Pick<PassReport, 'status' | 'issues'>,
  fromScan: number,
): StandingIssues | undefined {
  return report.status !== 'held' && report.issues.every((i) => i.kind === 'warning' || staysOut(i))
    ? { issues: report.issues, fromScan }
    : undefined;
}
