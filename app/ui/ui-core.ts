// The one implementation of the UI contract: the signed-in session, one live service per folder pair, and the events the window hears; both hosts call it.
import { NetworkMonitor } from '../network/network-monitor.ts';
import { homedir } from 'node:os';
import type { EventName, EventPayload, PairView } from '../../common/contract.ts';
import { MchError } from '../../common/errors.ts';
import { DeviceClient } from '../api/device-client.ts';
import { FilePermsClient } from '../api/file-perms-client.ts';
import { SharesClient } from '../api/cloud/shares-client.ts';
import { SignInRequiredError } from '../auth/auth-errors.ts';
import { Session, type AuthEnvironment } from '../auth/session.ts';
import { deviceRoute, routeChoice } from '../auth/device-address.ts';
import { LimitsWatcher, limitsInWords } from '../auth/limits-watcher.ts';
import { ensurePrivateDir } from '../profile/private-file.ts';
import { systemClock, type Clock, type TimerHandle } from '../system/clock.ts';
import { LinkSharing } from '../share/link-sharing.ts';
import { UnfinishedShares } from '../share/unfinished-shares.ts';
import type { ContractHandlers, ContractService, EventListener } from './dispatch.ts';
import { NotificationGrouper, type NotificationInput } from './notification-grouper.ts';
import { PairHistory } from './pairs/pair-history.ts';
import { PairManager } from './pairs/pair-manager.ts';
import {
  conflictNotifications,
  stateNotification,
  summarizeNotifications,
} from './pairs/pair-notifications.ts';
import { contractHandlers } from './ui-handlers.ts';
import { accountView } from './account-handlers.ts';
import { PairConflicts } from './versions/conflict-paths.ts';
import type { Connection, HandlerCore, UiCoreOptions } from './handler-core.ts';
import { UiSettingsFile } from './ui-settings.ts';
import type { SystemSwitch } from '../system/system-switch.ts';
import { SystemSettings } from './system-settings.ts';
import { openWindowLog, type WindowLog, type WindowLogLevel } from './window-log.ts';
import { FileManagerEntries } from '../integrate/file-manager-entries.ts';
import { defaultProfileDir } from '../profile/profile-dir.ts';
import type { StateService } from '../file-state/state-service.ts';
import { startCoreStates } from './states/core-states.ts';

export type { UiCoreOptions } from './handler-core.ts';

/** pairs:changed goes out at most this often: a tray or window never needs more (desktop-app.md §3). */
const PAIRS_EVENT_MS = 250;

export class UiCore implements ContractService, HandlerCore {
  readonly options: UiCoreOptions;
  readonly settings: UiSettingsFile;
  /** The settings kept by the system (start at login, file-manager entries), over `settings`. */
  readonly systemSettings: SystemSettings;
  readonly handlers: ContractHandlers;
  /** What the window was told of each pair, across restarts of the pairs (a setting saved, a sign-in). */
  readonly history = new PairHistory();
  /** The conflicts each pair's view counts, read from its index (after `history`: it reads it). */
  readonly conflicts = new PairConflicts(this.history);
  readonly #windowLog: WindowLog;
  readonly #clock: Clock;
  readonly #listeners = new Set<EventListener>();
  readonly #grouper: NotificationGrouper;
  readonly #lastStates = new Map<string, PairView['state']>();
  #connection: Connection | undefined;
  /** Restarts of the pairs under way (reconnect), each settled either way; see pairsSettled. */
  readonly #restarts = new Set<Promise<void>>();
  #pairsTimer: TimerHandle | undefined;
  #closed = false;
  /** The file managers' states of every pair (app/file-state/); undefined when its socket could not be made. */
  #states: StateService | undefined;
  /** The upload and download limits of every pair, following the settings; set by open(). */
  #limits: LimitsWatcher | undefined;
  /** NetworkManager's metered flag and network changes (app/network/); set by open(). */
  #network: NetworkMonitor | undefined;

