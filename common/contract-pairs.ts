// The views of folder pairs that the UI contract (contract.ts, which re-exports them) carries: a pair's state, its issues and hold, its selective sync.
import type { EngineState, SyncPause, SyncProgress } from './sync-status.ts';

/**
 * What Issues shows the user, grouped by what they can do, as the command line does
 * (app/sync/issue-groups.ts): `needs-you` (free space, a permission: then it syncs), `never-as-is`
 * (rename or move it), `conflict` (both versions kept) and `retry-later` (tried again by itself) are
 * not synced; `skipped` (left out by the client's rules: a symbolic link, a special file) and `warning`
 * (synced, but worth knowing) are listed quietly.
 */
export type IssueGroupView = 'needs-you' | 'never-as-is' | 'conflict' | 'retry-later' | 'skipped' | 'warning';

/** Why an item is not synced, or synced with a warning, and what to do (desktop-app.md §2.4). */
export interface IssueView {
  pairId: string;
  kind: 'skipped' | 'retry' | 'failed' | 'warning' | 'conflict';
  /** What the user can do about it: the heading it is shown under. */
  group: IssueGroupView;
  /** Relative to the pair's folder. */
  path: string;
  /** Absolute, for "show in folder"; null when it is not on disk. */
  localPath: string | null;
  code: string;
  message: string;
  /** For a conflict: the other copy, kept beside it. */
  otherCopy: string | null;
}

/** A choice the pair waits for: held deletes (mass delete, emptied folder), a changed folder or device. */
export interface HoldView {
  reason: string;
  /** A few words for the heading and the tray: "Deletes waiting", "Not the folder that was synced"... */
  title: string;
  /** For people: what happened and the two ways out. */
  advice: string;
  /** How many deletes wait on each side. */
  localDeletes: number;
  remoteDeletes: number;
  /** The paths the deletes would remove (the first few hundred). */
  paths: string[];
  /** Which answers apply: confirm (delete on the device too) and restore (bring them back). */
  canConfirm: boolean;
  canRestore: boolean;
  /** The buttons' words for each answer (what it does here), null where it does not apply. */
  confirmLabel: string | null;
  restoreLabel: string | null;
  /** Asked before the confirm answer, which deletes: what it will delete. */
  confirmQuestion: string | null;
}

/** A hold's answer being carried out: the hold stays until the pass that carries it out ends. */
export interface HoldAnswerView {
  choice: 'confirm-deletes' | 'restore';
  /** For people: what is under way ("Restore them here: under way…"). */
  words: string;
}

/** Items left out on purpose, which are not issues: counted for the settings, never listed under Issues. */
export interface LeftOutView {
  /** Matched by the ignore rules (the settings' and the folders' own .mchignore files). */
  ignored: number;
  /** System and temporary files the client never syncs (.DS_Store, editor swap files, a disk's trash). */
  systemFiles: number;
}

/**
 * A device folder of a pair in the selective-sync tree (selection:list), as app/selection/selection-tree.ts
 * sees it: `synced` (on this computer), `partly` (synced, with a folder below it left out or waiting),
 * `excluded` (not on this computer: itself or a folder above it) or `waiting` (new, over the pair's
 * threshold: not synced until the user answers).
 */
export interface SelectionFolderView {
  /** Below the pair's device folder, `/` between names (`Photos/2024`). */
  path: string;
  name: string;
  /** The device's id of it. */
  id: string;
  state: 'synced' | 'partly' | 'excluded' | 'waiting';
  /**
   * What it holds as far as this computer knows: the synced files below it, or what the walk that
   * found a waiting folder counted; null when unknown (an excluded folder, a pair not made yet).
   */
  bytes: number | null;
  files: number | null;
}

/** A new device folder over the pair's threshold, waiting for "sync it" or "don't sync". */
export interface WaitingFolderView {
  /** Below the pair's device folder. */
  path: string;
  bytes: number;
  files: number;
}

/** A pair's selective sync at a glance: for the card's "new folder waiting", the tray and the settings. */
export interface PairSelectionView {
  /** How many device folders are left off this computer (the ones waiting not counted). */
  excluded: number;
  waiting: WaitingFolderView[];
  /** Ask before syncing a new device folder larger than this; null: never ask. */
  askOverBytes: number | null;
}

