// The items a pass left unsynced or out, for people: grouped by what the user can do, every name shown safely.
import { groupOf, isUnsynced, ISSUE_GROUPS, type IssueGroup } from '../../sync/issue-groups.ts';
import type { PassIssue } from '../../sync/pass-report.ts';
import { terminalSafe } from '../../search/terminal-text.ts';

const HEADINGS: Readonly<Record<IssueGroup, string>> = {
  'needs-you': 'Needs you',
  'never-as-is': 'Cannot sync as it is',
  'retry-later': 'Not synced yet, tried again next run',
  skipped: 'Left out on purpose',
  warning: 'Synced, with a warning',
};

/** The short label of a group on one status line. */
export const GROUP_LABELS: Readonly<Record<IssueGroup, string>> = {
  'needs-you': 'needs you',
  'never-as-is': 'cannot sync',
  'retry-later': 'next run',
  skipped: 'left out',
  warning: 'warning',
};

/**
 * A path of the synced folder as the user knows it, safe to print: control characters (an escape
 * sequence from the device, a newline) are shown as `\uXXXX`, so a name can neither drive the terminal
 * nor forge a line. `.` for the folder itself.
 */
export function shownPath(path: string): string {
  return path === '' ? '.' : terminalSafe(path);
}

/** `path: message [CODE]`, one line whatever the name holds. */
export function issueLine(issue: Pick<PassIssue, 'path' | 'message' | 'code'>): string {
  return `${shownPath(issue.path)}: ${terminalSafe(issue.message)} [${terminalSafe(issue.code)}]`;
}

/** Each group with its heading and count, at most `max` lines each; blank lines between groups. */
export function issueSections(issues: readonly PassIssue[], max: number): string[] {
  const lines: string[] = [];
  for (const group of ISSUE_GROUPS) {
    const members = issues.filter((issue) => groupOf(issue) === group);
    if (members.length === 0) continue;
    lines.push('', `${HEADINGS[group]} (${members.length}):`);
    lines.push(...members.slice(0, max).map((issue) => `  ${issueLine(issue)}`));
    if (members.length > max) lines.push(`  ... and ${members.length - max} more (--json lists all)`);
  }
  return lines;
}

/**
 * How many items are not synced and what can be done about them, or undefined when every item is:
 * `{total: 2, detail: "1 needs you, 1 is tried again next run"}`.
 */
export function unsyncedCounts(issues: readonly PassIssue[]): { total: number; detail: string } | undefined {
  const unsynced = issues.filter(isUnsynced);
  if (unsynced.length === 0) return undefined;
  const count = (group: IssueGroup): number => unsynced.filter((issue) => groupOf(issue) === group).length;
  const parts: string[] = [];
  const needsYou = count('needs-you');
  const never = count('never-as-is');
  const later = count('retry-later');
  if (needsYou > 0) parts.push(`${needsYou} ${needsYou === 1 ? 'needs' : 'need'} you`);
  if (never > 0) parts.push(`${never} cannot sync as ${never === 1 ? 'it is' : 'they are'}`);
  if (later > 0) parts.push(`${later} ${later === 1 ? 'is' : 'are'} tried again next run`);
  return { total: unsynced.length, detail: parts.join(', ') };
}

/** "1 item is not synced (1 needs you)", for a status line; undefined when every item is synced. */
export function unsyncedWords(issues: readonly PassIssue[]): string | undefined {
  const counts = unsyncedCounts(issues);
  if (counts === undefined) return undefined;
  return `${counts.total} ${counts.total === 1 ? 'item is' : 'items are'} not synced (${counts.detail})`;
}
