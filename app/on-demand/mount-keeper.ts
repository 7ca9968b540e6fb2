// Keeps an on-demand pair's folder mounted while its live service runs: a mount process that dies is started again.
import type { MountArguments } from '../mount/mount-arguments.ts';
import { startMount, type RunningMount } from './mount-supervisor.ts';

export interface MountKeeperOptions {
  log: (level: 'info' | 'warn', message: string) => void;
  /** Told whenever the mount comes or goes (the status's `mounted`). */
  onChange?: (mounted: boolean) => void;
  /** The first wait before starting again; doubled after each failed start up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  /** The mount process's start (tests pass their own). */
  start?: typeof startMount;
}

/**
 * The first start's failure is the caller's (the folder cannot be shown: the service does not start);
 * after that, a mount process that ends on its own (killed, crashed) leaves a dead mount that answers
 * ENOTCONN: the next start cleans it and mounts again, waiting longer after each failure.
 */
export class MountKeeper {
  readonly #args: MountArguments;
  readonly #options: MountKeeperOptions;
  #mount: RunningMount | undefined;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #waitMs: number;

  private constructor(args: MountArguments, options: MountKeeperOptions) {
    this.#args = args;
    this.#options = options;
    this.#waitMs = options.retryMs ?? 1000;
  }

  /** Mounts now; throws the mount's error when it cannot. */
  static async start(args: MountArguments, options: MountKeeperOptions): Promise<MountKeeper> {
    const keeper = new MountKeeper(args, options);
    keeper.#watch(await keeper.#startOnce());
    return keeper;
  }

  get mounted(): boolean {
    return this.#mount !== undefined;
  }

  /** Unmounts for good; safe to call twice. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const mount = this.#mount;
    this.#mount = undefined;
    await mount?.stop();
  }

  #startOnce(): Promise<RunningMount> {
    return (this.#options.start ?? startMount)(this.#args, { log: this.#options.log });
  }

  #watch(mount: RunningMount): void {
    this.#mount = mount;
    this.#options.onChange?.(true);
    void mount.ended.then((code) => {
      if (this.#stopped || this.#mount !== mount) return;
      this.#mount = undefined;
      this.#options.onChange?.(false);
      this.#options.log('warn', `the mount process ended on its own (exit ${String(code)}): mounting again`);
      this.#later();
    });
  }

  #later(): void {
    const wait = this.#waitMs;
    this.#waitMs = Math.min(wait * 2, this.#options.maxRetryMs ?? 60_000);
    this.#timer = setTimeout(() => void this.#again(), wait);
    this.#timer.unref();
  }

  async #again(): Promise<void> {
    if (this.#stopped) return;
    try {
      // startMount's mount process cleans the dead mount itself before mounting.
      const mount = await this.#startOnce();
      if (this.#stopped) {
        await mount.stop();
        return;
      }
      this.#waitMs = this.#options.retryMs ?? 1000;
      this.#options.log('info', `mounted again at ${this.#args.mountPoint}`);
      this.#watch(mount);
    } catch (error) {
      this.#options.log('warn', `could not mount again: ${(error as Error).message}`);
      this.#later();
    }
  }
}