/** An answer to selection:set: include a folder (`localCopy` null) or leave it out, saying what becomes of its copy here. */
export type SelectionChange =
  | { pairId: string; path: string; include: true; localCopy: null }
  | { pairId: string; path: string; include: false; localCopy: 'remove' | 'keep' };

/** A file of an on-demand pair being downloaded because a program opened it (SyncStatus.mount.opening). */
export interface OpeningFileView {
  /** Relative to the pair's folder. */
  path: string;
  /** The program that opened it (its process name). */
  process: string;
  bytesDone: number;
  bytesTotal: number;
  /** For the card and the tray: "Opening photo.jpg for gimp… 40 %". */
  words: string;
}

/**
 * A pair with files on demand (issue 30): its folder shows every device file and downloads one when a
 * program opens it. What the window shows of it on the card and in Settings.
 */
export interface PairOnDemandView {
  /** Where the files of the folder are kept (its cache folder in the profile). */
  cache: string;
  /** Above this, the least recently opened files go back to the device only; null: no limit. */
  cacheLimitBytes: number | null;
  /** Whether every device file shows in the folder now; null while its live sync does not run. */
  mounted: boolean | null;
  /** Files downloading for the programs that opened them. */
  opening: OpeningFileView[];
  /** The last open that could not be served, for a few minutes after it; else null. */
  lastFailure: { path: string; atMs: number; words: string } | null;
}

/** Whether files on demand can work on this computer (onDemand:support). */
export interface OnDemandSupportView {
  available: boolean;
  /** Why not, with what to install and "use Choose folders instead"; null when available. */
  reason: string | null;
  /** The cache limit a pair turned on demand starts with (changed per pair in Settings). */
  defaultCacheLimitBytes: number;
}

/**
 * How long the window's and the tray's "Pause" lasts: an hour, until 08:00 tomorrow; absent: until
 * resumed. The same union as sync:pause's `for` (contract.ts, at its line limit): the tray passes one to it.
 */
export type PauseLength = '1h' | 'tomorrow';

export interface PairView {
  /** Stable id of the pair (the key of its folder). */
  id: string;
  localRoot: string;
  remoteFolder: string;
  state: EngineState;
  /**
   * The state in words, with what needs the user beside it: "Up to date · 1 conflict", "Syncing",
   * "Waiting for you". Never "Up to date" alone while something needs the user.
   */
  words: string;
  /** For people; null when there is nothing to say. */
  detail: string | null;
  paused: boolean;
  /** Why it is paused and until when (`words` says it: "Paused until 14:30"); absent when not paused. */
  pause?: SyncPause;
  /** What it does on a metered network: `pause` (the default) or `sync`; absent while its service is not running. */
  onMetered?: 'pause' | 'sync';
  progress: (SyncProgress & { bytesPerSecond: number | null; secondsLeft: number | null }) | null;
  lastSyncAtMs: number | null;
  itemsSynced: number;
  /**
   * Items under Issues that need the user: those not synced, and conflicts. What is listed quietly (left
   * out by the client's rules, synced with a warning) is not counted; left out on purpose is not listed.
   */
  issueCount: number;
  /** How many of `issueCount` are conflicts (both versions kept). */
  conflictCount: number;
  leftOut: LeftOutView;
  hold: HoldView | null;
  /** The user answered the hold and the pass that carries it out has not ended yet. */
  answering: HoldAnswerView | null;
  /** Selective sync; null when the pair's record of it cannot be read (its pass says why). */
  selection: PairSelectionView | null;
  /**
   * Files on demand; null (or absent, from a host that predates them) for a pair that keeps every file
   * here, or whose record cannot be read.
   */
  onDemand?: PairOnDemandView | null;
  /**
   * The device's space as the pair's last pass read it (issue #33); null (or absent, from an older
   * host) until the device has said.
   */
  deviceSpace?: DeviceSpaceView | null;
}

/** The whole device's free space, with its words ("12.3 GB free of 2.0 TB"), and when it was read. */
export interface DeviceSpaceView {
  freeBytes: number;
  totalBytes: number;
  checkedAtMs: number;
  words: string;
}
