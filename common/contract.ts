// The UI contract: every call the window may make (invoke map) and every event it hears (events map), as plain data, shared by the renderer, both hosts and app/.
import type {
  IssueView,
  OnDemandSupportView,
  PairView,
  SelectionChange,
  SelectionFolderView,
} from './contract-pairs.ts';
import { SETTINGS_INVOKE_NAMES, type SettingsInvokeMap, type SettingsView } from './contract-settings.ts';
import type * as Versions from './contract-versions.ts';
import type { DeviceConnection } from './sync-status.ts';

export type * from './contract-pairs.ts';
export type * from './contract-settings.ts';
export type * from './contract-versions.ts';

/** What crosses as an error: the MchError's stable code, a title for people and what to do next. */
export interface UiError {
  code: string;
  title: string;
  message: string;
  /** What went wrong in technical words (the system's or the device's own), for a disclosure; absent when the message says it all. */
  details?: string;
  /** The log file that holds more (an unexpected failure's whole story). */
  logFile?: string;
}

/** The answer of one invoke as it crosses a host: the response or a UiError, never a thrown object. */
export type InvokeResult<T> = { ok: true; value: T } | { ok: false; error: UiError };

// ---- data --------------------------------------------------------------------------------------
// A folder pair's views (PairView, its issues, hold and selective sync) are in contract-pairs.ts, the
// settings' (SettingsView and the network's) in contract-settings.ts.

export interface AccountView {
  signedIn: boolean;
  /** The configuration service last used (kept after sign-out, for the next sign-in). */
  configUrl: string | null;
  user: { id: string; name: string; email: string | null } | null;
  device: {
    id: string;
    name: string;
    url: string | null;
    /** How the running client reaches it (at home, through the relay); null while no pair runs. */
    connection?: DeviceConnection | null;
  } | null;
  /** Where the tokens are kept: the system keychain, or a 0600 file (with a warning in the UI). */
  secretStore: 'keychain' | 'file' | null;
}

export interface DeviceView {
  id: string;
  name: string;
  modelId: string;
  chosen: boolean;
}

/** A folder on the device, for the folder browser of "add a folder pair". */
export interface RemoteFolderView {
  id: string;
  name: string;
  /** Slash path from the device root; `/` for the root. */
  path: string;
}

export interface RemoteFolderListing {
  folder: RemoteFolderView;
  /** Null at the root. */
  parentId: string | null;
  children: RemoteFolderView[];
}

/** What "Add a folder" shows before adding a pair (pairs:check). */
export interface PairCheckView {
  /** The device folder asked about, or the one offered: `/<name of the local folder>`, or a free name. */
  remoteFolder: string;
  /** Why pairs:add would refuse this pair (overlapping pairs, not a folder...), in the CLI's words; null when it would not. */
  problem: UiError | null;
}

/** `online-only`: a device file an on-demand pair shows without its content (downloaded when opened). */
export type ActivityKind =
  | 'uploaded'
  | 'downloaded'
  | 'online-only'
  | 'renamed'
  | 'moved'
  | 'deleted'
  | 'conflict'
  | 'created-folder'
  | 'other';

export interface ActivityView {
  pairId: string;
  atMs: number;
  kind: ActivityKind;
  /** Relative to the pair's folder. */
  path: string;
  /** Absolute, for "show in folder". */
  localPath: string;
}

export interface SharedItemView {
  id: string;
  /** Null when the item is gone from the device. */
  name: string | null;
  localPath: string | null;
  devicePath: string | null;
}

export interface ShareView {
  shareId: string;
  url: string;
  createdAtMs: number;
  items: SharedItemView[];
}

export interface LocalEntryView {
  name: string;
  path: string;
  isFolder: boolean;
}

export interface SearchMatchView {
  id: string;
  name: string;
  isFolder: boolean;
  size: number;
  mimeType: string;
  mTimeMs: number | null;
  devicePath: string | null;
  localPath: string | null;
  /** Each searched string that matched, with the ranges to highlight (UTF-16 units of `text`). */
  fragments: Array<{
    field: string | null;
    text: string;
    locations: Array<{ index: number; length: number }>;
  }>;
}

export interface PhotoView {
  id: string;
  name: string;
  size: number;
  /**
   * When it was taken (camera), else modified: ms since the epoch, a camera's time (which has no zone)
   * read as this computer's local time, so local formatting shows it as the camera wrote it.
   */
  mediaTimeMs: number | null;
  mediaTimeSource: 'camera' | 'modified';
  width: number | null;
  height: number | null;
  cameraMake: string | null;
  cameraModel: string | null;
  devicePath: string | null;
  localPath: string | null;
}

export interface AboutView {
  version: string;
  profileDir: string;
  /** The folder of every log: the window's own (`logFile`) and each folder pair's live sync. */
  logsDir: string;
  /** The window's log, where an unexpected failure is told in full. */
  logFile: string;
}

/** The views a notification can open (desktop-app.md §5: clicking one opens the view that explains it). */
export type ViewName =
  'first-run' | 'status' | 'activity' | 'issues' | 'deleted' | 'shares' | 'search' | 'settings';

