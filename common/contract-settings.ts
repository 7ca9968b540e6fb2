// The window's settings in the UI contract (contract.ts, which re-exports the types and joins the calls to its maps): what Settings shows and the calls that change it, the network's included.

type Empty = Record<string, never>;

export interface SettingsView {
  startAtLogin: boolean;
  /** "Copy share link" in the file managers' context menus (desktop-app.md §4). */
  fileManagerEntries: boolean;
  notifications: boolean;
  /** How often the device is asked for changes. */
  pollIntervalSeconds: number;
  /** Extra ignore rules (gitignore syntax) for every pair, beside each folder's own `.mchignore`. */
  ignoreRules: string;
}

/** The profile's upload and download limits (`mch-sync limits`), for every pair together. */
export interface NetworkLimitsView {
  /** Bytes per second; null: no limit. */
  upBytesPerSec: number | null;
  downBytesPerSec: number | null;
}

/** Where the proxy in use comes from: the profile's own, the environment's variables, the system's, or none. */
export type ProxySourceView = 'manual' | 'environment' | 'system' | 'none';

/** The proxy (`mch-sync proxy --show`): the profile's own, and the one requests go through. */
export interface ProxyView {
  /** The profile's own proxy, `http://HOST:PORT`, never with credentials; null: none set. */
  url: string | null;
  user: string | null;
  /** Whether a password is kept for it (in the secret store; it never crosses back). */
  hasPassword: boolean;
  source: ProxySourceView;
  /** What requests go through, in words: `http://proxy:3128`, or one per scheme; null: direct. */
  effective: string | null;
  /** The hosts reached around it (NO_PROXY); null when none, or no proxy is used. */
  noProxy: string | null;
}

export interface NetworkView {
  limits: NetworkLimitsView;
  proxy: ProxyView;
}

/**
 * The profile's proxy as Settings sets it. `url` null: none of its own (the environment's or the
 * system's applies). `password` undefined: the one kept stays; null: none.
 */
export interface ProxyChange {
  url: string | null;
  user: string | null;
  password?: string | null | undefined;
}

/** The settings calls: part of contract.ts's InvokeMap, which extends this. */
export interface SettingsInvokeMap {
  'settings:get': { request: Empty; response: SettingsView };
  'settings:update': { request: Partial<SettingsView>; response: SettingsView };
  'network:get': { request: Empty; response: NetworkView };
  /**
   * Rates as `mch-sync limits` reads them (`2MB/s`, `500KB/s`, `off`); a bad one is refused in the
   * command's words (RATE_INVALID) and neither limit changes. A running core applies them at once.
   */
  'network:setLimits': { request: { up: string; down: string }; response: NetworkView };
  /** Checked as `mch-sync proxy --set` checks it (PROXY_INVALID); applies to clients started after it. */
  'network:setProxy': { request: ProxyChange; response: NetworkView };
}

/** Their names at run time, spread into contract.ts's INVOKE_NAMES (which checks the whole list). */
export const SETTINGS_INVOKE_NAMES = [
  'settings:get',
  'settings:update',
  'network:get',
  'network:setLimits',
  'network:setProxy',
] as const satisfies ReadonlyArray<keyof SettingsInvokeMap>;
