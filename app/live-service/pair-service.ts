// One folder pair's live sync with its log file and control socket: what `mch-sync run` and the desktop core both run per pair.
import { join } from 'node:path';
import { AbortedError } from '../../common/errors.ts';
import type { DeviceConnection } from '../../common/sync-status.ts';
import type { DeviceClient } from '../api/device-client.ts';
import type { IndexStore } from '../index/index-store.ts';
import { knownItemsFromIndex } from '../watcher/index-known-items.ts';
import { openRotatingLog } from '../log/rotating-log.ts';
import type { DeviceName } from '../sync/guards/device-check.ts';
import type { FolderLockRenewal } from '../sync/guards/folder-check.ts';
import { SyncEngine, type EngineLogLine } from '../sync/engine.ts';
import { pairSelectionStore } from '../profile/pair-selection.ts';
import { readPairVersions } from '../profile/pair-versions.ts';
import { readPairMetered, type MeteredChoice } from '../profile/pair-metered.ts';
import type { NetworkMonitor } from '../network/network-monitor.ts';
import { meteredPause } from './pause-state.ts';
import { startControlServer } from './control-server.ts';
import { controlSocketPath, folderKey } from './control-socket-path.ts';
import { LiveSync } from './live-sync.ts';
import type { LiveSyncObserver } from './live-sync-options.ts';
import { pinnedPolicy } from '../on-demand/pinned-policy.ts';
import { pinnedIdsReader, readPairOnDemand } from '../profile/pair-on-demand.ts';
import { startOnDemandService, type OnDemandService } from '../on-demand/on-demand-service.ts';
import { MountStatusTracker } from '../on-demand/mount-status.ts';
import { OnDemandUpkeep } from '../on-demand/on-demand-upkeep.ts';
import { inPlaceFreeOne } from '../on-demand/free-files.ts';
import type { PassReport } from '../sync/pass-report.ts';
import { META_REMOTE_ROOT } from '../index/meta-keys.ts';
import type { SyncOptions } from '../sync/engine-options.ts';
import {
  carryOutVersions,
  changesFolder,
  versionsLogLine,
  type VersionsAction,
  type VersionsOutcome,
} from '../versions/versions-actions.ts';

export interface PairServiceOptions {
  profileDir: string;
  client: DeviceClient;
  index: IndexStore;
  /** The pair's folder: what the user chose, and what names its log and control socket. */
  localRoot: string;
  /**
   * An on-demand pair: its cache folder is synced, and shown at `localRoot` by a mount. Default: what
   * the pair's record says (app/profile/pair-on-demand.ts).
   */
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
  /** The client's state service: told what the service sees, item by item (file-manager emblems). */
  states?: PairStateSink;
  /** The process's network monitor: a metered network pauses the pair, unless its record says `sync`. */
  network?: NetworkMonitor;
  /** How the device is reached now (the run's DeviceRoute), for the status. */
  connection?: () => DeviceConnection;
}