export interface NotificationView {
  id: string;
  kind: 'conflict' | 'held-deletes' | 'sign-in-needed' | 'link-copied' | 'folder-stopped';
  title: string;
  body: string;
  /** How many events this one stands for (a burst is grouped). */
  count: number;
  view: ViewName;
  pairId: string | null;
}

// ---- the maps ----------------------------------------------------------------------------------

type Empty = Record<string, never>;

/** name → request and response. Names are `namespace:verb`. The settings calls are in contract-settings.ts. */
export interface InvokeMap extends SettingsInvokeMap {
  'app:about': { request: Empty; response: AboutView };
  'account:get': { request: Empty; response: AccountView };
  'account:signInPassword': {
    request: { configUrl: string; username: string; password: string };
    response: AccountView;
  };
  /** Opens the system browser on the sign-in page and waits for it (code + PKCE). */
  'account:signInBrowser': { request: { configUrl: string }; response: AccountView };
  'account:signOut': { request: Empty; response: AccountView };
  'devices:list': { request: Empty; response: DeviceView[] };
  'devices:choose': { request: { deviceId: string }; response: AccountView };
  /** `folderId` null: the device root. */
  'remote:listFolders': { request: { folderId: string | null }; response: RemoteFolderListing };
  'remote:createFolder': { request: { parentId: string; name: string }; response: RemoteFolderView };
  'pairs:list': { request: Empty; response: PairView[] };
  /** `remoteFolder` null: offer one. Refuses nothing itself: the problem is part of the answer. */
  'pairs:check': { request: { localRoot: string; remoteFolder: string | null }; response: PairCheckView };
  /**
   * `excluded`: device folders (below `remoteFolder`, as selection:preview shows them) left off this
   * computer from the first pass on; any copy of them here is kept, unsynced. `onDemand`: the folder shows
   * every device file and downloads one when it is opened (its files here move to the cache folder
   * first, nothing copied); not with `excluded`.
   */
  'pairs:add': {
    request: { localRoot: string; remoteFolder: string; excluded?: string[]; onDemand?: boolean };
    response: PairView;
  };
  /** Stops its sync and forgets it; without `keepLocalFiles` the folder goes to the trash. */
  'pairs:remove': { request: { pairId: string; keepLocalFiles: boolean }; response: Empty };
  'pairs:setMetered': { request: { pairId: string; onMetered: 'pause' | 'sync' }; response: PairView[] };
  /** `pairId` null: every pair. `for` (PauseLength): the pause ends by itself after it; absent: at resume. */
  'sync:pause': { request: { pairId: string | null; for?: '1h' | 'tomorrow' }; response: PairView[] };
  'sync:resume': { request: { pairId: string | null }; response: PairView[] };
  'sync:now': { request: { pairId: string | null }; response: PairView[] };
  /**
   * Answers a hold: delete on the device too. `reason`: the hold the card showed (HoldView.reason); the
   * core refuses the answer (NOT_HELD, HOLD_CHANGED) when none stands by then, or another.
   */
  'sync:confirmDeletes': { request: { pairId: string; reason: string }; response: PairView };
  /** Answers a hold: bring the items back from the device. */
  'sync:restore': { request: { pairId: string; reason: string }; response: PairView };
  /** The folders directly in the pair's device folder `path` (`''`: the pair's folder), one listing a call. */
  'selection:list': { request: { pairId: string; path: string }; response: SelectionFolderView[] };
  /**
   * The same for a pair not made yet ("Add a folder"): the folders in `remoteFolder`'s `path` as they
   * would be with `excluded` (paths below `remoteFolder`) left out.
   */
  'selection:preview': {
    request: { remoteFolder: string; excluded: string[]; path: string };
    response: SelectionFolderView[];
  };
  /** Includes a folder or leaves it out (a waiting one is answered so); the pair syncs at once. */
  'selection:set': { request: SelectionChange; response: PairView };
  /** Ask before syncing new device folders larger than `bytes` (null: never ask). */
  'selection:askOver': { request: { pairId: string; bytes: number | null }; response: PairView };
  /** Whether files on demand can work on this computer, and why not. */
  'onDemand:support': { request: Empty; response: OnDemandSupportView };
  /**
   * Turns files on demand on for a pair of whole files: its sync stops, its files move into the cache
   * folder (one rename, nothing copied or lost), its sync starts again with the folder mounted.
   */
  'onDemand:turnOn': { request: { pairId: string }; response: PairView };
  /**
   * Turns files on demand off for an on-demand pair: its sync stops, one pass downloads every file of
   * its device folder, the cache folder moves back to the pair's folder (one rename), its sync starts
   * again with whole files. Anything left only on the device: nothing is changed, and the error says so.
   */
  'onDemand:turnOff': { request: { pairId: string }; response: PairView };
  /** An on-demand pair's cache limit in bytes (null: no limit). */
  'onDemand:cacheLimit': { request: { pairId: string; bytes: number | null }; response: PairView };
  'activity:list': { request: { pairId: string | null }; response: ActivityView[] };
  'issues:list': { request: { pairId: string | null }; response: IssueView[] };
  /** The synced items below a folder, for the share picker; `path` null: the pairs' folders. */
  'local:browse': { request: { path: string | null }; response: LocalEntryView[] };
  // Versions, "Recently deleted" and conflicts (issue 31): what each does is said in contract-versions.ts.
  'versions:list': { request: { localPath: string }; response: Versions.FileVersionsView };
  'versions:restore': { request: Versions.VersionRestoreRequest; response: Versions.VersionRestoreView };
  'deleted:list': { request: Versions.DeletedListRequest; response: Versions.DeletedListView };
  'deleted:restore': { request: Versions.DeletedRestoreRequest; response: Versions.DeletedRestoreView };
  'conflicts:list': { request: { pairId: string | null }; response: Versions.ConflictView[] };
  'conflicts:resolve': { request: Versions.ConflictResolveRequest; response: Versions.ConflictResolveView };
  'versions:usage': { request: { pairId: string }; response: Versions.PairVersionsView };
  'versions:settings': { request: Versions.PairVersionsSettings; response: Versions.PairVersionsView };
  'versions:clear': { request: { pairId: string }; response: Versions.PairVersionsView };
  'shares:list': { request: Empty; response: ShareView[] };
  'shares:create': {
    request: { paths: string[]; fresh: boolean };
    response: ShareView & { reused: boolean };
  };
  'shares:revoke': { request: { shareId: string }; response: Empty };
  'search:text': {
    request: { query: string; limit: number | null; pageToken: string | null };
    response: { matches: SearchMatchView[]; pageToken: string };
  };
  /** `from`/`to`: `YYYY-MM-DD` (whole days on this computer's clock) or ISO 8601 times. */
  'search:photos': {
    request: { from: string; to: string; limit: number | null };
    response: { photos: PhotoView[]; more: boolean };
  };
  /** Opens a synced file or folder with its application. */
  'shell:openPath': { request: { path: string }; response: Empty };
  /** Shows a synced item in the file manager. */
  'shell:showItem': { request: { path: string }; response: Empty };
  /** Opens a share link in the system browser. */
  'shell:openUrl': { request: { url: string }; response: Empty };
}

