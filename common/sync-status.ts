// The live sync service's status as every front end sees it: the CLI, the tray menu and the window.

/**
 * `idle`: in sync and watching; `scanning`: looking at both sides; `syncing`: carrying out changes;
 * `paused`: by the user; `offline`: the device cannot be reached (retried with backoff);
 * `sign-in-needed`: the sign-in expired or was revoked; `held`: the mass-delete guard waits for the
 * user; `error`: the last pass failed for a reason retrying will not fix by itself.
 */
export type EngineState =
  'idle' | 'scanning' | 'syncing' | 'paused' | 'offline' | 'sign-in-needed' | 'held' | 'error';

export interface TransferProgress {
  path: string;
  direction: 'up' | 'down';
  bytesDone: number;
  bytesTotal: number;
  /**
   * True until its first byte moves: an upload's file is read first (to send one version of it, whose
   * hash the index keeps), a download waits for the device's answer. Absent once bytes flow.
   */
  starting?: true;
}

export interface SyncProgress {
  itemsDone: number;
  itemsTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Transfers running now. */
  transfers: TransferProgress[];
}

/** One line of recent activity: what happened to which item, and when. */
export interface ActivityEntry {
  atMs: number;
  /** `uploaded`, `downloaded`, `renamed`, `moved`, `deleted`, `conflict`, `created-folder`... */
  action: string;
  path: string;
}

/** A per-item problem, as in the pass report (`skipped`, `retry`, `failed`, `warning`). */
export interface ItemIssue {
  kind: 'skipped' | 'retry' | 'failed' | 'warning';
  path: string;
  code: string;
  message: string;
  /** What the user can do about an unsynced item (`retry` and `failed`); scripts read it in `--json`. */
  remedy?: 'retry-later' | 'needs-you' | 'never-as-is';
  /** The one side the item is about, when the other side's item at the path is synced. */
  side?: 'local' | 'remote';
}

/** A file of an on-demand pair being downloaded because a program opened it. */
export interface OpeningFile {
  /** Relative to the pair's folder. */
  path: string;
  /** The program that opened it (its process name). */
  process: string;
  bytesDone: number;
  bytesTotal: number;
}

/** An on-demand pair's mount, as its live service runs it (absent for a pair of whole files). */
export interface MountStatus {
  /** The pair's folder is mounted: every device file shows there. */
  mounted: boolean;
  /** Downloads for programs that opened a file, now. */
  opening: OpeningFile[];
  /** The last open that could not be served (offline, gone, no room), for a few minutes; else null. */
  lastFailure: { path: string; message: string; atMs: number } | null;
}

export interface SyncStatus {
  state: EngineState;
  /** For people: why offline, what the guard holds, what failed. Null when there is nothing to say. */
  detail: string | null;
  localRoot: string;
  remoteFolder: string;
  progress: SyncProgress | null;
  /** When both sides last matched, ms since the epoch; null before the first complete pass. */
  lastSyncAtMs: number | null;
  /** Newest first, at most a few hundred. */
  activity: ActivityEntry[];
  issues: ItemIssue[];
  /** Process id of the running service, null when read from the index while none runs. */
  pid: number | null;
  /** An on-demand pair's mount and its downloads on opening; absent for other pairs. */
  mount?: MountStatus;
  /** Which of the device's addresses the service uses; absent when read from the index while none runs. */
  connection?: DeviceConnection;
  /** Why a paused service is paused; absent when it is not paused. */
  pause?: SyncPause;
  /** What it does on a metered network (the pair's record): wait, or sync; absent where none is watched for. */
  onMetered?: 'pause' | 'sync';
  /** The device's space as the last pass read it (issue #33); absent until the device has said. */
  device?: DeviceSpace;
}

/** The whole device's size and free bytes (GET /sdk/v2/device/storage), and when they were read. */
export interface DeviceSpace {
  freeBytes: number;
  totalBytes: number;
  /** Ms since the epoch. */
  checkedAtMs: number;
}

/**
 * A pause: by the user (`untilMs` when it ends by itself: "Pause for 1 hour", "until tomorrow"; null
 * until resumed), or by a metered network (`metered`, which ends when the network is not metered).
 */
export interface SyncPause {
  by: 'user' | 'metered';
  untilMs: number | null;
}

/**
 * How the device is reached: on the home network ("at home"), through the relay ("through the
 * internet"), or at an address given by hand. `reachable` is false when no address answered at the
 * last check.
 */
export interface DeviceConnection {
  via: 'home' | 'relay' | 'pinned';
  reachable: boolean;
}