/** Where a pair's states go (app/file-state/state-service.ts), given what the pair is. */
export interface PairStateSink {
  track(pair: {
    folder: string;
    syncRoot: string;
    index: IndexStore;
    onDemand: boolean;
    pinnedIds?: () => ReadonlySet<string>;
    excluded: () => readonly string[];
  }): LiveSyncObserver;
  untrack(observer: LiveSyncObserver): void;
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
  /**
   * A change to the pair's versions (restore, settle, clear) between two passes, then a pass to carry
   * it to the device: what the control socket's `versions` request does, for a host in this process.
   */
  versions(action: VersionsAction, signal?: AbortSignal): Promise<VersionsOutcome>;
  /** The pair's record now says it syncs on metered networks (true) or waits (false); absent without a network monitor. */
  syncOnMetered?(sync: boolean): void;
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
  const onDemand = options.onDemand ?? recordedOnDemand(options.profileDir, options.localRoot);
  // What the engine and the watcher read: an on-demand pair's cache folder, never the mount over it.
  const syncRoot = onDemand?.cache ?? options.localRoot;
  let mounted: OnDemandService | undefined;
  // A pass and a change to the versions (restore, settle, clear) never run at once: both move files in
  // the folder and rows of the index.
  const turns = new Turns();
  // Bound late as well: LiveSync's own onChange tells the front ends.
  const mountStatus =
    onDemand === undefined ? undefined : new MountStatusTracker({ onChange: () => options.onChange?.() });
  // Bound late: the engine is made before the mount starts, and a mount may be gone (then in place).
  const upkeep =
    onDemand === undefined
      ? undefined
      : upkeepOf(
          options,
          onDemand,
          () => mounted,
          () => live.syncNow(),
          logLine,
        );
  const selection = pairSelectionStore(options.profileDir, options.localRoot);
  const observer = options.states?.track({
    folder: options.localRoot,
    syncRoot,
    index: options.index,
    onDemand: onDemand !== undefined,
    ...(onDemand === undefined ? {} : { pinnedIds: onDemand.pinned }),
    excluded: () => {
      const { excluded, waiting } = selection.read();
      return [...excluded, ...waiting].map((folder) => folder.path);
    },
  });
  const live = new LiveSync({
    localRoot: syncRoot,
    ...(observer === undefined ? {} : { observer }),
    pairFolder: options.localRoot,
    ...(mountStatus === undefined ? {} : { mountStatus: () => mountStatus.status() }),
    ...(options.connection === undefined ? {} : { connection: options.connection }),
    // The watcher looks up what it saw no event for in the index, instead of holding a scan of every
    // file for as long as the service runs (200 MB and 2× find to ready at 1,000,000 files).
    knownItem: knownItemsFromIndex(options.index),
    remoteFolder: options.remoteFolder,
    log: logLine,
    // Bound late: the metered gate is made once the service exists.
    onMetered: (): MeteredChoice | undefined => metered?.choice(),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    ...(options.onChange === undefined ? {} : { onChange: options.onChange }),
    engine: (events) =>
      new AfterPassEngine(upkeep, turns, {
        client: options.client,
        index: options.index,
        localRoot: syncRoot,
        ...(onDemand === undefined
          ? {}
          : {
              pairFolder: options.localRoot,
              onDemand: pinnedPolicy(onDemand.pinned, () => options.index.getMeta(META_REMOTE_ROOT)),
            }),
        remoteFolder: options.remoteFolder,
        ...(options.device === undefined ? {} : { device: options.device }),
        ...(options.folderLock === undefined ? {} : { folderLock: options.folderLock }),
        env: options.env,
        ...(options.ignoreRules === undefined ? {} : { ignoreRules: options.ignoreRules }),
        selection,
        versions: () => readPairVersions(options.profileDir, options.localRoot),
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
  const metered =
    options.network &&
    meteredPause(options.network, readPairMetered(options.profileDir, options.localRoot), live, logLine);
  const versions = async (action: VersionsAction, signal?: AbortSignal): Promise<VersionsOutcome> => {
    const outcome = await turns.run(() => {
      // Its command stopped waiting (a long pass, Ctrl+C): nothing is changed behind its back.
      if (signal?.aborted === true) throw new AbortedError();
      return carryOutVersions({ index: options.index, root: syncRoot }, action);
    });
    logLine({ level: 'info', message: versionsLogLine(outcome) });
    // What was put back or settled goes to the device now, not at the next poll.
    if (changesFolder(outcome)) live.syncNow();
    return outcome;
  };
  const server = await startControlServer({
    socketPath: controlSocketPath(options.profileDir, options.localRoot),
    handler: {
      status: () => live.status(),
      pause: (untilMs) => live.pause(untilMs ?? null),
      ...(metered && { metered: (sync: boolean) => metered.choose(sync) }),
      resume: () => live.resume(),
      syncNow: () => live.syncNow(),
      confirmDeletes: () => live.confirmDeletes(),
      restore: () => live.restore(),
      ...(upkeep === undefined ? {} : { free: (paths) => upkeep.free(paths) }),
      versions: (action, signal) => versions(action, signal),
    },
    log: (line) => log.write(line),
  });
  log.write({
    level: 'info',
    message: `live sync of ${options.localRoot} with ${options.remoteFolder} started`,
  });
  try {
    // The mount first: the folder shows what the index knows while the first pass runs.
    if (onDemand !== undefined && mountStatus !== undefined) {
      mounted = await startMounted(options, onDemand, live, logLine, { upkeep, status: mountStatus });
    }
    await live.start();
  } catch (error) {
    metered?.stop();
    await live.stop();
    if (observer !== undefined) options.states?.untrack(observer);
    await mounted?.stop();
    await server.close();
    await log.close();
    throw error;
  }
  return {
    live,
    versions,
    ...(metered && { syncOnMetered: (sync: boolean) => metered.choose(sync) }),
    stop: async () => {
      metered?.stop();
      await live.stop();
      if (observer !== undefined) options.states?.untrack(observer);
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
  watchers: { upkeep: OnDemandUpkeep | undefined; status: MountStatusTracker },
): Promise<OnDemandService> {
  const control = controlSocketPath(options.profileDir, options.localRoot);
  const { upkeep, status } = watchers;
  const service = await startOnDemandService({
    client: options.client,
    index: options.index,
    cache: onDemand.cache,
    mountPoint: options.localRoot,
    socketPath: control.replace(/\.sock$/, '.mount.sock'),
    ...(onDemand.noDownload === undefined ? {} : { noDownload: onDemand.noDownload }),
    offline: () => live.status().state === 'offline',
    onHydration: (request, event) => {
      upkeep?.noteHydration(event);
      status.note(request, event);
      if (event.type === 'done') {
        live.noteActivity({ atMs: Date.now(), action: 'downloaded', path: request.path });
      }
    },
    onMountChange: (mounted) => {
      status.mounted = mounted;
    },
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
  status.mounted = service.mounted;
  return service;
}

/** The pair's on-demand setting from its record, as the service runs it; undefined for a pair of whole files. */
function recordedOnDemand(profileDir: string, localRoot: string): PairServiceOnDemand | undefined {
  const recorded = readPairOnDemand(profileDir, localRoot);
  if (recorded === undefined) return undefined;
  return {
    cache: recorded.cache,
    pinned: pinnedIdsReader(profileDir, localRoot),
    ...(recorded.noDownload === undefined ? {} : { noDownload: recorded.noDownload }),
  };
}

/** Work done one piece at a time, in the order asked: the pair's passes, and changes to its versions between them. */
class Turns {
  #last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const done = this.#last.then(work, work);
    this.#last = done.catch(() => undefined);
    return done;
  }
}

/**
 * The engine of a pair, with the on-demand upkeep (cache limit, a count redone) after each pass; each
 * pass takes its turn, so a restore asked meanwhile waits for it to end.
 */
class AfterPassEngine extends SyncEngine {
  readonly #upkeep: OnDemandUpkeep | undefined;
  readonly #turns: Turns;

  constructor(
    upkeep: OnDemandUpkeep | undefined,
    turns: Turns,
    options: ConstructorParameters<typeof SyncEngine>[0],
  ) {
    super(options);
    this.#upkeep = upkeep;
    this.#turns = turns;
  }

  override syncOnce(options?: SyncOptions): Promise<PassReport> {
    return this.#turns.run(async () => {
      const report = await super.syncOnce(options);
      // Inside the pass's time: no other pass runs while files are freed.
      await this.#upkeep?.afterPass(report);
      return report;
    });
  }
}

function upkeepOf(
  options: PairServiceOptions,
  onDemand: PairServiceOnDemand,
  mounted: () => OnDemandService | undefined,
  syncNow: () => void,
  log: (line: EngineLogLine) => void,
): OnDemandUpkeep {
  const inPlace = inPlaceFreeOne(onDemand.cache);
  return new OnDemandUpkeep({
    profileDir: options.profileDir,
    localRoot: options.localRoot,
    index: options.index,
    cache: onDemand.cache,
    pinned: onDemand.pinned,
    free: (path, expected) => (mounted()?.free ?? inPlace)(path, expected),
    syncNow,
    log: (level, message) => log({ level, message }),
  });
}
