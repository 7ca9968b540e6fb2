// What a pair's state tracker hears from its live service, item by item (app/file-state/pair-states.ts is the one that listens).
import type { SyncProgress } from '../../common/sync-status.ts';
import type { PassReport } from '../sync/pass-report.ts';

export interface LiveSyncObserver {
  /** Paths changed here (created, edited, moved to), not synced yet. */
  localChanges(paths: readonly string[]): void;
  passStarted(): void;
  progress(progress: SyncProgress): void;
  /** The pass's report, or null when it failed as a whole. */
  passEnded(report: PassReport | null): void;
}
