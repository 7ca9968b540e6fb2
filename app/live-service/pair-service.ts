// One folder pair's live sync with its log file and control socket: what `mch-sync run` and the desktop core both run per pair.
import { join } from 'node:path';
import type { DeviceClient } from '../api/device-client.ts';
import type { IndexStore } from '../index/index-store.ts';
import { knownItemsFromIndex } from '../watcher/index-known-items.ts';
import { openRotatingLog } from '../log/rotating-log.ts';
import type { DeviceName } from '../sync/guards/device-check.ts';
import type { FolderLockRenewal } from '../sync/guards/folder-check.ts';
import { SyncEngine, type EngineLogLine } from '../sync/engine.ts';
import { pairSelectionStore } from '../profile/pair-selection.ts';
import { startControlServer } from './control-server.ts';
import { controlSocketPath, folderKey } from './control-socket-path.ts';
import { LiveSync } from './live-sync.ts';
import { pinnedPolicy } from '../on-demand/pinned-policy.ts';
import { startOnDemandService, type OnDemandService } from '../on-demand/on-demand-service.ts';

export interface PairServiceOptions {
  profileDir: string;
  client: DeviceClient;
  index: IndexStore;
  /** The pair's folder: what the user chose, and what names its log and control socket. */
  localRoot: string;
  /** An on-demand pair: its cache folder is synced, and shown at `localRoot` by a mount. */
  onDemand?: PairServiceOnDemand;
  remoteFolder: string;
  /** The device the profile chose: a pair synced with another one is held. */
  device?: DeviceName;
  /** The lock the caller holds: it follows a replaced folder the user answered for. */
  folderLock?: FolderLockRenewal;
  env: NodeJS.ProcessEnv;
  /** How often the device is asked for changes (LiveSync's default when absent). */
  pollMs?: number;
  /** The user's ignore rules for the whole folder (the window's settings). */
  ignoreRules?: string;
  /** Every log line also goes here (the terminal display, the window's log). */
  onLog?: (line: EngineLogLine) => void;
  /** The log file cannot be written (said once per run of failures). */
  onLogError?: (error: Error) => void;
  /** The status changed. */
  onChange?: () => void;
}

export interface PairServiceOnDemand {
  /** The cache folder (app/profile/pair-on-demand.ts). */
  cache: string;
  /** The ids of the items kept on this computer, read at each question. */
  pinned: () => ReadonlySet<string>;
  /** Processes that never download (the settings'); default the mount's own list. */
  noDownload?: readonly string[];
}

export interface PairService {
  live: LiveSync;
  /** Stops passes cleanly, closes the control socket and the log. */
  stop(): Promise<void>;
}

/** Where live sync writes its logs: `<profile>/logs/live-<folder key>.log`. */
export function liveLogDir(profileDir: string): string {
  return join(profileDir, 'logs');
}

/** Starts live sync of one pair; the caller holds the folder lock and owns the index. */
export async function startPairService(options: PairServiceOptions): Promise<PairService> {
  const log = openRotatingLog({
    dir: liveLogDir(options.profileDir),
    name: `live-${folderKey(options.localRoot)}`,
    ...(options.onLogError === undefined ? {} : { onError: options.onLogError }),
  });
  const logLine = (line: EngineLogLine): void => {
    log.write(line);
    options.onLog?.(line);
  };
  const onDemand = options.onDemand;
  // What the engine and the watcher read: an on-demand pair's cache folder, never the mount over it.
  const syncRoot = onDemand?.cache ?? options.localRoot;
  const live = new LiveSync({
    localRoot: syncRoot,
    pairFolder: options.localRoot,
    // The watcher looks up what it saw no event for in the index, instead of holding a scan of every
    // file for as long as the service runs (200 MB and 2× find to ready at 1,000,000 files).
    knownItem: knownItemsFromIndex(options.index),
    remoteFolder: options.remoteFolder,
    log: logLine,
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    ...(options.onChange === undefined ? {} : { onChange: options.onChange }),
    engine: (events) =>
      new SyncEngine({
        client: options.client,
        index: options.index,
        localRoot: syncRoot,
        ...(onDemand === undefined
          ? {}
          : { pairFolder: options.localRoot, onDemand: pinnedPolicy(onDemand.pinned) }),
        remoteFolder: options.remoteFolder,
        ...(options.device === undefined ? {} : { device: options.device }),
        ...(options.folderLock === undefined ? {} : { folderLock: options.folderLock }),
        env: options.env,
        ...(options.ignoreRules === undefined ? {} : { ignoreRules: options.ignoreRules }),
        selection: pairSelectionStore(options.profileDir, options.localRoot),
        log: logLine,
        events: {
          ...events,
          onActivity: (entry) => {
            events.onActivity?.(entry);
            log.write({ level: 'info', message: entry.action, path: entry.path, atMs: entry.atMs });
          },
        },
      }),
  });
  const server = await startControlServer({
    socketPath: controlSocketPath(options.profileDir, options.localRoot),
    handler: {
      status: () => live.status(),
      pause: () => live.pause(),
      resume: () => live.resume(),
      syncNow: () => live.syncNow(),
      confirmDeletes: () => live.confirmDeletes(),
      restore: () => live.restore(),
    },
    log: (line) => log.write(line),
  });
  log.write({
    level: 'info',
    message: `live sync of ${options.localRoot} with ${options.remoteFolder} started`,
  });
  let mounted: OnDemandService | undefined;
  try {
    // The mount first: the folder shows what the index knows while the first pass runs.
    if (onDemand !== undefined) mounted = await startMounted(options, onDemand, live, logLine);
    await live.start();
  } catch (error) {
    await live.stop();
    await mounted?.stop();
    await server.close();
    await log.close();
    throw error;
  }
  return {
    live,
    stop: async () => {
      await live.stop();
      await mounted?.stop();
      await server.close();
      log.write({ level: 'info', message: 'live sync stopped' });
      await log.close();
    },
  };
}

/** How long a download waits for the pass that brings a newer placeholder. */
const REFRESH_TIMEOUT_MS = 60_000;

/** The hydration socket beside the control socket, and the mount of the cache folder at the pair's folder. */
async function startMounted(
  options: PairServiceOptions,
  onDemand: PairServiceOnDemand,
  live: LiveSync,
  log: (line: EngineLogLine) => void,
): Promise<OnDemandService> {
  const control = controlSocketPath(options.profileDir, options.localRoot);
  return startOnDemandService({
    client: options.client,
    index: options.index,
    cache: onDemand.cache,
    mountPoint: options.localRoot,
    socketPath: control.replace(/\.sock$/, '.mount.sock'),
    ...(onDemand.noDownload === undefined ? {} : { noDownload: onDemand.noDownload }),
    offline: () => live.status().state === 'offline',
    refresh: async () => {
      if (live.status().state === 'paused') return;
      live.syncNow();
      await Promise.race([
        live.whenIdle(),
        new Promise((resolve) => setTimeout(resolve, REFRESH_TIMEOUT_MS).unref()),
      ]);
    },
    log: (level, message, path) => log({ level, message, ...(path === undefined ? {} : { path }) }),
  });
}
