// The checks of a pass's own report: it ran to the end and synced everything, and the pass after it did nothing.
import { remedyOf, staysOut, type PassIssue, type PassReport } from '../../../app/sync/pass-report.ts';
import { showPath, type Violation } from './invariants.ts';

/** Issues a run expects (issue 29: a synced file moved into a kept copy is left out, needing the user). */
export type ExpectedIssue = (issue: PassIssue) => boolean;

const NONE: ExpectedIssue = () => false;

/**
 * The pass itself: it ran to the end and synced everything (nothing held, retried or failed), bar
 * items that stay out: skipped, or with a name that cannot sync as it is (`staysOut`: a name clash
 * is `failed` since issue 27, and the pass `errors`).
 */
export function checkReport(
  report: PassReport | Error,
  phase: string,
  expected: ExpectedIssue = NONE,
): Violation[] {
  if (report instanceof Error) {
    // The first frames say where; the test runner's frames below them say nothing.
    const where = (report.stack ?? report.message).split('\n').slice(0, 4).join('\n');
    return [{ code: 'pass-failed', message: `${phase}: syncOnce threw ${where}` }];
  }
  const violations: Violation[] = [];
  // `errors` with no item left unsynced to say why would be a status without a reason.
  const unexplained = report.status === 'errors' && report.issues.every((issue) => !remedyOf(issue));
  if (report.status === 'held' || unexplained)
    violations.push({ code: 'pass-failed', message: `${phase}: status ${report.status}` });
  for (const issue of report.issues) {
    // Skips, names that cannot sync and warnings are for the user to see to; they leave no side behind.
    if (issue.kind === 'warning' || staysOut(issue) || expected(issue)) continue;
    violations.push({
      code: 'pass-failed',
      message: `${phase}: ${issue.kind} ${showPath(issue.path)} ${issue.code}: ${issue.message}`,
    });
  }
  return violations;
}

/** (4) A pass right after a complete one has nothing left to do. */
export function checkStable(report: PassReport | Error, expected: ExpectedIssue = NONE): Violation[] {
  if (report instanceof Error) return checkReport(report, 'second pass', expected);
  const done = Object.entries(report.operations).filter(([, count]) => count > 0);
  if (done.length === 0) return checkReport(report, 'second pass', expected);
  const list = done.map(([name, count]) => `${name} ×${count}`).join(', ');
  return [
    { code: 'not-stable', message: `a second pass still did: ${list}` },
    ...checkReport(report, 'second pass', expected),
  ];
}
