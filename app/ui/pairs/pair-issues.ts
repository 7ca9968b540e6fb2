// Which of a pair's items the window lists under Issues, grouped as the command line groups them: what is not synced, conflicts while both copies are there, and quietly what the client's rules left out or synced with a warning; what the user or the client left out on purpose is counted, not listed.
import { dirname, join } from 'node:path';
import type { ActivityView, IssueGroupView, IssueView, LeftOutView } from '../../../common/contract.ts';
import type { ItemIssue } from '../../../common/sync-status.ts';
import { originalPathOfConflictedCopy } from '../../sync/plan/conflict-names.ts';
import { groupOf, isUnsynced } from '../../sync/issue-groups.ts';
import { temporaryOrSystemReason } from '../../sync/local/local-names.ts';
import { lstatQuietly } from '../../system/lstat-quietly.ts';

export interface PairIssues {
  /** What Issues lists, what needs the user first (GROUP_ORDER). */
  issues: IssueView[];
  /** Items not synced (retry or failed): "N not synced" on the card and the tray. */
  unsyncedCount: number;
  conflictCount: number;
  leftOut: LeftOutView;
}

/**
 * The command line's order (ISSUE_GROUPS), with conflicts after what cannot sync as it is: both ask the
 * user to choose, while what is retried passes by itself and what is listed quietly needs nothing.
 */
const GROUP_ORDER: readonly IssueGroupView[] = [
  'needs-you',
  'never-as-is',
  'conflict',
  'retry-later',
  'skipped',
  'warning',
];

/**
 * Why an item left out is nobody's problem, or undefined when it is one: ignored by the user's rules
 * (the settings' or a folder's .mchignore), or a system or temporary file the client never syncs
 * (scan-walk.ts on this side; on the device the same names are refused as NOT_SYNCED_NAME).
 */
export function leftOutOnPurpose(issue: ItemIssue): keyof LeftOutView | undefined {
  if (issue.kind !== 'skipped') return undefined;
  if (issue.code === 'IGNORED') return 'ignored';
  if (issue.code === 'TEMPORARY_OR_SYSTEM') return 'systemFiles';
  if (issue.code === 'NOT_SYNCED_NAME') {
    const name = issue.path.slice(issue.path.lastIndexOf('/') + 1);
    if (temporaryOrSystemReason(name) !== undefined) return 'systemFiles';
  }
  return undefined;
}

/**
 * The pair's issues: the engine's, less what was left out on purpose, and each conflict whose two
 * copies are both still there. A conflict is settled by deleting (or renaming) either copy: it leaves
 * the list with the pass that sees it, not at the next restart. Only items not synced and conflicts
 * are counted: a symbolic link left out or a name Windows refuses is listed, and is nobody's alarm.
 */
export function pairIssues(
  pairId: string,
  localRoot: string,
  engineIssues: readonly ItemIssue[],
  conflicts: readonly Pick<ActivityView, 'path'>[],
): PairIssues {
  const local = (path: string): string => (path === '' ? localRoot : join(localRoot, ...path.split('/')));
  const leftOut: LeftOutView = { ignored: 0, systemFiles: 0 };
  const issues: IssueView[] = [];
  let unsyncedCount = 0;
  for (const issue of engineIssues) {
    const purpose = leftOutOnPurpose(issue);
    if (purpose !== undefined) {
      leftOut[purpose] += 1;
      continue;
    }
    if (isUnsynced(issue)) unsyncedCount += 1;
    issues.push({
      pairId,
      kind: issue.kind,
      // The live service's issues are the pass's, remedy included; an older record is classed by its code.
      group: groupOf(issue),
      path: issue.path,
      // Only what is here can be shown in its folder: an item on the device alone (a download that
      // could not be written) has no place here yet.
      localPath: exists(local(issue.path)) ? local(issue.path) : null,
      code: issue.code,
      message: issue.message,
      otherCopy: null,
    });
  }
  let conflictCount = 0;
  const seen = new Set<string>();
  for (const { path: copyPath } of conflicts) {
    const originalPath = originalPathOfConflictedCopy(copyPath);
    if (seen.has(copyPath) || !bothCopiesThere(local(copyPath), copyPath)) continue;
    seen.add(copyPath);
    conflictCount += 1;
    issues.push({
      pairId,
      kind: 'conflict',
      group: 'conflict',
      path: originalPath,
      localPath: local(originalPath),
      code: 'CONFLICT_KEPT_BOTH',
      message:
        `${originalPath} was changed here and on the device. The device's version kept the name; this ` +
        `computer's is beside it as ${copyPath.slice(copyPath.lastIndexOf('/') + 1)}. Compare them and delete the one you do not need.`,
      otherCopy: local(copyPath),
    });
  }
  // Stable: within a group, the engine's order (its walk's) stays.
  issues.sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group));
  return { issues, unsyncedCount, conflictCount, leftOut };
}

/**
 * A conflict still open: its conflicted copy (`copyPath` in the pair, at `copyLocalPath` here) and,
 * beside it, the original under the name the copy was made from, both there.
 */
export function bothCopiesThere(copyLocalPath: string, copyPath: string): boolean {
  const original = originalPathOfConflictedCopy(copyPath);
  const originalLocal = join(dirname(copyLocalPath), original.slice(original.lastIndexOf('/') + 1));
  return exists(copyLocalPath) && exists(originalLocal);
}

/** Whether something is at `path` (a link counts, followed or not). */
function exists(path: string): boolean {
  return lstatQuietly(path) !== undefined;
}
