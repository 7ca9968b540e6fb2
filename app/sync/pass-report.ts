// What one sync pass did: counts for the summary, per-item issues, and why a pass was held.
import type { DeleteCounts } from './plan/planner.ts';
import type { RelativePath } from '../model/items.ts';

/** How a pass ended. `synced`: both sides match; `held`: a hold stopped it; `errors`: some items were left unsynced. */
export type PassStatus = 'synced' | 'held' | 'errors';

export interface PassCounts {
  uploaded: number;
  downloaded: number;
  /** Same folder, new name (either side). */
  renamed: number;
  /** New folder (either side), maybe a new name too. */
  moved: number;
  /** Remote deletes plus local items moved to the trash. */
  deleted: number;
  /** Local copies made because both sides changed one file. */
  conflicts: number;
  foldersCreated: number;
  /** Files whose modification time alone changed, sent as a time (no content) to the device. */
  timesUpdated: number;
  /** Bytes of content sent and received. */
  bytesUp: number;
  bytesDown: number;
}

/**
 * Something about one item that the user may need to know. `skipped`: left out by the user's choice or
 * by the documented rules (an ignore pattern, a temporary or system file, a symlink), not a problem;
 * `retry`: not synced this pass, tried again by itself (changed meanwhile, locked, the connection broke);
 * `failed`: not synced, and the next pass meets the same unless the user acts (`remedy`: no permission,
 * a full or read-only disk) or renames it (a name or path the other side cannot hold); `warning`:
 * synced, but worth knowing (a name another platform cannot hold). A `retry` or `failed` issue leaves
 * the two sides different: the pass is not `synced`.
 */
export interface PassIssue {
  kind: 'skipped' | 'retry' | 'failed' | 'warning';
  path: RelativePath;
  /** A stable code (`SYMLINK`, `PERMISSION_DENIED`, `DISK_FULL`...); `remedyOf` classes it. */
  code: string;
  /** One line for people: what happened and what to do, without the path (shown beside it). */
  message: string;
  /** What the user can do, for `retry` and `failed` issues (`remedyOf` reads older records without it). */
  remedy?: IssueRemedy;
  /**
   * The one side whose item this is about, when the other side's item at the same path is synced: a
   * name clash leaves out one of two spellings on one side only. Absent: the path, on both sides.
   */
  side?: 'local' | 'remote';
}

/**
 * What the user can do about an item left unsynced: `retry-later` (nothing: the next pass tries
 * again by itself), `needs-you` (free space, a permission, a read-only disk: then the next pass
 * succeeds), `never-as-is` (a name or path the other side cannot hold: rename or move it).
 */
export type IssueRemedy = 'retry-later' | 'needs-you' | 'never-as-is';

/** Every remedy, for the schemas that read an issue back (a stored record, the control socket). */
export const ISSUE_REMEDIES = [
  'retry-later',
  'needs-you',
  'never-as-is',
] as const satisfies readonly IssueRemedy[];

/** Every code of an item left unsynced, by what the user can do about it: the one list of them. */
const REMEDIES: Readonly<Record<IssueRemedy, readonly string[]>> = {
  'retry-later': [
    'NETWORK',
    'TIMEOUT',
    'OUTCOME_UNKNOWN',
    'RATE_LIMITED',
    'SERVER_ERROR',
    'BAD_RESPONSE',
    'LOCAL_CHANGED',
    'LOCAL_CHANGED_DURING_UPLOAD',
    'REMOTE_CHANGED',
    'PRECONDITION_FAILED',
    'NOT_FOUND',
    'CONFLICT',
    'PARENT_MISSING',
    'NAME_TAKEN',
    'CHANGED_MEANWHILE',
    'FILE_BUSY',
    'TOO_MANY_OPEN_FILES',
    'FILE_ERROR',
  ],
  'needs-you': [
    'DISK_FULL',
    'DEVICE_FULL',
    'READ_ONLY',
    'PERMISSION_DENIED',
    'DISK_ERROR',
    'FORBIDDEN',
    'BAD_REQUEST',
    'NOT_SUPPORTED',
    'UNEXPECTED_STATUS',
    'TRASH_FAILED',
    'MOVED_INTO_EXCLUDED',
  ],
  'never-as-is': [
    'INVALID_NAME',
    'UNSAFE_PATH',
    'NAME_CLASH',
    'REMOTE_ITEM_REFUSED',
    'NAME_NOT_ALLOWED',
    'KEPT_COPY_HOLDS_NAME',
    'PATH_TOO_LONG',
    'FILE_TOO_LARGE',
  ],
};

