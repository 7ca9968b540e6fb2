// Runs LiveSync in the bench process and timestamps what it does: the watcher's batches, its passes and every device answer.
//
// Nothing here sends a request or touches the tree: the times come from seams the service already has
// (the `watch` option, the engine factory, the transport's log), so the measured client does the same
// work as `mch-sync run`.
import { DeviceClient } from '../../app/api/device-client.ts';
import { Transport } from '../../app/api/http/transport.ts';
import { openIndexDb } from '../../app/index/index-db.ts';
import { IndexStore } from '../../app/index/index-store.ts';
import { knownItemsFromIndex } from '../../app/watcher/index-known-items.ts';
import { startLocalWatcher } from '../../app/watcher/local-watcher.ts';
import { LiveSync } from '../../app/live-service/live-sync.ts';
import { SyncEngine } from '../../app/sync/engine.ts';
import type { RemoteEntry } from '../../app/model/items.ts';
import type { PassReport } from '../../app/sync/pass-report.ts';
import { ensureRemoteFolder } from '../../app/sync/remote/remote-folder.ts';
import { walkRemote } from '../../app/sync/remote/remote-walk.ts';

export interface DeviceAnswer {
  /** `PATCH 204`, `GET 304`, `POST failed`: the keys of `tally`. */
  key: string;
  /** `process.hrtime.bigint()` when the client had the answer. */
  atNs: bigint;
  /** The request's own time as the transport measured it (whole ms). */
  durationMs: number;
}

export interface PassRecord {
  /** As LiveSync asked: a poll walks the device and reads the disk only around remote changes. */
  mode: 'revalidate' | 'poll' | 'trust-cache';
  startNs: bigint;
  endNs: bigint;
  /** CPU time of this process (all threads) during the pass, ms: the rest of the pass was waiting. */
  cpuMs: number;
  report: PassReport;
}

export interface LiveHarnessOptions {
  base: string;
  token: string;
  localRoot: string;
  remoteFolder: string;
  indexPath: string;
  pollMs?: number;
}

export interface LiveHarness {
  live: LiveSync;
  /** Since the last `mark()`. */
  answers: DeviceAnswer[];
  batches: bigint[];
  passes: PassRecord[];
  tally: Map<string, number>;
  /** Forgets the answers, batches, passes and tally recorded so far. */
  mark(): void;
  /** Resolves with the first answer from now on that `matches` (rejects after `timeoutMs`). */
  nextAnswer(matches: (answer: DeviceAnswer) => boolean, timeoutMs?: number): Promise<DeviceAnswer>;
  /**
   * After a change on disk: waits for its batch, then for the service to be idle, then `quietMs` more in
   * case a held deletion or a late event makes another batch (then waits for that one too). Returns the
   * time the service was last idle.
   */
  settle(quietMs?: number, timeoutMs?: number): Promise<bigint>;
  stop(): Promise<void>;
}

/** The move window of the watcher (1 s) and a margin: a held deletion has gone out by then. */
const DEFAULT_QUIET_MS = 1_500;

