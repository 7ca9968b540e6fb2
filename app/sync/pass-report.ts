// What one sync pass did: counts for the summary, per-item issues, and why a pass was held.
import type { DeleteCounts } from './planner.ts';
import type { RelativePath } from './model.ts';

/** How a pass ended. `synced`: both sides match; `held`: the guard stopped it; `errors`: some items failed. */
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
 * Something about one item that the user may need to know. `skipped`: never synced and why (a symlink,
 * an ignored or refused name); `retry`: not synced this pass, tried again next time (changed meanwhile,
 * locked, vanished); `failed`: an operation failed with an error the next pass may meet again;
 * `warning`: synced, but worth knowing (a name another platform cannot hold).
 */
export interface PassIssue {
  kind: 'skipped' | 'retry' | 'failed' | 'warning';
  path: RelativePath;
  /** A stable code (`SYMLINK`, `PRECONDITION_FAILED`, `LOCAL_CHANGED`...). */
  code: string;
  /** One line for people. */
  message: string;
  /**
   * The one side whose item this is about, when the other side's item at the same path is synced: a
   * name clash leaves out one of two spellings on one side only. Absent: the path, on both sides.
   */
  side?: 'local' | 'remote';
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