/** name → payload of what the core tells the window, as it happens (no polling). */
export interface EventMap {
  'pairs:changed': PairView[];
  'account:changed': AccountView;
  'activity:added': ActivityView[];
  'shares:changed': ShareView[];
  'settings:changed': SettingsView;
  notification: NotificationView;
}

export type InvokeName = keyof InvokeMap;
export type InvokeRequest<N extends InvokeName> = InvokeMap[N]['request'];
export type InvokeResponse<N extends InvokeName> = InvokeMap[N]['response'];
export type EventName = keyof EventMap;
export type EventPayload<E extends EventName> = EventMap[E];

/** The names at run time, for hosts that route and check them; the types above are the source of truth. */
export const INVOKE_NAMES = [
  'app:about',
  'account:get',
  'account:signInPassword',
  'account:signInBrowser',
  'account:signOut',
  'devices:list',
  'devices:choose',
  'remote:listFolders',
  'remote:createFolder',
  'pairs:list',
  'pairs:check',
  'pairs:add',
  'pairs:remove',
  'pairs:setMetered',
  'sync:pause',
  'sync:resume',
  'sync:now',
  'sync:confirmDeletes',
  'sync:restore',
  'selection:list',
  'selection:preview',
  'selection:set',
  'selection:askOver',
  'onDemand:support',
  'onDemand:turnOn',
  'onDemand:turnOff',
  'onDemand:cacheLimit',
  'activity:list',
  'issues:list',
  'local:browse',
  'versions:list',
  'versions:restore',
  'deleted:list',
  'deleted:restore',
  'conflicts:list',
  'conflicts:resolve',
  'versions:usage',
  'versions:settings',
  'versions:clear',
  'shares:list',
  'shares:create',
  'shares:revoke',
  'search:text',
  'search:photos',
  ...SETTINGS_INVOKE_NAMES,
  'shell:openPath',
  'shell:showItem',
  'shell:openUrl',
] as const satisfies readonly InvokeName[];

export const EVENT_NAMES = [
  'pairs:changed',
  'account:changed',
  'activity:added',
  'shares:changed',
  'settings:changed',
  'notification',
] as const satisfies readonly EventName[];

/**
 * What the renderer is given by its host (Electron's preload, or the headless host's bridge script):
 * the renderer cannot tell them apart. `invoke` rejects with a UiError-shaped object.
 */
export interface UiBridge {
  invoke<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>>;
  /** Returns the function that stops listening. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** The global name under which a host puts the bridge (`window.mchBridge`). */
export const BRIDGE_GLOBAL = 'mchBridge';

// Both lists name every entry of their map: a name added to a map and not here fails to compile.
type AssertComplete<Missing> = [Missing] extends [never] ? true : { missing: Missing };
export const INVOKE_NAMES_COMPLETE: AssertComplete<Exclude<InvokeName, (typeof INVOKE_NAMES)[number]>> = true;
export const EVENT_NAMES_COMPLETE: AssertComplete<Exclude<EventName, (typeof EVENT_NAMES)[number]>> = true;
