// The process's upload and download limits kept equal to the profile's settings while it runs (`mch-sync limits` takes effect without a restart).
import { watch, type FSWatcher } from 'node:fs';
import { Bandwidth, type BandwidthLimits } from '../api/http/bandwidth.ts';
import { Transport } from '../api/http/transport.ts';
import { SETTINGS_FILE, SettingsFile } from '../profile/settings.ts';
import { formatSpeed } from '../../common/units.ts';

/** Events come in bursts (an atomic write is a create and a rename): one read after the last. */
const SETTLE_MS = 100;

export interface LimitsWatcherOptions {
  profileDir: string;
  /** A settings file that cannot be read: the limits in force stay, and this says why. */
  warn: (message: string) => void;
  /** Told after each change applied while it runs (not of the limits read at start). */
  onApplied?: (limits: BandwidthLimits) => void;
}

/**
 * Reads the limits at start, then again whenever `settings.json` changes. The profile folder is
 * watched, not the file: the file is replaced by a rename on every write, which a watch of the file
 * itself would not follow.
 */
export class LimitsWatcher {
  readonly bandwidth: Bandwidth;
  /** The process's base transport: every transport derived from it (each pair's) shares `bandwidth`. */
  readonly transport: Transport;
  readonly #options: LimitsWatcherOptions;
  readonly #file: SettingsFile;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #applied: BandwidthLimits = {};
  #reading: Promise<void> = Promise.resolve();
  #closed = false;
  #started = false;

  private constructor(options: LimitsWatcherOptions) {
    this.#options = options;
    this.#file = new SettingsFile(options.profileDir);
    this.bandwidth = new Bandwidth();
    this.transport = new Transport({ userAgent: 'mch-sync', bandwidth: this.bandwidth });
  }

  /** Applies the settings' limits and starts following them; `close()` stops. */
  static async start(options: LimitsWatcherOptions): Promise<LimitsWatcher> {
    const watcher = new LimitsWatcher(options);
    watcher.#follow();
    await watcher.#reread();
    watcher.#started = true;
    return watcher;
  }

  /** The limits in force. */
  get limits(): BandwidthLimits {
    return { ...this.#applied };
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#watcher?.close();
    this.#watcher = undefined;
  }

  #follow(): void {
    try {
      // Not persistent: a run that is done exits even while it still watches.
      this.#watcher = watch(this.#options.profileDir, { persistent: false }, (_event, name) => {
        if (name !== null && !name.startsWith(SETTINGS_FILE)) return;
        if (this.#timer !== undefined) clearTimeout(this.#timer);
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          void this.#reread();
        }, SETTLE_MS);
      });
      this.#watcher.on('error', (error) => {
        this.#options.warn(`limits set from now on are not seen until a restart (${error.message})`);
      });
    } catch (error) {
      // No profile folder yet: no limit can be set in it either, and the command says what is missing.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.#options.warn(`limits set from now on are not seen until a restart (${(error as Error).message})`);
    }
  }

  /** One read at a time, in order: a later change is never overwritten by an earlier read. */
  #reread(): Promise<void> {
    this.#reading = this.#reading.then(async () => {
      if (this.#closed) return;
      let limits: BandwidthLimits;
      try {
        limits = (await this.#file.read()).limits ?? {};
      } catch (error) {
        // At start the command itself meets the same file and says what is wrong with it.
        if (this.#started) this.#options.warn(`the limits in force stay: ${(error as Error).message}`);
        return;
      }
      if (
        limits.upBytesPerSec === this.#applied.upBytesPerSec &&
        limits.downBytesPerSec === this.#applied.downBytesPerSec
      ) {
        return;
      }
      this.bandwidth.set(limits);
      this.#applied = { ...limits };
      if (this.#started) this.#options.onApplied?.(this.limits);
    });
    return this.#reading;
  }
}

/** `upload at most 1.0 MB/s, download no limit`: the limits in force, for a log line. */
export function limitsInWords(limits: BandwidthLimits): string {
  const words = (rate: number | undefined): string =>
    rate === undefined ? 'no limit' : `at most ${formatSpeed(rate)}`;
  return `upload ${words(limits.upBytesPerSec)}, download ${words(limits.downBytesPerSec)}`;
}
