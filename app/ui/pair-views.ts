// A pair's live status as the window shows it: PairView, its activity and its issues, with speed and time left from the progress it saw.
import { join } from 'node:path';
import type {
  ActivityKind,
  ActivityView,
  HoldAnswerView,
  HoldView,
  PairView,
} from '../../common/contract.ts';
import type { ActivityEntry, SyncStatus } from '../../common/sync-status.ts';
import type { HoldReason, PassHold } from '../sync/pass-report.ts';
import { pairIssues } from './pair-issues.ts';
import { pairWords } from './pair-words.ts';

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
  const { issues, conflictCount, leftOut } = issueViews(facts.id, status, facts.conflicts);
  return {
    id: facts.id,
    localRoot: status.localRoot,
    remoteFolder: status.remoteFolder,
    state: status.state,
    words: pairWords(status.state, { conflicts: conflictCount, others: issues.length - conflictCount }),
    detail: status.detail,
    paused: status.state === 'paused',
    progress: progressView,
    lastSyncAtMs: status.lastSyncAtMs,
    itemsSynced: facts.itemsSynced,
    // Conflicts count too: the window lists them under Issues.
    issueCount: issues.length,
    conflictCount,
    leftOut,
    hold: facts.hold === null ? null : holdView(facts.hold),
    answering: facts.answering ?? null,
  };
}

function holdView(hold: PassHold): HoldView {
  const local = hold.paths?.local ?? [];
  const remote = hold.paths?.remote ?? [];
  const { title, confirmLabel, restoreLabel, ways } = HOLD_WORDS[hold.reason];
  return {
    reason: hold.reason,
    title,
    // The command line's advice names its flags; the window names its buttons.
    advice: hold.what === undefined || ways === undefined ? hold.advice : `${hold.what} ${ways}`,
    localDeletes: hold.deletes.local,
    remoteDeletes: hold.deletes.remote,
    paths: [...new Set([...remote, ...local])].sort(),
    canConfirm: confirmLabel !== null,
    canRestore: restoreLabel !== null,
    confirmLabel,
    restoreLabel,
    confirmQuestion: confirmLabel === null ? null : confirmQuestion(hold),
  };
}

/** What the confirm answer deletes, asked before it goes. */
function confirmQuestion(hold: PassHold): string {
  const { local, remote, remoteTotal } = hold.deletes;
  if (hold.reason === 'folder-changed') {
    return `Make the device like this folder? Whatever of the ${items(remoteTotal)} synced before is not in it is deleted on the device, and on every computer that syncs it.`;
  }
  const parts = [
    ...(remote > 0 ? [`${items(remote)} on the device`] : []),
    ...(local > 0 ? [`${items(local)} on this computer (to the trash)`] : []),
  ];
  return `Delete ${parts.length === 0 ? 'these items' : parts.join(' and ')}?`;
}

function items(count: number): string {
  return `${count} ${count === 1 ? 'item' : 'items'}`;
}

/**
 * Each hold's heading and the words of its answers. A missing folder is not a choice: mount it (or
 * create it) and sync again; a device that changed is answered by signing in to the right one, or by
 * syncing with this one (restore), never by deleting.
 */
const HOLD_WORDS: Record<
  HoldReason,
  Pick<HoldView, 'title' | 'confirmLabel' | 'restoreLabel'> & { ways?: string }
> = {
  'mass-delete': { title: 'Deletes waiting', confirmLabel: 'Delete on the device too', restoreLabel: null },
  'emptied-root': {
    title: 'Folder emptied',
    confirmLabel: 'Delete them on the device too',
    restoreLabel: 'Restore them here',
  },
  'local-root-missing': { title: 'Folder missing', confirmLabel: null, restoreLabel: null },
  'folder-changed': {
    title: 'Not the folder that was synced',
    confirmLabel: 'Sync it as it is now',
    restoreLabel: 'Keep everything on both sides',
    ways:
      'If it is the wrong folder (a disk that is not mounted, a folder put back from elsewhere), put the ' +
      'right one back: nothing needs answering. "Keep everything on both sides" brings what the device ' +
      'holds into this folder and sends up what it holds: nothing is deleted, and files that differ keep ' +
      'both versions. "Sync it as it is now" deletes on the device what this folder lacks.',
  },
  'device-changed': {
    title: 'Another device',
    confirmLabel: null,
    restoreLabel: 'Sync with this device',
    ways:
      'If you signed in to the wrong device, sign in to the one you synced with: nothing needs answering. ' +
      '"Sync with this device" finds or makes the folder there and brings both sides together: nothing ' +
      'is deleted, and files that differ keep both versions.',
  },
};

const KINDS: ReadonlySet<string> = new Set<ActivityKind>([
  'uploaded',
  'downloaded',
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
