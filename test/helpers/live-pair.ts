// The live service over a real temporary folder and the real device, recording its requests, for live scenario tests.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { knownItemsFromIndex } from '../../app/watcher/index-known-items.ts';
import { LiveSync, type LiveSyncOptions } from '../../app/live-service/live-sync.ts';
import { SyncEngine, type SyncOptions } from '../../app/sync/engine.ts';
import type { PassReport } from '../../app/sync/pass-report.ts';
import { walkRemote } from '../../app/sync/remote/remote-walk.ts';
import type { TestDevice } from './device.ts';
import { isWrite, SyncPair, type Tree } from './sync-pair.ts';

export interface LivePairOptions {
  /**
   * How often the device is asked for changes, also soon after local activity (default 500 ms, so
   * remote changes arrive quickly; a large tree wants more, each poll reads it all).
   */
  pollMs?: number;
  /** Longest wait between retries while the device is away (default 1 s). */
  maxBackoffMs?: number;
  /** The engine talks to this base instead (a proxy in front of the device). */
  deviceUrl?: string;
  /** Another watcher than chokidar's (a test that decides what the service is told). */
  watch?: LiveSyncOptions['watch'];
}

/** Waits until `probe` gives a value; generous by default, because the machine may be slow and shared. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A tree with long texts replaced by their SHA-256, so a failed comparison prints something readable. */
export function digestTree(tree: Tree): Record<string, string> {
  const digested: Record<string, string> = {};
  for (const [path, item] of Object.entries(tree)) {
    if (item.kind === 'folder') digested[path] = 'folder';
    else if (item.text.length <= 64) digested[path] = item.text;
    else digested[path] = `${item.text.length} bytes, sha256 ${sha256(item.text)}`;
  }
  return digested;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** One pass of the service: its report, or what it threw. */
export type PassOutcome = { report: PassReport } | { error: unknown };

/**
 * A `LiveSync` over a `SyncPair`'s folder, index and recording client. The pair's own engine is not
 * used; its local and remote helpers are (`pair.writeLocal`, `pair.remoteTree`, `pair.writeRemote`...).
 */
export class LivePair {
  readonly pair: SyncPair;
  readonly live: LiveSync;
  /** Every pass the service ran, in order. */
  readonly passes: PassOutcome[] = [];
  /** Reads the remote side for the comparisons: `pair`, or another one after the device restarted. */
  #reader: SyncPair;

  constructor(device: TestDevice, options: LivePairOptions = {}) {
    const pair = new SyncPair(
      device,
      options.deviceUrl === undefined ? {} : { deviceUrl: options.deviceUrl },
    );
    this.pair = pair;
    this.#reader = pair;
    const passes = this.passes;
    this.live = new LiveSync({
      knownItem: knownItemsFromIndex(pair.index),
      localRoot: pair.localRoot,
      remoteFolder: pair.remoteFolder,
      pollMs: options.pollMs ?? 500,
      activePollMs: options.pollMs ?? 500,
      maxBackoffMs: options.maxBackoffMs ?? 1_000,
      ...(options.watch === undefined ? {} : { watch: options.watch }),
      log: (line) => pair.logLines.push(line),
      engine: (events) =>
        new RecordingEngine(passes, {
          client: pair.client.device,
          index: pair.index,
          localRoot: pair.localRoot,
          remoteFolder: pair.remoteFolder,
          env: { HOME: pair.home, XDG_DATA_HOME: join(pair.home, '.local', 'share') },
          events,
          log: (line) => pair.logLines.push(line),
        }),
    });
  }

  /** Starts the service; with `synced`, also waits for the first pass to bring both sides together. */
  async start(options: { synced?: boolean } = {}): Promise<void> {
    await this.live.start();
    if (options.synced === true) await this.waitUntilSynced('the first pass');
  }

  /** Stops the service and removes the folders. */
  async close(): Promise<void> {
    await this.live.stop();
    if (this.#reader !== this.pair) this.#reader.close();
    this.pair.close();
  }

  /**
   * The device was started again (same data, same port): the comparisons read the remote side
   * through it. The engine's client goes on as it is, as the real one would.
   */
  readThrough(device: TestDevice): SyncPair {
    if (this.#reader !== this.pair) this.#reader.close();
    this.#reader = new SyncPair(device, { remoteFolder: this.pair.remoteFolder });
    return this.#reader;
  }

  /** A mark in the request record; `writesSince(mark)` gives the writes and transfers made after it. */
  mark(): number {
    return this.pair.client.requests().length;
  }

  requestsSince(mark: number): string[] {
    return this.pair.client.requests().slice(mark);
  }

  writesSince(mark: number): string[] {
    return this.requestsSince(mark).filter(isWrite);
  }

  /**
   * Waits until the service rests (no pass running or queued, state idle) with both trees equal, and
   * returns the tree (long texts digested). Reads every remote file: for small trees.
   */
  async waitUntilSynced(what = 'both sides to match', timeoutMs?: number): Promise<Record<string, string>> {
    return this.#waitUntilResting(what, timeoutMs, async () => {
      const local = digestTree(this.pair.localTree());
      return isDeepStrictEqual(local, digestTree(await this.#reader.remoteTree())) ? local : undefined;
    });
  }

  /** As `waitUntilSynced`, comparing paths, kinds and sizes only (for thousands of files). */
  async waitUntilSameShape(what = 'both sides to hold the same items', timeoutMs?: number): Promise<Shape> {
    return this.#waitUntilResting(what, timeoutMs, async () => {
      const local = this.localShape();
      return isDeepStrictEqual(local, await this.remoteShape()) ? local : undefined;
    });
  }

  /** path → `folder` or `file <size>`, the engine's own `.mch-sync` folder left out. */
  localShape(): Shape {
    const root = this.pair.localRoot;
    const shape: Shape = {};
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      const path = relative(root, join(entry.parentPath, entry.name)).split('\\').join('/');
      if (path === '.mch-sync' || path.startsWith('.mch-sync/')) continue;
      shape[path] = entry.isDirectory() ? 'folder' : `file ${lstatSync(join(root, path)).size}`;
    }
    return sortedShape(shape);
  }

  async remoteShape(): Promise<Shape> {
    const walk = await walkRemote(this.#reader.other, await this.#reader.remoteRootId());
    const shape: Shape = {};
    for (const entry of walk.entries.values()) {
      shape[entry.path] = entry.kind === 'folder' ? 'folder' : `file ${entry.size}`;
    }
    return sortedShape(shape);
  }

  async #waitUntilResting<T>(
    what: string,
    timeoutMs: number | undefined,
    compare: () => Promise<T | undefined>,
  ): Promise<T> {
    return waitFor(
      what,
      async () => {
        await this.live.whenIdle();
        const passes = this.passes.length;
        if (this.live.status().state !== 'idle') return undefined;
        const same = await compare();
        if (same === undefined) return undefined;
        // A poll may have run while the trees were read: fine, unless it changed something.
        await this.live.whenIdle();
        const meanwhile = this.passes.slice(passes);
        return meanwhile.every(isQuietPass) && this.live.status().state === 'idle' ? same : undefined;
      },
      timeoutMs,
    );
  }
}

/** A pass that found both sides in sync and changed nothing. */
export function isQuietPass(pass: PassOutcome): boolean {
  return (
    'report' in pass &&
    pass.report.status === 'synced' &&
    Object.values(pass.report.operations).every((count) => count === 0)
  );
}

/** path → `folder` or `file <size>`. */
export type Shape = Record<string, string>;

function sortedShape(shape: Shape): Shape {
  return Object.fromEntries(Object.entries(shape).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The engine, recording each pass's report (or failure) for the tests. */
class RecordingEngine extends SyncEngine {
  readonly #passes: PassOutcome[];

  constructor(passes: PassOutcome[], options: ConstructorParameters<typeof SyncEngine>[0]) {
    super(options);
    this.#passes = passes;
  }

  override async syncOnce(options?: SyncOptions): Promise<PassReport> {
    try {
      const report = await super.syncOnce(options);
      this.#passes.push({ report });
      return report;
    } catch (error) {
      this.#passes.push({ error });
      throw error;
    }
  }
}
