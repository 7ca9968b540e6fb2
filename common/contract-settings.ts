// The window's settings in the UI contract (contract.ts, which re-exports the types and joins the calls to its maps): what Settings shows and the calls that change it.

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

/** The settings calls: part of contract.ts's InvokeMap, which extends this. */
export interface SettingsInvokeMap {
  'settings:get': { request: Empty; response: SettingsView };
  'settings:update': { request: Partial<SettingsView>; response: SettingsView };
}

/** Their names at run time, spread into contract.ts's INVOKE_NAMES (which checks the whole list). */
export const SETTINGS_INVOKE_NAMES = ['settings:get', 'settings:update'] as const satisfies ReadonlyArray<
  keyof SettingsInvokeMap
>;
