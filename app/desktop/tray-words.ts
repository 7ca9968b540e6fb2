// The tray's words for what the pairs are doing (busy, paused, needing the user) and for a folder's name.
import type { PairView, WaitingFolderView } from '../../common/contract.ts';
import { formatBytes, formatSpeed, formatTimeLeft } from '../../common/units.ts';
import { pauseWords } from '../live-service/pause-state.ts';

// English, like every other string of the app; a fixed locale keeps "10,000" the same on every machine.
const count = new Intl.NumberFormat('en-US');

/**
 * "Syncing 12 of 340 files, 3.2 MB/s, 1 min left": the sums over the pairs that are busy. The time left
 * is the longest of theirs (all are done when the last is); without a speed yet, it is left out.
 */
export function syncingWords(pairs: readonly PairView[]): string {
  const busy = pairs.filter((pair) => pair.state === 'syncing' || pair.state === 'scanning');
  const withProgress = busy.filter((pair) => pair.progress !== null && pair.progress.itemsTotal > 0);
  if (withProgress.length === 0) {
    // A scan that has not planned anything yet has no numbers to give.
    return busy.every((pair) => pair.state === 'scanning') ? 'Looking for changes' : 'Syncing';
  }
  let done = 0;
  let total = 0;
  let speed: number | null = null;
  let secondsLeft: number | null = null;
  for (const pair of withProgress) {
    const progress = pair.progress;
    if (progress === null) continue;
    done += progress.itemsDone;
    total += progress.itemsTotal;
    if (progress.bytesPerSecond !== null) speed = (speed ?? 0) + progress.bytesPerSecond;
    if (progress.secondsLeft !== null) secondsLeft = Math.max(secondsLeft ?? 0, progress.secondsLeft);
  }
  const parts = [`Syncing ${count.format(done)} of ${count.format(total)} ${total === 1 ? 'file' : 'files'}`];
  // A speed of 0 says nothing useful in a tooltip (a pass creating folders moves no bytes).
  if (speed !== null && speed > 0) parts.push(formatSpeed(speed));
  if (secondsLeft !== null && speed !== null && speed > 0) parts.push(`${formatTimeLeft(secondsLeft)} left`);
  return parts.join(', ');
}

/**
 * "Paused", "Paused until 14:30" or "Paused: metered network" when every folder's pause says the same,
 * or how many folders are when some are not.
 */
export function pausedWords(pairs: readonly PairView[], nowMs: number = Date.now()): string {
  const paused = pairs.filter((pair) => pair.state === 'paused').length;
  if (paused === pairs.length) {
    const words = new Set(pairs.map((pair) => (pair.pause ? pauseWords(pair.pause, nowMs) : 'Paused')));
    return words.size === 1 ? [...words][0]! : 'Paused';
  }
  return `Paused: ${paused} of ${pairs.length} folders (the others are up to date)`;
}

/**
 * What needs the user, most pressing first: held deletes, new folders waiting for an answer, folders
 * that stopped, conflicts, then the items that are not synced (PairView.issueCount counts both, conflictCount the conflicts still there:
 * a settled one is gone from both). Items Issues lists quietly (a symbolic link left out, a name only
 * Windows refuses) are in neither count: the command line does not call them unsynced either.
 */
export function attentionWords(pairs: readonly PairView[]): string {
  const parts: string[] = [];
  const held = pairs.filter((pair) => pair.hold !== null || pair.state === 'held');
  const heldDeletes = held.reduce(
    (sum, pair) => sum + (pair.hold === null ? 0 : pair.hold.localDeletes + pair.hold.remoteDeletes),
    0,
  );
  if (heldDeletes > 0) parts.push(`${plural(heldDeletes, 'delete')} held for you`);
  // Holds that are not deletes (a folder or device that changed, a folder missing) say what they are.
  const otherHolds = held.filter(
    (pair) => pair.hold === null || pair.hold.localDeletes + pair.hold.remoteDeletes === 0,
  );
  if (otherHolds.length === 1 && otherHolds[0] !== undefined) {
    const pair = otherHolds[0];
    parts.push(`${folderName(pair.localRoot)}: ${pair.hold?.title ?? 'waiting for you'}`);
  } else if (otherHolds.length > 1) {
    parts.push(`${otherHolds.length} folders wait for you`);
  }
  const waiting = waitingFolders(pairs);
  if (waiting.length > 0) parts.push(waitingWords(waiting));
  const stopped = pairs.filter((pair) => pair.state === 'error');
  if (stopped.length === 1 && stopped[0] !== undefined) {
    const pair = stopped[0];
    parts.push(`${folderName(pair.localRoot)} stopped${pair.detail === null ? '' : `: ${pair.detail}`}`);
  } else if (stopped.length > 1) {
    parts.push(`${stopped.length} folders stopped`);
  }
  let conflicts = 0;
  let unsynced = 0;
  for (const pair of pairs) {
    conflicts += pair.conflictCount;
    unsynced += pair.issueCount - pair.conflictCount;
  }
  if (conflicts > 0) parts.push(`${plural(conflicts, 'conflict')} ${conflicts === 1 ? 'needs' : 'need'} you`);
  if (unsynced > 0) parts.push(`${plural(unsynced, 'file')} not synced`);
  // trayStateOf says attention only for one of the above; a bare word beats an empty tooltip anyway.
  return parts.length === 0 ? 'Needs your attention' : parts.join('; ');
}

/** The new device folders of every pair that wait for "sync it" or "don't sync" (selective sync). */
export function waitingFolders(pairs: readonly PairView[]): WaitingFolderView[] {
  return pairs.flatMap((pair) => pair.selection?.waiting ?? []);
}

/** "New folder Videos waiting (1.2 GB)", or "3 new folders waiting (4.5 GB)". */
export function waitingWords(waiting: readonly WaitingFolderView[]): string {
  const bytes = formatBytes(waiting.reduce((sum, folder) => sum + folder.bytes, 0));
  const [only] = waiting;
  if (waiting.length === 1 && only !== undefined)
    return `New folder ${folderName(only.path)} waiting (${bytes})`;
  return `${count.format(waiting.length)} new folders waiting (${bytes})`;
}

function plural(n: number, word: string): string {
  return `${count.format(n)} ${n === 1 ? word : `${word}s`}`;
}

/** The last part of a folder's path ("/home/ann/MyCloud" → "MyCloud"), on either separator. */
export function folderName(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  return parts.at(-1) ?? path;
}
