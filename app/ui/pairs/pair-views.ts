// A pair's live status as the window shows it: PairView, its activity and its issues, with speed and time left from the progress it saw.
import { join } from 'node:path';
import type {
  ActivityKind,
  ActivityView,
  DeviceSpaceView,
  HoldAnswerView,
  HoldView,
  PairOnDemandView,
  PairSelectionView,
  PairView,
} from '../../../common/contract.ts';
import type { ActivityEntry, SyncStatus } from '../../../common/sync-status.ts';
import { formatBytes } from '../../../common/units.ts';
import type { PairSelection } from '../../model/selection.ts';
import { readPairSelection } from '../../profile/pair-selection.ts';
import { holdAdvice, holdAnswerLabels } from '../../sync/hold-words.ts';
import type { HoldReason, PassHold } from '../../sync/pass-report.ts';
import { pairIssues } from './pair-issues.ts';
import { pairWords } from './pair-words.ts';
import { pauseWords } from '../../live-service/pause-state.ts';

/** Bytes per second over the last few seconds of progress; null until there is enough to say. */
export class TransferRate {
  readonly #windowMs: number;
  #samples: Array<{ atMs: number; bytes: number }> = [];

  constructor(windowMs = 5_000) {
    this.#windowMs = windowMs;
  }

  /** Records the bytes done at `atMs` (monotonic); a pass that starts over resets the samples. */
  sample(atMs: number, bytesDone: number): void {
    const last = this.#samples.at(-1);
    if (last !== undefined && bytesDone < last.bytes) this.#samples = [];
    this.#samples.push({ atMs, bytes: bytesDone });
    while (this.#samples.length > 2 && (this.#samples[0]?.atMs ?? atMs) < atMs - this.#windowMs)
      this.#samples.shift();
  }

  reset(): void {
    this.#samples = [];
  }

  bytesPerSecond(): number | null {
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (first === undefined || last === undefined || last.atMs - first.atMs < 500) return null;
    return ((last.bytes - first.bytes) * 1000) / (last.atMs - first.atMs);
  }
}

export interface PairFacts {
  id: string;
  status: SyncStatus;
  hold: PassHold | null;
  itemsSynced: number;
  rate: TransferRate;
  /** The conflicted copies told so far (pair-history.ts); default: those of the status's activity. */
  conflicts?: readonly Pick<ActivityView, 'path'>[];
  /** A hold's answer under way (pair-answers.ts). */
  answering?: HoldAnswerView | null;
  /** Selective sync as the pair's record has it (pairSelectionView). */
  selection?: PairSelectionView | null;
  /** Files on demand as the pair's record and its mount have them (on-demand-views.ts). */
  onDemand?: PairOnDemandView | null;
}

export function pairView(facts: PairFacts): PairView {
  const { status, rate } = facts;
  const progress = status.progress;
  let progressView: PairView['progress'] = null;
  if (progress !== null) {
    const bytesPerSecond = rate.bytesPerSecond();
    const left = progress.bytesTotal - progress.bytesDone;
    progressView = {
      ...progress,
      transfers: [...progress.transfers],
      bytesPerSecond,
      secondsLeft: bytesPerSecond !== null && bytesPerSecond > 0 ? Math.ceil(left / bytesPerSecond) : null,
    };
  }
  const { unsyncedCount, conflictCount, leftOut } = issueViews(facts.id, status, facts.conflicts);
  return {
    id: facts.id,
    localRoot: status.localRoot,
    remoteFolder: status.remoteFolder,
    state: status.state,
    words: pairWords(status.state, {
      conflicts: conflictCount,
      unsynced: unsyncedCount,
      waitingFolders: facts.selection?.waiting.length ?? 0,
      ...(status.pause && { pause: pauseWords(status.pause, Date.now()) }),
    }),
    // A hold says it all on its own card (the service's detail names commands the window has buttons for).
    detail: facts.hold === null ? status.detail : null,
    paused: status.state === 'paused',
    ...(status.pause && { pause: status.pause }),
    ...(status.onMetered && { onMetered: status.onMetered }),
    progress: progressView,
    lastSyncAtMs: status.lastSyncAtMs,
    itemsSynced: facts.itemsSynced,
    // What needs the user: a symbolic link left out or a name only Windows refuses is listed, not counted,
    // or the card, the badge and the tray would ask for attention for good.
    issueCount: unsyncedCount + conflictCount,
    conflictCount,
    leftOut,
    hold: facts.hold === null ? null : holdView(facts.hold, status.localRoot),
    answering: facts.answering ?? null,
    selection: facts.selection ?? null,
    onDemand: facts.onDemand ?? null,
    deviceSpace: deviceSpaceView(status.device),
  };
}

/** The device's space in the window's words, as `mch-sync status` says it (issue #33). */
export function deviceSpaceView(device: SyncStatus['device']): DeviceSpaceView | null {
  if (device === undefined) return null;
  return { ...device, words: `${formatBytes(device.freeBytes)} free of ${formatBytes(device.totalBytes)}` };
}

/**
 * The pair's selective sync as its record has it now; null when the record cannot be read (its pass
 * stops and says why: an unreadable selection is never taken for "nothing excluded").
 */
export function pairSelectionView(profileDir: string, localRoot: string): PairSelectionView | null {
  let selection: PairSelection;
  try {
    selection = readPairSelection(profileDir, localRoot);
  } catch {
    return null;
  }
  return {
    excluded: selection.excluded.length,
    waiting: selection.waiting.map(({ path, bytes, files }) => ({ path, bytes, files })),
    askOverBytes: selection.askOverBytes,
  };
}

function holdView(hold: PassHold, localRoot: string): HoldView {
  const local = hold.paths?.local ?? [];
  const remote = hold.paths?.remote ?? [];
  const labels = holdAnswerLabels(hold);
  return {
    reason: hold.reason,
    title: HOLD_TITLES[hold.reason],
    advice: holdAdvice(hold, localRoot, 'window'),
    localDeletes: hold.deletes.local,
    remoteDeletes: hold.deletes.remote,
    paths: [...new Set([...remote, ...local])].sort(),
    canConfirm: labels.confirm !== null,
    canRestore: labels.restore !== null,
    confirmLabel: labels.confirm,
    restoreLabel: labels.restore,
    confirmQuestion: labels.confirm === null ? null : confirmQuestion(hold),
  };
}

/** What the confirm answer deletes, asked before it goes. */
function confirmQuestion(hold: PassHold): string {
  const { local, remote, remoteTotal } = hold.deletes;
  if (hold.reason === 'folder-changed') {
    return `Make the device like this folder? Whatever of the ${items(remoteTotal)} synced before is not in it is deleted on the device, and on every computer that syncs it.`;
  }
  // A delete on the device reaches every computer that syncs the folder: the question says so.
  const parts = [
    ...(remote > 0 ? [`${items(remote)} on the device and on every computer that syncs it`] : []),
    ...(local > 0 ? [`${items(local)} on this computer (to the trash)`] : []),
  ];
  return `Delete ${parts.length === 0 ? 'these items' : parts.join(', and ')}?`;
}

function items(count: number): string {
  return `${count} ${count === 1 ? 'item' : 'items'}`;
}

/** Each hold's heading, for its card and the tray. */
const HOLD_TITLES: Record<HoldReason, string> = {
  'mass-delete': 'Deletes waiting',
  'emptied-root': 'Folder emptied',
  'local-root-missing': 'Folder missing',
  'folder-changed': 'Not the folder that was synced',
  'device-changed': 'Another device',
};

const KINDS: ReadonlySet<string> = new Set<ActivityKind>([
  'uploaded',
  'downloaded',
  'online-only',
  'renamed',
  'moved',
  'deleted',
  'conflict',
  'created-folder',
]);

export function activityViews(pairId: string, status: SyncStatus): ActivityView[] {
  return status.activity.map((entry) => activityViewOf(pairId, status.localRoot, entry));
}

export function activityViewOf(pairId: string, localRoot: string, entry: ActivityEntry): ActivityView {
  return {
    pairId,
    atMs: entry.atMs,
    kind: KINDS.has(entry.action) ? (entry.action as ActivityKind) : 'other',
    path: entry.path,
    localPath: join(localRoot, ...entry.path.split('/')),
  };
}

/**
 * What Issues lists for a pair (pair-issues.ts): the engine's issues but those left out on purpose, and
 * the conflicts whose two copies are both there, from `conflicts` or else the status's activity.
 */
export function issueViews(
  pairId: string,
  status: SyncStatus,
  conflicts?: readonly Pick<ActivityView, 'path'>[],
): ReturnType<typeof pairIssues> {
  const told = conflicts ?? status.activity.filter((entry) => entry.action === 'conflict');
  return pairIssues(pairId, status.localRoot, status.issues, told);
}
