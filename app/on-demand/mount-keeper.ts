// Keeps an on-demand pair's folder mounted while its live service runs: a mount process that dies is started again.
import type { MountArguments } from '../mount/mount-arguments.ts';
import { UNMOUNTED_FROM_OUTSIDE_EXIT } from '../mount/mount-errors.ts';
import { startMount, type RunningMount } from './mount-supervisor.ts';
import { adoptUnmountedContent, type AdoptedContent } from './unmounted-content.ts';

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
 * ENOTCONN, and one unmounted from outside leaves an empty folder: the next start cleans it and mounts
 * again, waiting longer after each failure. Before each start, what was saved into the folder while it
 * was not mounted is moved into the cache folder (unmounted-content.ts): it syncs, and the mount can go
 * over an empty folder.
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

  async #startOnce(): Promise<RunningMount> {
    tellAdopted(await adoptUnmountedContent(this.#args.mountPoint, this.#args.source), this.#options.log);
    return (this.#options.start ?? startMount)(this.#args, { log: this.#options.log });
  }

  #watch(mount: RunningMount): void {
    this.#mount = mount;
    this.#options.onChange?.(true);
    void mount.ended.then((code) => {
      if (this.#stopped || this.#mount !== mount) return;
      this.#mount = undefined;
      this.#options.onChange?.(false);
      this.#options.log(
        'warn',
        code === UNMOUNTED_FROM_OUTSIDE_EXIT
          ? `${this.#args.mountPoint} was unmounted by another program: showing the device's files there again`
          : `the mount process ended on its own (exit ${String(code)}): mounting again`,
      );
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

/** One log line for each thing moved into the cache folder. */
export function tellAdopted(adopted: AdoptedContent, log: MountKeeperOptions['log']): void {
  for (const path of adopted.moved) {
    log('info', `"${path}" was saved in the folder while it did not show the device's files: it syncs now`);
  }
  for (const { path, as } of adopted.keptBeside) {
    log(
      'warn',
      `"${path}" was saved in the folder while it did not show the device's files, under a name the device's file has: kept as "${as}"`,
    );
  }
}