  private constructor(options: UiCoreOptions) {
    this.options = options;
    this.#windowLog = openWindowLog(options.profileDir, options.log);
    this.#clock = options.clock ?? systemClock;
    this.settings = new UiSettingsFile(options.profileDir);
    this.systemSettings = new SystemSettings({
      file: this.settings,
      profileDir: options.profileDir,
      switches: { startAtLogin: options.autostart ?? null, fileManagerEntries: entriesOf(options) },
    });
    this.#grouper = new NotificationGrouper({
      clock: this.#clock,
      emit: (notification) => this.emit('notification', notification),
      summarize: summarizeNotifications,
    });
    this.handlers = contractHandlers(this);
  }

  /** Opens the core: when the profile is signed in with a device, every pair starts syncing. */
  static async open(options: UiCoreOptions): Promise<UiCore> {
    const core = new UiCore(options);
    // The watcher follows the profile folder, and cannot watch one not made yet: a first run's window
    // would then apply limits set in its Settings only after a restart.
    await ensurePrivateDir(options.profileDir);
    core.#limits = await LimitsWatcher.start({
      profileDir: options.profileDir,
      warn: (message) => core.log('warn', message),
      onApplied: (now) => core.log('info', `limits changed: ${limitsInWords(now)}`),
    });
    core.#network = new NetworkMonitor({
      env: options.env,
      log: (level, message) => core.log(level, message),
    });
    await core.#network.start();
    // Before the pairs start: each pair's service tracks itself in it as it starts.
    core.#states = await startCoreStates(core);
    try {
      await core.reconnect();
    } catch (error) {
      // Signed out, or the device does not answer yet: the window says so; nothing else stops.
      if (!(error instanceof MchError)) throw error;
      core.log('warn', error.message);
    }
    return core;
  }

  /** The desktop app at each start: first-start defaults once, then what is on brought up to date. */
  applySystemSettings(): Promise<void> {
    return this.systemSettings.applyAtStart();
  }

  get auth(): AuthEnvironment {
    const { profileDir, env, keychain } = this.options;
    return {
      profileDir,
      env,
      warn: (message) => this.log('warn', message),
      ...(keychain === undefined ? {} : { keychain }),
      ...(this.options.systemProxy === undefined ? {} : { systemProxy: this.options.systemProxy }),
      ...(this.#limits === undefined ? {} : { transport: this.#limits.transport }),
    };
  }

  /** The window's log: `<profile>/logs/window.log`, the folder Settings shows. */
  get logFile(): string {
    return this.#windowLog.path;
  }

  /** Into the window's log and the host's. */
  log(level: WindowLogLevel, message: string): void {
    this.#windowLog.write(level, message);
  }

  onEvent(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.#listeners) {
      try {
        listener(name, payload);
      } catch (error) {
        this.log('error', `an event listener failed: ${String(error)}`);
      }
    }
  }

  notify(input: NotificationInput): void {
    void this.settings.read().then(
      (settings) => {
        if (settings.notifications) this.#grouper.add(input);
      },
      () => this.#grouper.add(input),
    );
  }

  /** The connection, or SIGN_IN_REQUIRED (with what to do in the window). */
  connection(): Connection {
    if (this.#connection === undefined) {
      throw new SignInRequiredError('Not signed in: sign in, choose a device and a folder to sync.');
    }
    return this.#connection;
  }

  isConnected(): boolean {
    return this.#connection !== undefined;
  }

  /** Stops the pairs of the current sign-in and starts those of the profile's sign-in now, if any. */
  reconnect(): Promise<void> {
    const restart = this.#restart();
    const settled = restart.then(
      () => undefined,
      () => undefined,
    );
    this.#restarts.add(settled);
    void settled.then(() => this.#restarts.delete(settled));
    return restart;
  }

  /**
   * Resolves once no restart of the pairs is under way (a setting saved, a device chosen). Meanwhile
   * there is no pair to list and so no issue; a window loaded then (reloaded just after Save) would keep
   * that answer, as it asks for the issues again only when a pair's count, hold or state changes, and
   * a restarted pair usually comes back just as it was.
   */
  async pairsSettled(): Promise<void> {
    while (this.#restarts.size > 0) await Promise.all(this.#restarts);
  }

  async #restart(): Promise<void> {
    await this.disconnect();
    const session = await Session.open(this.auth);
    const route = await deviceRoute(session, undefined, routeChoice(this.options.env));
    const client = new DeviceClient({ deviceUrl: route, transport: session.transport });
    const device = session.settings.device;
    // Nothing here asks the network: with the device's saved address the pairs start even when the
    // device or the configuration service does not answer (they show offline and retry).
    let sharing: Promise<LinkSharing> | undefined;
    const sharingOf = (): Promise<LinkSharing> => {
      sharing ??= session.serviceUrls().then(
        (urls) =>
          new LinkSharing({
            shares: new SharesClient({ shareUrl: urls.share, transport: session.transport }),
            perms: new FilePermsClient(client),
            ownerId: session.settings.user.id,
            deviceId: device?.id ?? '',
            unfinished: new UnfinishedShares(this.options.profileDir),
          }),
        (error: unknown) => {
          sharing = undefined;
          throw error;
        },
      );
      return sharing;
    };
    const settings = await this.settings.read();
    const pairs = new PairManager({
      profileDir: this.options.profileDir,
      env: this.options.env,
      client,
      ...(device === undefined ? {} : { device: { id: device.id, name: device.name } }),
      pollMs: settings.pollIntervalSeconds * 1000,
      ignoreRules: settings.ignoreRules,
      history: this.history,
      conflicts: this.conflicts,
      ...(this.#states === undefined ? {} : { states: this.#states }),
      connection: () => route.connection,
      ...(this.#network && { network: this.#network }),
      warn: (message) => this.log('warn', message),
      onChange: (pairId) => this.#pairChanged(pairId),
      onActivity: (pairId, added) => {
        this.emit('activity:added', added);
        for (const notification of conflictNotifications(pairId, added)) this.notify(notification);
      },
    });
    this.#connection = { session, client, route, pairs, sharing: sharingOf };
    // A move between home and the relay shows in every pair's status and in the account's device.
    route.on('change', () => this.#routeChanged());
    route.start();
    // A new network (another Wi-Fi, a cable, back from sleep) may change which address answers.
    const onNetwork = (): void => void route.check();
    this.#network?.on('change', onNetwork);
    route.once('stopped', () => this.#network?.off('change', onNetwork));
    await pairs.startAll();
    this.#schedulePairsEvent();
  }

  /** Stops every pass cleanly (quit, sign-out, SIGTERM). */
  async disconnect(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.route.stop();
    if (connection !== undefined) await connection.pairs.stopAll();
    this.#schedulePairsEvent();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#pairsTimer !== undefined) this.#clock.clearTimeout(this.#pairsTimer);
    this.#grouper.close();
    await this.disconnect();
    this.#limits?.close();
    this.#network?.stop();
    // After the pairs: each stopped pair untracked itself.
    await this.#states?.close();
    this.#listeners.clear();
    await this.#windowLog.close();
  }

  pairViews(): PairView[] {
    return this.#connection?.pairs.views() ?? [];
  }

  sharesChanged(): void {
    this.#states?.sharesChanged();
  }

  /** The device moved between home and the relay, or stopped answering: the account's view says so. */
  #routeChanged(): void {
    accountView(this).then(
      (view) => this.emit('account:changed', view),
      (error: unknown) => this.log('warn', error instanceof Error ? error.message : String(error)),
    );
  }

  #pairChanged(pairId: string): void {
    this.#schedulePairsEvent();
    const connection = this.#connection;
    if (connection === undefined || !connection.pairs.ids().includes(pairId)) return;
    // A change comes with every operation of a pass: only a new state needs the whole view.
    const state = connection.pairs.stateOf(pairId);
    const before = this.#lastStates.get(pairId);
    this.#lastStates.set(pairId, state);
    if (before === state) return;
    const notification = stateNotification(connection.pairs.view(pairId));
    if (notification !== null) this.notify(notification);
  }

  /** At most one pairs:changed per PAIRS_EVENT_MS, carrying the state at the time it goes out. */
  #schedulePairsEvent(): void {
    if (this.#pairsTimer !== undefined || this.#closed) return;
    this.#pairsTimer = this.#clock.setTimeout(() => {
      this.#pairsTimer = undefined;
      this.emit('pairs:changed', this.pairViews());
    }, PAIRS_EVENT_MS);
  }
}

function entriesOf(options: UiCoreOptions): SystemSwitch | null {
  if (options.fileManagerEntries !== undefined) return options.fileManagerEntries;
  const command = options.shareCommand ?? null;
  if (command === null || process.platform === 'win32' || process.platform === 'darwin') return null;
  const home = options.env['HOME'] ?? homedir();
  return new FileManagerEntries({
    command,
    profileDir: options.profileDir,
    defaultProfile: options.profileDir === defaultProfileDir(options.env, process.platform, home),
    env: options.env,
    home,
    log: options.log,
  });
}
