// What a LiveSync is given: its options, and the observer that hears what it sees item by item (app/file-state/pair-states.ts listens).
import type { DeviceConnection, MountStatus, SyncProgress } from '../../common/sync-status.ts';
import type { Clock } from '../system/clock.ts';
import type { LocalWatcher, LocalWatcherOptions } from '../watcher/local-watcher.ts';
import type { EngineLogLine, SyncEngine } from '../sync/engine.ts';
import type { EngineEvents } from '../sync/engine-events.ts';
import type { PassReport } from '../sync/pass-report.ts';

export interface LiveSyncOptions {
  /** Builds the folder pair's engine with the service's event handlers. */
  engine: (events: EngineEvents) => SyncEngine;
  /** The folder watched and synced (an on-demand pair's cache folder). */
  localRoot: string;
  /** The pair's folder as the user knows it, in the status and the words of a hold; default `localRoot`. */
  pairFolder?: string;
  /** An on-demand pair's mount, for the status. */
  mountStatus?: () => MountStatus;
  /** How the device is reached now (device-route.ts), for the status. */
  connection?: () => DeviceConnection;
  /** What the pair does on a metered network, for the status (pause-state.ts's meteredPause). */
  onMetered?: () => 'pause' | 'sync' | undefined;
  remoteFolder: string;
  /** How often the device is asked for changes when nothing happens here (default 30 s). */
  pollMs?: number;
  /** The poll comes this soon after a pass that carried local changes (default 5 s). */
  activePollMs?: number;
  /** Quiet time after the last local event before a pass (default 300 ms). */
  debounceMs?: number;
  /** Longest wait between retries while offline or failing (default 5 min). */
  maxBackoffMs?: number;
  clock?: Clock;
  log?: (line: EngineLogLine) => void;
  /** Called whenever the status changes (state, progress, activity); read it with `status()`. */
  onChange?: () => void;
  /** The watcher (a seam for tests that cannot watch); default `startLocalWatcher`. */
  watch?: (options: LocalWatcherOptions) => LocalWatcher;
  /**
   * What the index says was at a path (`knownItemsFromIndex`), for the watcher to pair moves of items
   * it saw no event for; without it the watcher scans the folder at start and keeps the result.
   */
  knownItem?: LocalWatcherOptions['knownItem'];
  /** Told what the service sees and does, item by item (the state service's tracker of the pair). */
  observer?: LiveSyncObserver;
}

/** What a pair's state tracker hears from its live service, item by item. */
export interface LiveSyncObserver {
  /** Paths changed here (created, edited, moved to), not synced yet. */
  localChanges(paths: readonly string[]): void;
  passStarted(): void;
  progress(progress: SyncProgress): void;
  /** The pass's report, or null when it failed as a whole. */
  passEnded(report: PassReport | null): void;
}
