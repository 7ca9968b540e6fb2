// What the user can do about each issue of a pass, in the groups every front end shows: the command line's sections and the window's Issues.
import { remedyOf, type IssueRemedy, type PassIssue } from './pass-report.ts';

/** The groups issues are shown in, in this order: what needs the user first, what is fine last. */
export type IssueGroup = IssueRemedy | 'skipped' | 'warning';

export const ISSUE_GROUPS: readonly IssueGroup[] = [
  'needs-you',
  'never-as-is',
  'retry-later',
  'skipped',
  'warning',
];

export function groupOf(issue: Pick<PassIssue, 'kind' | 'code' | 'remedy'>): IssueGroup {
  if (issue.kind === 'skipped' || issue.kind === 'warning') return issue.kind;
  return remedyOf(issue) ?? 'needs-you';
}

/** Whether the issue leaves the two sides different (not merely left out by the rules, or a warning). */
export function isUnsynced(issue: Pick<PassIssue, 'kind'>): boolean {
  return issue.kind === 'retry' || issue.kind === 'failed';
}
