// The sync state of a file or folder as the file manager, `mch-sync state` and the window read it: the words of the state service's socket.

/**
 * One item's state. `syncing-up`/`syncing-down`: bytes move now; `waiting`: changed and not synced
 * yet (the next pass takes it); `not-synced`: left out (`reason` says why); `online-only` and `kept`:
 * a file of an on-demand pair whose content is on the device only, or kept here by the user;
 * `excluded`: in a device folder selective sync leaves out; `outside`: in no folder this client syncs
 * (or in a pair's own `.mch-sync` folder).
 */
export type FileSyncState =
  | 'up-to-date'
  | 'syncing-up'
  | 'syncing-down'
  | 'waiting'
  | 'conflict'
  | 'not-synced'
  | 'online-only'
  | 'kept'
  | 'excluded'
  | 'outside';

export const FILE_SYNC_STATES = [
  'up-to-date',
  'syncing-up',
  'syncing-down',
  'waiting',
  'conflict',
  'not-synced',
  'online-only',
  'kept',
  'excluded',
  'outside',
] as const satisfies readonly FileSyncState[];

/** Why an item is `not-synced`, in the issue list's own terms. */
export type NotSyncedReason = 'name-clash' | 'ignored' | 'too-large' | 'error';

export interface FileStateAnswer {
  /** Absolute: as asked, or in a `changed` line under the synced folder as `hello` names it. */
  path: string;
  /**
   * The item's state; for a folder the most urgent state below it as well (not-synced over conflict
   * over syncing over waiting over up to date), so a folder with a conflict deep inside says so.
   */
  state: FileSyncState;
  /** `file` or `folder`; null when nothing is at the path on either side. */
  kind: 'file' | 'folder' | null;
  /** Shared by a link (the device's shares of this item). */
  shared: boolean;
  /** The synced folder (its root, absolute) that holds the path; absent when `outside`. */
  folder?: string;
  /** Whether the folder is an on-demand pair (then "Keep on this device" / "Free up space" apply). */
  onDemand?: boolean;
  /** For `not-synced` (the item's own issue, or for a folder the first one below it). */
  reason?: NotSyncedReason;
  /** The stable code (`NAME_CLASH`, `FILE_TOO_LARGE`…) and its words, for `not-synced`. */
  code?: string;
  message?: string;
  /** For a folder whose state comes from below: the path (absolute) of the item it comes from. */
  from?: string;
}

/**
 * One entry of a `children` answer, keyed by its name in the folder asked: its state alone, the common
 * case, or an object when more must be said: `shared` (only when true), `reason`, `code` and `message`
 * (not synced), `from` (a folder whose state comes from below: that item's path relative to the folder
 * asked, not absolute). What every entry shares is the folder answer's: its `folder` (the synced
 * folder; none for an entry `outside`) and `onDemand`. Its `kind` is not said: the file manager has it,
 * and a `state` request says it. Kept this small for the file manager's sake: a folder of 10,000 up to
 * date files is `"name":"up-to-date"` 10,000 times, which python reads into a dict in a millisecond
 * (full answers, with absolute paths and the folder in each, were 200 bytes an entry and 10 ms).
 */
export type FileStateEntry = FileSyncState | FileStateEntryDetail;

export interface FileStateEntryDetail {
  state: FileSyncState;
  shared?: true;
  reason?: NotSyncedReason;
  code?: string;
  message?: string;
  from?: string;
}

/** What the state service may be asked to do for the file manager's menu entries. */
export type FileStateAction = 'pin' | 'unpin' | 'free' | 'include' | 'exclude' | 'show' | 'why';

export const FILE_STATE_ACTIONS = [
  'pin',
  'unpin',
  'free',
  'include',
  'exclude',
  'show',
  'why',
] as const satisfies readonly FileStateAction[];

/** The state socket's protocol version, in its `hello`. */
export const FILE_STATE_PROTOCOL = 1;

/**
 * Requests, one JSON object per line. `state`: the state of each path (at most 10,000), full answers;
 * `children`: a folder's own state (a full answer) and every entry's in it (on disk or in the index),
 * by name and compact (`FileStateChildren`), what a file manager showing the folder needs in one
 * question; `subscribe`: from now on `changed` lines come on this connection;
 * `act`: carry out a menu entry on paths (by the client that syncs them); `shares-changed`: a link was
 * made or revoked elsewhere (a command), so the shared items are asked again now.
 */
export type FileStateRequest =
  | { id: number | string; op: 'state'; paths: string[] }
  | { id: number | string; op: 'children'; path: string }
  | { id: number | string; op: 'subscribe' }
  | { id: number | string; op: 'act'; action: FileStateAction; paths: string[] }
  | { id: number | string; op: 'shares-changed' };

/**
 * The answer to `children`: the folder's own answer, and its entries by name (in no particular order;
 * none when the folder is `outside` or not a folder). A pushed `changed` line later names an entry by its
 * absolute path, in full.
 */
export interface FileStateChildren {
  type: 'answer';
  id: number | string;
  folder: FileStateAnswer;
  entries: Record<string, FileStateEntry>;
}

/** Lines the service sends: the first is always `hello`; `folders` again whenever its folders change. */
export type FileStateMessage =
  | { type: 'hello'; version: number; pid: number; folders: string[] }
  | { type: 'folders'; folders: string[] }
  | { type: 'answer'; id: number | string; states: FileStateAnswer[] }
  | FileStateChildren
  | { type: 'done'; id: number | string; message: string }
  /** `atMs`: when the first of these changes was recorded (ms since the epoch, with a fraction). */
  | { type: 'changed'; states: FileStateAnswer[]; atMs?: number }
  | { type: 'error'; id: number | string | null; code: string; message: string };

/** The longest request line the service reads (bytes); a longer one is answered `STATE_TOO_LARGE`. */
export const MAX_STATE_REQUEST_BYTES = 1024 * 1024;
/** The most paths one `state` or `act` request may name. */
export const MAX_STATE_PATHS = 10_000;
