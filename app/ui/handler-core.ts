// What the contract's handlers use of the UI core: a leaf, so the handlers do not import ui-core.ts, which builds them.
import type { DeviceRoute } from '../auth/device-route.ts';
import type { EventName, EventPayload, PairView } from '../../common/contract.ts';
import type { DeviceClient } from '../api/device-client.ts';
import type { KeytarApi } from '../auth/secrets/keychain-store.ts';
import type { ProxyChoice } from '../api/http/proxy-config.ts';
import type { AuthEnvironment, Session } from '../auth/session.ts';
import type { BrowserOpener } from '../auth/system-browser.ts';
import type { Clock } from '../system/clock.ts';
import type { LinkSharing } from '../share/link-sharing.ts';
import type { PairHistory } from './pairs/pair-history.ts';
import type { PairManager } from './pairs/pair-manager.ts';
import type { PairConflicts } from './versions/conflict-paths.ts';
import type { SystemSwitch } from '../system/system-switch.ts';
import type { SystemSettings } from './system-settings.ts';
import type { UiSettingsFile } from './ui-settings.ts';
import type { WindowRoute } from '../../common/window-route.ts';
import type { WindowLogLevel } from './window-log.ts';

export interface UiCoreOptions {
  profileDir: string;
  env: NodeJS.ProcessEnv;
  /** Opens addresses and files with the system's applications (the system browser's opener). */
  openExternal: BrowserOpener;
  keychain?: KeytarApi;
  clock?: Clock;
  /** Warnings and unexpected failures, for the host's log. */
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
  /**
   * The words the file-manager entries run before the selected paths: the app's `[<app>, --share]`,
   * the headless host's `mch-sync share --copy --notify`; null where the host installs none (the
   * entries are Linux file managers'; Windows gets them from the installer, macOS from the app).
   */
  shareCommand?: readonly string[] | null;
  /** Start at login as the host does it (autostart.ts); null where it has no way. */
  autostart?: SystemSwitch | null;
  /**
   * The host's own switch for "Copy share link" where it is not the Linux entries made from
   * `shareCommand`: the app's Finder Quick Action on macOS (desktop/quick-action.ts).
   */
  fileManagerEntries?: SystemSwitch | null;
  /**
   * Shows the host's window at `route` ("Show in mch-sync", "Why is this not synced?" in the file
   * manager): the app's window brought up, the headless host's address opened in the browser. Rejects
   * when it cannot; absent, the file manager is told there is no window (`STATE_NO_WINDOW`).
   */
  showWindow?: (route: WindowRoute) => Promise<void>;
  /** The system's proxy (the app's, through Electron's resolver): used when settings and variables name none. */
  systemProxy?: ProxyChoice;
}

/** What exists while signed in with a device: the clients and the running pairs. */
export interface Connection {
  session: Session;
  client: DeviceClient;
  /** The device's addresses and the one in use (at home, through the relay). */
  route: DeviceRoute;
  pairs: PairManager;
  /** Built on first use: the sharing service's address comes from the configuration service. */
  sharing: () => Promise<LinkSharing>;
}

/** The core as the handlers of account, pair and content calls see it (ui-core.ts implements it). */
export interface HandlerCore {
  readonly options: UiCoreOptions;
  readonly settings: UiSettingsFile;
  readonly systemSettings: SystemSettings;
  readonly history: PairHistory;
  /** The conflicts the pairs' views count: told when one was settled here. */
  readonly conflicts: PairConflicts;
  readonly auth: AuthEnvironment;
  readonly logFile: string;
  log(level: WindowLogLevel, message: string): void;
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  connection(): Connection;
  isConnected(): boolean;
  reconnect(): Promise<void>;
  /** Resolves once no restart of the pairs (reconnect) is under way. */
  pairsSettled(): Promise<void>;
  disconnect(): Promise<void>;
  pairViews(): PairView[];
  /** A link made or revoked here: the file managers' emblems follow at once. */
  sharesChanged(): void;
}
