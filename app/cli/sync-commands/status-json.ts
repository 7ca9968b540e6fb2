// What `mch-sync status --json` prints, shared by the command that builds it and the output that words it.
import type { SyncStatus } from '../../../common/sync-status.ts';
import type { StoredPassSummary } from '../../sync/pass/pass-record.ts';
import type { WaitingFolder } from '../../model/selection.ts';
import type { OnDemandUse } from '../../sync/pass-report.ts';

/**
 * An on-demand pair's files by where their content is (`whole`: on this computer; `placeholders`: on
 * the device only), as the last pass that read the whole folder counted them (`countedAtMs`; null
 * before one), the pinned items and the cache limit (null: off) with its use: the bytes of content on
 * this computer (`cacheUsedBytes`, pinned files included, null before a count; the limit frees only
 * files that are not pinned).
 */
export interface OnDemandStatus {
  use: OnDemandUse | null;
  pinned: Array<{ path: string }>;
  cacheLimitBytes: number | null;
  cacheUsedBytes: number | null;
}

/** The last pass as `status --json` shows it: its issues are in `issues`. */
export type LastPassJson = Omit<StoredPassSummary, 'issues'>;

/**
 * `status --json`: the `SyncStatus` of the running service, or one built from the index (`pid: null`,
 * no progress or activity, and the state the last pass left: `held` → `held`, `errors` → `error`,
 * `synced` → `idle`), plus what only the index knows. The device's free space (`device`) comes from
 * the running service's last pass only: read from the index, the status has none.
 */
export interface StatusJson extends SyncStatus {
  /** Whether a live service answered. */
  running: boolean;
  /** Items in the index, null when it could not be read. */
  itemsSynced: number | null;
  /** Remote changes whose outcome is unknown, checked at the next pass; null when the index could not be read. */
  pendingChanges: number | null;
  lastPass: LastPassJson | null;
  /** Selective sync: how many device folders are excluded, the new ones waiting for an answer, the threshold. */
  selection: { excluded: number; waiting: WaitingFolder[]; askOverBytes: number | null } | null;
  /** Files on demand; null for a pair that holds every file. */
  onDemand?: OnDemandStatus | null;
}
