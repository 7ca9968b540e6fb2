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

export interface PairServiceOptions {
  profileDir: string;
  client: DeviceClient;
  index: IndexStore;
  localRoot: string;
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
  const live = new LiveSync({
    localRoot: options.localRoot,
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
        localRoot: options.localRoot,
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
  try {
    await live.start();
  } catch (error) {
    await live.stop();
    await server.close();
    await log.close();
    throw error;
  }
  return {
    live,
    stop: async () => {
      await live.stop();
      await server.close();
      log.write({ level: 'info', message: 'live sync stopped' });
      await log.close();
    },
  };
}
