// The views of versions, "Recently deleted", conflicts and a pair's versions policy that the UI contract (contract.ts, which re-exports them) carries (issue 31).

/** Why a version was kept: what replaced or removed the file on this computer. */
export type VersionReasonView = 'replaced' | 'deleted' | 'conflict' | 'restored';

/** One kept version of a file (versions:list), newest first. */
export interface VersionView {
  /**
   * Its id in the pair's index: versions:restore names it, so a version kept meanwhile (a newer one from
   * the device) cannot shift which one is put back, as a number would.
   */
  id: number;
  /** 1 for the newest kept version, 2 for the one before... (`mch-sync restore --version N`). */
  number: number;
  reason: VersionReasonView;
  /** Why it was kept, in words: "replaced by the device's version". */
  why: string;
  size: number;
  /** The content's own modification time. */
  mTimeMs: number;
  /** When this computer kept it. */
  keptAtMs: number;
}

/** A file of a pair and its kept versions. */
export interface FileVersionsView {
  pairId: string;
  /** Relative to the pair's folder. */
  path: string;
  /** Absolute, as the window shows it (an on-demand pair's folder, not its cache). */
  localPath: string;
  /** The file at the path now; null when none is (deleted, or never downloaded). */
  current: { size: number; mTimeMs: number } | null;
  versions: VersionView[];
}

/** A version put back (versions:restore): the file's versions after it, and what happened in words. */
export interface VersionRestoreView {
  file: FileVersionsView;
  /** "Version 2 of report.txt is back. The file it replaced is kept as a version." */
  words: string;
}

/** A file gone from the folder (deleted on the device or here, or a conflicted copy settled) that can be restored. */
export interface DeletedFileView {
  pairId: string;
  /** Relative to the pair's folder. */
  path: string;
  /** Where it comes back (absolute). */
  localPath: string;
  /** Of the version restored (the newest). */
  size: number;
  /** When this computer kept its newest version, or when it went to the trash here. */
  deletedAtMs: number;
  /** `trashed-here`: deleted on this computer, and the OS trash still holds it. */
  reason: VersionReasonView | 'trashed-here';
  why: string;
  /** How many versions of it are kept. */
  versions: number;
}

/** "Recently deleted" (deleted:list): the newest first, at most a few hundred. */
export interface DeletedListView {
  files: DeletedFileView[];
  /** How many match in all: more than `files` holds when the list was cut. */
  total: number;
}

export interface DeletedRestoreView {
  /** Relative paths put back. */
  restored: string[];
  /** Paths left as they are, with why ("something is at its place now"). */
  skipped: Array<{ path: string; reason: string }>;
  /** "2 files restored; they sync to the device now." */
  words: string;
}

/** What a side of a conflict shows: its first lines of text, a small image, or why there is neither. */
export type ConflictPreviewView =
  { kind: 'text'; lines: string[] } | { kind: 'image'; dataUrl: string } | { kind: 'none'; words: string };

/** One of the two files of a conflict. */
export interface ConflictSideView {
  /** Relative to the pair's folder. */
  path: string;
  localPath: string;
  size: number;
  mTimeMs: number;
  /** Whose version it is. */
  from: 'this-computer' | 'device' | 'other-computer';
  /** The same in words: "This computer", "The device", "Another computer". */
  fromWords: string;
  preview: ConflictPreviewView;
}

/** A conflict waiting to be settled: both files, side by side. */
export interface ConflictView {
  pairId: string;
  /** The conflicted copy: names the conflict in conflicts:resolve. */
  copyPath: string;
  /** The file it was made beside, whose name the winner keeps. */
  originalPath: string;
  madeAtMs: number;
  /** The conflicted copy's content (this computer's edit, or another computer's). */
  copy: ConflictSideView;
  /** The file at the original name (the device's version). */
  original: ConflictSideView;
}

/** `this`: the conflicted copy's content takes the name; `device`: the file there stays; `both`: both stay. */
export type ConflictKeepView = 'this' | 'device' | 'both';

export interface ConflictResolveView {
  /** The conflicted copies whose conflict is settled. */
  settled: string[];
  /** Those that could not be, with why (already settled elsewhere, a file gone). */
  failed: Array<{ copyPath: string; code: string; message: string }>;
  /** "2 conflicts settled: the device's versions kept; the others are kept as versions." */
  words: string;
}

/**
 * What a new conflict becomes: `ask` keeps both and lists it until settled; the others settle it at
 * once, the loser kept as a version (`newer`: the later change wins).
 */
export type ConflictPolicyView = 'ask' | 'newer' | 'this' | 'device';

/** A pair's versions: its policy and how much room they take (versions:usage). */
export interface PairVersionsView {
  pairId: string;
  /** Versions older than this go. */
  keepDays: number;
  /** The pair's own cap; null: the default. */
  capBytes: number | null;
  /** The default cap: a share of the disk that holds the folder. */
  defaultCapBytes: number;
  /** The default in words: "5 % of the disk: 12.3 GB". */
  defaultCapWords: string;
  conflicts: ConflictPolicyView;
  /** How many versions are kept now, and their bytes. */
  count: number;
  bytes: number;
}

/** A pair's versions policy as Settings saves it (versions:settings). */
export interface PairVersionsSettings {
  pairId: string;
  keepDays: number;
  capBytes: number | null;
  conflicts: ConflictPolicyView;
}

// ---- requests -----------------------------------------------------------------------------------
// versions:list takes a synced file's path here (a search result, an activity line, the tray's recent
// file); the others name a pair and paths relative to its folder. Whatever a restore or a settle
// replaces is kept as a version first, and the pair syncs at once.

/** versions:restore: puts version `versionId` of `path` back at its path. */
export interface VersionRestoreRequest {
  pairId: string;
  path: string;
  versionId: number;
}

/** deleted:list: `pairId` null for every pair; `query` (null: all) filters by name, any case. */
export interface DeletedListRequest {
  pairId: string | null;
  query: string | null;
}

/** deleted:restore: each file put back where it was, its folders made again. */
export interface DeletedRestoreRequest {
  pairId: string;
  paths: string[];
}

/** conflicts:resolve: the conflicts of `copyPaths` (their conflicted copies) settled alike. */
export interface ConflictResolveRequest {
  pairId: string;
  copyPaths: string[];
  keep: ConflictKeepView;
}

// versions:usage reads a pair's policy and use; versions:settings saves the policy (versions past the
// new age or cap go at once); versions:clear removes every kept version (nothing synced changes).
