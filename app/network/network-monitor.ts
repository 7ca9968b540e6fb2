// NetworkMonitor: tells when the network changed (NetworkManager's signals, else interface addresses) and whether it is metered.
import { systemClock, type Clock, type TimerHandle } from '../system/clock.ts';
import { networkManagerBus } from './bus-address.ts';
import { DbusConnection } from './dbus-connection.ts';
import { AddressPoll, type InterfaceReader } from './interface-addresses.ts';
import { isAbsent, isMetered, watchNetworkManager, type NetworkManagerState } from './network-manager.ts';

export const NM_SOURCE = 'NetworkManager';
export const FALLBACK_SOURCE = 'interface addresses (NetworkManager not found)';

export interface NetworkMonitorOptions {
  /** The bus NetworkManager is asked on; default `networkManagerBus(env)`: MCH_NM_BUS_ADDRESS, else the system bus. */
  busAddress?: string;
  /** Where MCH_NM_BUS_ADDRESS and DBUS_SYSTEM_BUS_ADDRESS are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** NetworkManager is asked only on Linux (default `process.platform`), unless a bus is given. */
  platform?: NodeJS.Platform;
  /** How often the fallback compares interface addresses (default 10 s). */
  interfacePollMs?: number;
  /** After losing the bus, how often NetworkManager is tried again (default 60 s). */
  retryMs?: number;
  clock?: Clock;
  /** The interface list (default `os.networkInterfaces`), a seam for tests of the fallback. */
  interfaces?: InterfaceReader;
  log?: (level: 'info' | 'warn', message: string) => void;
}

type ChangeListener = (why: string) => void;

/**
 * Watches the network without polling where the OS tells: on Linux NetworkManager's PropertiesChanged
 * (primary connection, state, connectivity, metered), elsewhere or without it the interface addresses
 * every 10 s. `start()` resolves once the first answer is in (never rejects: a bus that fails means the
 * fallback). `metered` is undefined when it cannot be known (no NetworkManager, or it says "unknown").
 */
export class NetworkMonitor {
  readonly #options: NetworkMonitorOptions;
  readonly #clock: Clock;
  readonly #listeners = new Set<ChangeListener>();
  #connection: DbusConnection | undefined;
  #nm: NetworkManagerState | undefined;
  #poll: AddressPoll | undefined;
  #retry: TimerHandle | undefined;
  #source = FALLBACK_SOURCE;
  #started = false;
  #stopped = false;

