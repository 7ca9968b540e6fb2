// Which of the device's addresses requests go to: home when it answers, else the relay; checked again when a request gets no answer, when the network changes, and every 45 s while on the relay.
import { EventEmitter } from 'node:events';
import type { ApiError } from '../../common/errors.ts';
import type { DeviceConnection } from '../../common/sync-status.ts';
import type { RequestRoute } from '../api/http/transport.ts';

/** Where the device is reached: its address on the home network, the relay, or an address pinned by hand. */
export type DeviceVia = 'home' | 'relay' | 'pinned';

export interface DeviceAddress {
  via: DeviceVia;
  /** A base URL without a trailing slash, as device-lookup.ts gives it. */
  url: string;
}

export interface RouteState {
  via: DeviceVia;
  url: string;
  /** False when no address answered at the last check (requests then fail and the service is offline). */
  reachable: boolean;
  /** When the addresses were last checked, in ms since the epoch; undefined before the first check. */
  checkedAt: number | undefined;
}

/** Undefined when `url` answered like the device, else why not (DeviceLookup.probe). */
export type AddressProbe = (url: string, signal: AbortSignal) => Promise<ApiError | undefined>;

export interface DeviceRouteOptions {
  /** Best first: the home address, then the relay. One address (or a pinned one) never switches. */
  addresses: readonly DeviceAddress[];
  /** The address that answered last (saved in the profile): used from the start, until a check says otherwise. */
  current: string;
  probe: AddressProbe;
  /** How often the home address is tried again while requests go through the relay (default 45 s). */
  homeRecheckMs?: number;
  /** Told the address that answered after a switch, to be saved for the next start. */
  remember?: (address: DeviceAddress) => void;
  now?: () => number;
}

/**
 * One GET of the home address while on the relay: where the OS tells of a new network (NetworkManager)
 * the check comes at once; elsewhere, and for a home address that comes back without a change of
 * network here (the device restarted), a laptop back home is home within this long (#33: under 60 s).
 */
export const DEFAULT_HOME_RECHECK_MS = 45_000;
/** A failed request starts a check at most this often, so a device that is off is not probed per request. */
const MIN_FAILURE_CHECK_GAP_MS = 1000;

/** A probe that threw instead of answering with why: the address did not answer. */
const PROBE_THREW = 'probe-threw' as const;

/** An answer that proves the address reaches the device, even though the request itself was refused. */
function answered(error: ApiError | undefined | typeof PROBE_THREW): boolean {
  if (error === PROBE_THREW) return false;
  return error === undefined || error.code === 'AUTH_REQUIRED' || error.code === 'FORBIDDEN';
}

/**
 * The device's addresses and the one in use. Emits `change` with the new RouteState when the address in
 * use or its reachability changes. `start()` arms the relay's recheck timer; `stop()` ends every timer
 * and check.
 */
export class DeviceRoute extends EventEmitter<{ change: [RouteState]; stopped: [] }> implements RequestRoute {
  #addresses: readonly DeviceAddress[];
  readonly #probe: AddressProbe;
  readonly #homeRecheckMs: number;
  readonly #remember: ((address: DeviceAddress) => void) | undefined;
  readonly #now: () => number;
  #current: DeviceAddress;
  #reachable = true;
  #checkedAt: number | undefined;
  #checking: Promise<void> | undefined;
  #lastFailureCheck = 0;
  #timer: NodeJS.Timeout | undefined;
  #started = false;
  readonly #stopped = new AbortController();