const REMEDY_OF_CODE = new Map<string, IssueRemedy>(
  (Object.entries(REMEDIES) as Array<[IssueRemedy, readonly string[]]>).flatMap(([remedy, codes]) =>
    codes.map((code) => [code, remedy] as const),
  ),
);

/**
 * What the user can do about an issue; undefined for `skipped` and `warning` (nothing is wrong). A code
 * not in the table (an older version's) is classed by its kind.
 */
export function remedyOf(issue: Pick<PassIssue, 'kind' | 'code' | 'remedy'>): IssueRemedy | undefined {
  if (issue.kind === 'skipped' || issue.kind === 'warning') return undefined;
  return (
    issue.remedy ?? REMEDY_OF_CODE.get(issue.code) ?? (issue.kind === 'retry' ? 'retry-later' : 'needs-you')
  );
}

/**
 * Whether the item stays out of the sync until someone changes it, whatever the next pass does: left
 * out by the rules (`skipped`) or by a name or path that cannot sync as it is (`never-as-is`). What
 * compares both sides (the reliability harness) leaves these paths out; they are never "lost".
 */
export function staysOut(issue: Pick<PassIssue, 'kind' | 'code' | 'remedy'>): boolean {
  return issue.kind === 'skipped' || remedyOf(issue) === 'never-as-is';
}

/** An item left unsynced, its kind and remedy from its code (REMEDIES; an unknown code needs the user). */
export function unsyncedItem(
  code: string,
  path: RelativePath,
  message: string,
  side?: 'local' | 'remote',
): PassIssue {
  const remedy = REMEDY_OF_CODE.get(code) ?? 'needs-you';
  return {
    kind: remedy === 'retry-later' ? 'retry' : 'failed',
    path,
    code,
    message,
    remedy,
    ...(side === undefined ? {} : { side }),
  };
}

/**
 * Why a pass waits for the user: `mass-delete` and `emptied-root` (deletes the guard held),
 * `local-root-missing` (the folder is not there), `folder-changed` (the folder is not the one synced:
 * replaced, re-created, on another disk), `device-changed` (the device is not the one synced with).
 */
export type HoldReason =
  'mass-delete' | 'local-root-missing' | 'emptied-root' | 'folder-changed' | 'device-changed';

export interface PassHold {
  reason: HoldReason;
  deletes: DeleteCounts;
  /** What the user can do, e.g. "run again with --confirm-deletes". */
  advice: string;
  /** What happened, without the ways out: for a summary that names its own commands. */
  what?: string;
  /**
   * The paths the deletes would remove on each side (the first few hundred), for the user to look at;
   * absent where nothing would be deleted (a missing folder) and in records of older passes.
   */
  paths?: { local: RelativePath[]; remote: RelativePath[] };
}

export interface PassReport {
  status: PassStatus;
  counts: PassCounts;
  issues: PassIssue[];
  hold: PassHold | null;
  /** Planning rounds run (a 412 or a vanished item makes another round, up to a limit). */
  rounds: number;
  /** Operations carried out, by name, for logs and tests. */
  operations: Record<string, number>;
  startedAtMs: number;
  finishedAtMs: number;
  /** An on-demand pair, a round that read the whole folder: where its files' content is. */
  onDemand?: OnDemandUse;
}

/**
 * An on-demand pair's files by where their content is, as a scan of the whole cache folder found them:
 * `whole` on this computer, `placeholders` on the device only (their bytes are the device's size).
 */
export interface OnDemandUse {
  whole: { files: number; bytes: number };
  placeholders: { files: number; bytes: number };
  /** When the scan counted them, ms since the epoch. */
  countedAtMs: number;
}

export function emptyCounts(): PassCounts {
  return {
    uploaded: 0,
    downloaded: 0,
    renamed: 0,
    moved: 0,
    deleted: 0,
    conflicts: 0,
    foldersCreated: 0,
    timesUpdated: 0,
    bytesUp: 0,
    bytesDown: 0,
  };
}