  constructor(options: NetworkMonitorOptions = {}) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** True on a metered network (NetworkManager's yes or guess-yes), false when not, undefined when unknown. */
  get metered(): boolean | undefined {
    if (this.#source !== NM_SOURCE || this.#nm === undefined || this.#nm.metered === 0) return undefined;
    return isMetered(this.#nm.metered);
  }

  /** What the monitor watches: NM_SOURCE or FALLBACK_SOURCE. */
  get source(): string {
    return this.#source;
  }

  /** NetworkManager's own view, while it is the source (for logs and status). */
  get networkManager(): Readonly<NetworkManagerState> | undefined {
    return this.#source === NM_SOURCE ? this.#nm : undefined;
  }

  /** `why` says what changed, for logs ("metered: no → yes", "primary connection: /... → /..."). */
  on(event: 'change', listener: ChangeListener): this {
    if (event === 'change') this.#listeners.add(listener);
    return this;
  }

  off(event: 'change', listener: ChangeListener): this {
    if (event === 'change') this.#listeners.delete(listener);
    return this;
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    if (!(await this.#tryNetworkManager())) this.#fallBack();
  }

  stop(): void {
    this.#stopped = true;
    this.#poll?.stop();
    this.#poll = undefined;
    if (this.#retry !== undefined) this.#clock.clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#connection?.close();
    this.#connection = undefined;
  }

  #asksNetworkManager(): boolean {
    const env = this.#options.env ?? process.env;
    const explicit = this.#options.busAddress ?? env['MCH_NM_BUS_ADDRESS'];
    return (
      (explicit !== undefined && explicit !== '') || (this.#options.platform ?? process.platform) === 'linux'
    );
  }

  async #tryNetworkManager(): Promise<boolean> {
    if (!this.#asksNetworkManager()) return false;
    const address = networkManagerBus(this.#options.env ?? process.env, this.#options.busAddress);
    let connection: DbusConnection | undefined;
    try {
      connection = await DbusConnection.open(address);
      const opened = connection;
      const watch = await watchNetworkManager(opened, (state) => {
        if (this.#connection === opened) this.#take(state);
      });
      if (this.#stopped) {
        opened.close();
        return true;
      }
      this.#connection = opened;
      // Signals are waited for as long as the host runs; they never keep it running.
      opened.unref();
      opened.onClose((error) => this.#lostBus(error.message));
      this.#poll?.stop();
      this.#poll = undefined;
      this.#source = NM_SOURCE;
      this.#nm = watch.state;
      this.#log('info', `network changes from NetworkManager on ${address}`);
      return true;
    } catch (error) {
      connection?.close();
      const why = isAbsent(error) ? 'NetworkManager is not running' : (error as Error).message;
      this.#log('info', `NetworkManager not used (${why}); watching interface addresses`);
      return false;
    }
  }

  /** NetworkManager said something: a change of ours is told, with what changed. */
  #take(state: NetworkManagerState | undefined): void {
    const before = this.#nm;
    this.#nm = state;
    const why = describeChange(before, state);
    if (why !== undefined) this.#emit(why);
  }

  #fallBack(): void {
    if (this.#stopped || this.#poll !== undefined) return;
    this.#source = FALLBACK_SOURCE;
    this.#poll = new AddressPoll({
      clock: this.#clock,
      everyMs: this.#options.interfacePollMs ?? 10_000,
      ...(this.#options.interfaces === undefined ? {} : { read: this.#options.interfaces }),
      onChange: (why) => this.#emit(why),
    });
  }

  /** The bus went away (restarted, the machine woke): addresses meanwhile, NetworkManager tried again. */
  #lostBus(reason: string): void {
    if (this.#stopped) return;
    this.#connection = undefined;
    const wasMetered = this.metered;
    this.#nm = undefined;
    this.#fallBack();
    this.#log('warn', `lost the bus of NetworkManager (${reason}); watching interface addresses`);
    this.#emit(`NetworkManager lost${wasMetered === undefined ? '' : ' (metered now unknown)'}`);
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    this.#retry = this.#clock.setTimeout(() => {
      this.#retry = undefined;
      void this.#tryNetworkManager().then((ok) => {
        if (ok && !this.#stopped) this.#emit('NetworkManager back');
        else if (!this.#stopped) this.#scheduleRetry();
      });
    }, this.#options.retryMs ?? 60_000);
  }

  #emit(why: string): void {
    for (const listener of [...this.#listeners]) {
      // A listener's failure must not reach the bus connection's reader (it would close it).
      try {
        listener(why);
      } catch (error) {
        this.#log('warn', `a network change listener failed: ${(error as Error).message}`);
      }
    }
  }

  #log(level: 'info' | 'warn', message: string): void {
    this.#options.log?.(level, message);
  }
}

/** What changed between two of NetworkManager's states, in words; undefined when nothing we watch did. */
export function describeChange(
  before: NetworkManagerState | undefined,
  after: NetworkManagerState | undefined,
): string | undefined {
  if (before === undefined && after === undefined) return undefined;
  if (before === undefined) return 'NetworkManager started';
  if (after === undefined) return 'NetworkManager stopped';
  const parts: string[] = [];
  const words = (metered: number): string =>
    ['unknown', 'yes', 'no', 'guess yes', 'guess no'][metered] ?? '?';
  if (before.metered !== after.metered)
    parts.push(`metered: ${words(before.metered)} → ${words(after.metered)}`);
  if (before.primaryConnection !== after.primaryConnection) {
    parts.push(`primary connection: ${before.primaryConnection} → ${after.primaryConnection}`);
  }
  if (before.state !== after.state) parts.push(`state: ${before.state} → ${after.state}`);
  if (before.connectivity !== after.connectivity) {
    parts.push(`connectivity: ${before.connectivity} → ${after.connectivity}`);
  }
  return parts.length === 0 ? undefined : parts.join(', ');
}
