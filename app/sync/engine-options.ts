// The engine's options and a pass's options: what a host gives a SyncEngine, and what it asks of each pass.
import type { DeviceClient } from '../api/device-client.ts';
import type { IndexStore } from '../index/index-store.ts';
import type { DeviceName } from './guards/device-check.ts';
import type { EngineEvents } from './engine-events.ts';
import type { FolderLockRenewal } from './guards/folder-check.ts';
import type { HoldReason } from './pass-report.ts';
import type { DeleteGuard } from './plan/planner.ts';
import type { SelectionStore } from '../model/selection.ts';
import type { RemoteEntry } from '../model/items.ts';

export interface EngineLogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  path?: string;
}

export interface SyncEngineOptions {
  client: DeviceClient;
  /** The index of this folder pair; the engine is its only writer. */
  index: IndexStore;
  /** The local folder (absolute): the folder synced, an on-demand pair's cache folder. */
  localRoot: string;
  /** The user's folder of the pair when it is not `localRoot` (an on-demand pair's mount point). */
  pairFolder?: string;
  /** The remote folder as a slash path from the device root (`/Photos/2024`); created on the first pass. */
  remoteFolder: string;
  /** For conflicted-copy names and reports; default `() => new Date()`. */
  now?: () => Date;
  log?: (line: EngineLogLine) => void;
  deleteGuard?: DeleteGuard;
  /** The user's ignore rules for every pair (gitignore syntax), applied before each folder's `.mchignore`. */
  ignoreRules?: string;
  /** Uploads and downloads at once (default 4). */
  transferConcurrency?: number;
  /** Where the OS trash is looked for (tests pass their own HOME); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Treat names differing only in case as one (default: probed in the local folder). */
  caseInsensitive?: boolean;
  events?: EngineEvents;
  /** The device the profile chose: a pair synced with another one is held (device-check.ts). */
  device?: DeviceName;
  /** The process's lock of the folder: it follows a replaced folder the user answered for. */
  folderLock?: FolderLockRenewal;
  /** The pair's selective sync (app/profile/pair-selection.ts); none: the whole device folder. */
  selection?: SelectionStore;
  /**
   * An on-demand pair (files on demand): device files come down as placeholders (app/sync/local/
   * placeholders.ts) unless `keepsContent` says this computer keeps them; none: every file whole.
   */
  onDemand?: OnDemandPolicy;
  /**
   * Versions (app/sync/versions/): content this engine replaces or removes here is kept first, for this
   * long and within this room, and new conflicts are settled by the policy; default
   * DEFAULT_VERSIONS_POLICY; a function is asked again at each pass (the pair's record, changed while
   * it runs). `off`: replaced in place and deletes to the OS trash (benchmarks' baseline).
   */
  versions?: VersionsPolicy | (() => VersionsPolicy) | 'off';
}

/** A pair's versions policy (app/profile/pair-versions.ts keeps it in the pair's record). */
export interface VersionsPolicy {
  /** Versions older than this many days go. */
  readonly keepDays: number;
  /** At most this many bytes of versions; null: 5 % of the disk that holds the folder. */
  readonly capBytes: number | null;
  /** What a new conflict becomes: kept both and listed (`ask`), or settled by `newer`, `this`, `device`. */
  readonly conflicts: 'ask' | 'newer' | 'this' | 'device';
}

export const DEFAULT_VERSIONS_POLICY: VersionsPolicy = { keepDays: 30, capBytes: null, conflicts: 'ask' };

/** Which device files an on-demand pair holds whole (pinned ones, and those already here). */
export interface OnDemandPolicy {
  /**
   * Whether the item comes down whole rather than as a placeholder; `parentOf` gives the device folder
   * of an item by id (up to the pair's own folder, then undefined), to look for a kept folder above it.
   */
  keepsContent(remote: RemoteEntry, parentOf: (id: string) => string | undefined): boolean;
  /**
   * Changes when the items kept change: a pass then plans over everything, never quiet, so newly kept
   * placeholders come down (a quiet pass plans nothing).
   */
  keptVersion?(): string;
}

export interface SyncOptions {
  /**
   * Go ahead with a pass the mass-delete guard would hold; for an emptied local folder, delete its
   * items on the device.
   */
  confirmDeletes?: boolean;
  /**
   * An emptied local folder (nothing synced left in it, items in the index) is filled again from the
   * device; a folder or device that changed is merged with the other side as for a new pair.
   */
  restore?: boolean;
  /**
   * The hold `confirmDeletes` or `restore` answers (the live service's answer to the hold it showed):
   * it applies to that hold only, so a folder replaced after a mass delete was confirmed is still held.
   * Absent (the command line's flags): any hold.
   */
  answers?: HoldReason;
  signal?: AbortSignal;
  /**
   * `revalidate` (default): every folder listing is checked with the device (a 304 when unchanged).
   * `trust-cache`: after a local change, folders this engine listed before and did not change since
   * are taken from its cache without a request; remote changes come with the next revalidating pass,
   * and If-Match refuses any write planned from a stale listing (that round then revalidates).
   */
  remote?: 'revalidate' | 'trust-cache';
  /**
   * Local paths that changed (from the watcher): the first round scans only these subtrees and plans
   * only around them; the index stands for the rest of the disk. `''` or none: everything.
   */
  scope?: readonly string[];
  /**
   * With `scope` (a poll of a watched folder): the walk comes first, and the folders whose listing
   * changed on the device join the scope. When neither side has a change, the pass ends after the walk
   * without reading the disk.
   */
  scopeRemoteChanges?: boolean;
  /**
   * The live service's word on local deletions while the pass runs: `mark()` before a round scans,
   * `arrivedSince(mark)` (resolved once they are out of its watcher) whether any came since. A round
   * that would delete on the device after some did plans again over the whole folder, once a pass: an
   * `rm -rf` run while the disk was read is judged by the guard as a whole, not as the part one scan saw.
   */
  deletions?: LocalDeletions;
}

/** See `SyncOptions.deletions`. */
export interface LocalDeletions {
  mark(): number;
  arrivedSince(mark: number): Promise<boolean>;
}