export function startLiveHarness(options: LiveHarnessOptions): LiveHarness {
  const answers: DeviceAnswer[] = [];
  const batches: bigint[] = [];
  const passes: PassRecord[] = [];
  const tally = new Map<string, number>();
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of [...listeners]) listener();
  };

  /** Resolves true once `check()` holds, false after `timeoutMs`. */
  const waitFor = (check: () => boolean, timeoutMs: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (check()) return resolve(true);
      const listener = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        listeners.delete(listener);
        resolve(true);
      };
      const timer = setTimeout(() => {
        listeners.delete(listener);
        resolve(false);
      }, timeoutMs);
      listeners.add(listener);
    });

  const transport = new Transport({
    tokens: { accessToken: async () => options.token, refreshAfterUnauthorized: async () => options.token },
    log: (entry) => {
      const atNs = process.hrtime.bigint();
      const method = entry.request.split(' ')[0] ?? '?';
      const key = `${method} ${entry.message === 'answer' ? String(entry.status) : entry.message}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
      answers.push({ key, atNs, durationMs: entry.durationMs ?? 0 });
      notify();
    },
  });
  const client = new DeviceClient({ deviceUrl: options.base, transport });

  const db = openIndexDb(options.indexPath);
  const live = new LiveSync({
    knownItem: knownItemsFromIndex(new IndexStore(db)),
    localRoot: options.localRoot,
    remoteFolder: options.remoteFolder,
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    engine: (events) => {
      const engine = new SyncEngine({
        client,
        index: new IndexStore(db),
        localRoot: options.localRoot,
        remoteFolder: options.remoteFolder,
        events,
      });
      const syncOnce = engine.syncOnce.bind(engine);
      engine.syncOnce = async (syncOptions = {}) => {
        const startNs = process.hrtime.bigint();
        const cpuBefore = process.cpuUsage();
        const report = await syncOnce(syncOptions);
        const cpu = process.cpuUsage(cpuBefore);
        passes.push({
          mode:
            syncOptions.remote === 'trust-cache'
              ? 'trust-cache'
              : syncOptions.scopeRemoteChanges === true
                ? 'poll'
                : 'revalidate',
          startNs,
          endNs: process.hrtime.bigint(),
          cpuMs: (cpu.user + cpu.system) / 1000,
          report,
        });
        notify();
        return report;
      };
      return engine;
    },
    watch: (watchOptions) =>
      startLocalWatcher({
        ...watchOptions,
        onBatch: (batch) => {
          batches.push(process.hrtime.bigint());
          // The service queues its pass synchronously, so a `whenIdle()` after this waits for it.
          watchOptions.onBatch(batch);
          notify();
        },
      }),
  });

  return {
    live,
    answers,
    batches,
    passes,
    tally,
    mark: () => {
      answers.length = 0;
      batches.length = 0;
      passes.length = 0;
      tally.clear();
    },
    nextAnswer: async (matches, timeoutMs = 60_000) => {
      const from = answers.length;
      const found = (): DeviceAnswer | undefined => answers.slice(from).find(matches);
      if (!(await waitFor(() => found() !== undefined, timeoutMs))) {
        throw new Error(`no matching answer from the device within ${timeoutMs} ms`);
      }
      return found() as DeviceAnswer;
    },
    settle: async (quietMs = DEFAULT_QUIET_MS, timeoutMs = 600_000) => {
      let handled = 0;
      let idleAt = process.hrtime.bigint();
      for (;;) {
        const seen = handled;
        if (!(await waitFor(() => batches.length > seen, handled === 0 ? timeoutMs : quietMs))) {
          if (handled === 0) throw new Error(`no batch from the watcher within ${timeoutMs} ms`);
          return idleAt;
        }
        handled = batches.length;
        await live.whenIdle();
        idleAt = process.hrtime.bigint();
      }
    },
    stop: async () => {
      await live.stop();
      db.close();
    },
  };
}

/** The value below which `fraction` of the values lie (nearest rank). */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] as number;
}

/** Milliseconds between two `process.hrtime.bigint()` readings. */
export function msBetween(fromNs: bigint, toNs: bigint): number {
  return Number(toNs - fromNs) / 1e6;
}

/** Every item below a remote folder, by path (for checks after the timings, never during them). */
export async function listRemote(
  base: string,
  token: string,
  remoteFolder: string,
): Promise<Map<string, RemoteEntry>> {
  const transport = new Transport({
    tokens: { accessToken: async () => token, refreshAfterUnauthorized: async () => token },
  });
  const client = new DeviceClient({ deviceUrl: base, transport });
  const { id } = await ensureRemoteFolder(client, remoteFolder);
  const { entries } = await walkRemote(client, id);
  return new Map([...entries.values()].map((entry) => [entry.path, entry]));
}