  constructor(options: DeviceRouteOptions) {
    super();
    this.#addresses = options.addresses.map((address) => ({ ...address, url: trimSlash(address.url) }));
    this.#probe = options.probe;
    this.#homeRecheckMs = options.homeRecheckMs ?? DEFAULT_HOME_RECHECK_MS;
    this.#remember = options.remember;
    this.#now = options.now ?? Date.now;
    const current = trimSlash(options.current);
    this.#current = this.#addresses.find((address) => address.url === current) ?? {
      via: 'pinned',
      url: current,
    };
  }

  get addresses(): readonly DeviceAddress[] {
    return this.#addresses;
  }

  /** The device's addresses read later (an older profile kept only one): the one in use gets its name. */
  learn(addresses: readonly DeviceAddress[]): void {
    this.#addresses = addresses.map((address) => ({ ...address, url: trimSlash(address.url) }));
    const known = this.#addresses.find((address) => address.url === this.#current.url);
    if (known !== undefined && known.via !== this.#current.via) {
      this.#current = known;
      this.emit('change', this.state);
    }
    this.#arm();
  }

  /** The base URL requests go to now. */
  get url(): URL {
    return new URL(this.#current.url);
  }

  get state(): RouteState {
    return {
      via: this.#current.via,
      url: this.#current.url,
      reachable: this.#reachable,
      checkedAt: this.#checkedAt,
    };
  }

  /** The status's words for it: how the device is reached, and whether it answered at the last check. */
  get connection(): DeviceConnection {
    return { via: this.#current.via, reachable: this.#reachable };
  }

  /** Whether there is another address to switch to at all. */
  get switchable(): boolean {
    return this.#addresses.length > 1;
  }

  /** Arms the relay's recheck; a run that starts away from home asks at once whether home answers now. */
  start(): void {
    this.#started = true;
    this.#arm();
    if (this.#current.via !== 'home') void this.check();
  }

  stop(): void {
    this.#started = false;
    clearTimeout(this.#timer);
    if (this.#stopped.signal.aborted) return;
    this.#stopped.abort();
    this.emit('stopped');
  }

  async resolve(url: URL, signal: AbortSignal | undefined): Promise<URL> {
    if (this.#checking !== undefined) {
      // A check takes at most the probe timeout; a cancelled request need not wait for it.
      await (signal === undefined ? this.#checking : Promise.race([this.#checking, aborted(signal)]));
    }
    return this.#rebase(url);
  }

  unreachable(url: URL): void {
    if (!this.switchable || !this.#isOn(url, this.#current.url)) return;
    const now = this.#now();
    if (this.#checking !== undefined || now - this.#lastFailureCheck < MIN_FAILURE_CHECK_GAP_MS) return;
    this.#lastFailureCheck = now;
    void this.check();
  }

  /**
   * Probes every address at once and moves to the best that answers: home when it does, else the relay.
   * One check at a time: a caller during a check waits for that one.
   */
  check(): Promise<void> {
    if (!this.switchable || this.#stopped.signal.aborted) return Promise.resolve();
    this.#checking ??= this.#checkAll().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  async #checkAll(): Promise<void> {
    const signal = this.#stopped.signal;
    const results = await Promise.all(
      this.#addresses.map((address) => this.#probe(address.url, signal).catch(() => PROBE_THREW)),
    );
    if (signal.aborted) return;
    const best = this.#addresses.find((_address, index) => answered(results[index]));
    this.#checkedAt = this.#now();
    this.#settle(best);
  }

  /** While on the relay: is home back? Only home is asked, so this costs one request every 45 s. */
  async #checkHome(): Promise<void> {
    const home = this.#addresses.find((address) => address.via === 'home');
    if (home === undefined || this.#current.via === 'home' || this.#checking !== undefined) return;
    const signal = this.#stopped.signal;
    const error = await this.#probe(home.url, signal).catch(() => PROBE_THREW);
    if (signal.aborted || !answered(error) || this.#checking !== undefined) return;
    this.#checkedAt = this.#now();
    this.#settle(home);
  }

  #settle(best: DeviceAddress | undefined): void {
    const before = this.state;
    if (best === undefined) {
      this.#reachable = false;
    } else {
      this.#reachable = true;
      if (best.url !== this.#current.url) {
        this.#current = best;
        this.#remember?.(best);
      }
    }
    this.#arm();
    const after = this.state;
    if (after.url !== before.url || after.reachable !== before.reachable) this.emit('change', after);
  }

  /** The home recheck runs only while the relay (or nothing) is in use. */
  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#started || !this.switchable) return;
    if (this.#current.via === 'home' && this.#reachable) return;
    this.#timer = setTimeout(() => {
      void (this.#reachable ? this.#checkHome() : this.check()).finally(() => this.#arm());
    }, this.#homeRecheckMs);
    this.#timer.unref();
  }

  #rebase(url: URL): URL {
    const target = this.#current.url;
    if (this.#isOn(url, target)) return url;
    for (const address of this.#addresses) {
      if (!this.#isOn(url, address.url)) continue;
      const rest = url.href.slice(address.url.length);
      return new URL(target + rest);
    }
    return url;
  }

  /** Whether `url` is `base` or below it (`base/...`, `base?...`). */
  #isOn(url: URL, base: string): boolean {
    const href = url.href;
    if (!href.startsWith(base)) return false;
    const next = href.charAt(base.length);
    return next === '' || next === '/' || next === '?';
  }
}

/** The URL as the WHATWG parser writes it (a host in lower case, a default port left out), without a trailing slash. */
function trimSlash(url: string): string {
  try {
    return new URL(url).href.replace(/\/+$/, '');
  } catch {
    return url.replace(/\/+$/, '');
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
