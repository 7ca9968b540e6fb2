// What `mch-sync run` shows while live: a redrawn status block on a terminal, plain log lines otherwise.
import { createLogUpdate } from 'log-update';
import type { SyncStatus } from '../../../common/sync-status.ts';
import { formatBytes } from '../../../common/units.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { unsyncedWords } from '../terminal/issue-lines.ts';

export interface LiveDisplay {
  /** The status changed (state, progress or activity); the display reads it when it draws. */
  changed(): void;
  /** A line worth keeping (a warning, an error). */
  note(line: string): void;
  close(): void;
}

const STATE_TEXT: Record<SyncStatus['state'], string> = {
  idle: 'Up to date, watching for changes',
  scanning: 'Looking for changes',
  syncing: 'Syncing',
  paused: 'Paused',
  offline: 'Offline',
  'sign-in-needed': 'Sign-in needed',
  held: 'Waiting for you',
  error: 'Stopped by an error',
};

/**
 * The state line's words and the detail that goes with them. Idle with items left unsynced is not
 * "Up to date": it says what run --once says, with the same counts (issue 27). The service's detail then
 * counts the same issues, so these words take its place rather than repeat it.
 */
export function stateWords(status: SyncStatus): { headline: string; detail: string | null } {
  const unsynced = status.state === 'idle' ? unsyncedWords(status.issues) : undefined;
  if (unsynced === undefined) return { headline: STATE_TEXT[status.state], detail: status.detail };
  return { headline: 'Not all synced, watching for changes', detail: unsynced };
}

function clock(atMs: number): string {
  return new Date(atMs).toLocaleTimeString();
}

/** The block a terminal shows: state, progress, the last few things done, issues. */
export function statusLines(status: SyncStatus): string[] {
  const { headline, detail } = stateWords(status);
  const unsynced = unsyncedWords(status.issues);
  const listed = (words: string): string => `  ${words}: mch-sync status lists them`;
  const lines = [`${headline} — ${status.localRoot} ⇄ ${status.remoteFolder}`];
  // Unsynced items are said once: under the headline when it is about them, else at the end.
  if (detail !== null) lines.push(detail === unsynced ? listed(detail) : `  ${detail}`);
  const progress = status.progress;
  if (progress !== null && progress.itemsTotal > 0) {
    const bytes =
      progress.bytesTotal > 0
        ? `, ${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}`
        : '';
    lines.push(`  ${progress.itemsDone} of ${progress.itemsTotal} changes${bytes}`);
    for (const transfer of progress.transfers.slice(0, 4)) {
      const share =
        transfer.bytesTotal > 0 ? Math.floor((100 * transfer.bytesDone) / transfer.bytesTotal) : 100;
      lines.push(
        `  ${transfer.direction === 'up' ? '↑' : '↓'} ${String(share).padStart(3)}%  ${transfer.path}`,
      );
    }
  }
  if (status.lastSyncAtMs !== null) lines.push(`  last in sync at ${clock(status.lastSyncAtMs)}`);
  for (const entry of status.activity.slice(0, 5)) {
    lines.push(`  ${clock(entry.atMs)}  ${entry.action.padEnd(14)} ${entry.path}`);
  }
  if (unsynced !== undefined && unsynced !== detail) lines.push(listed(unsynced));
  lines.push('  Ctrl+C to stop');
  // Names from the disk or the device: one line each, unable to drive the terminal (issue 27).
  return lines.map(terminalSafe);
}

/** Redraws in place on a terminal (log-update), throttled to a few frames a second. */
export function terminalDisplay(stream: NodeJS.WriteStream, status: () => SyncStatus): LiveDisplay {
  const render = createLogUpdate(stream, { showCursor: true });
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    timer = undefined;
    render(statusLines(status()).join('\n'));
  };
  return {
    changed() {
      timer ??= setTimeout(draw, 100);
    },
    note(line) {
      render.clear();
      stream.write(`${terminalSafe(line)}\n`);
      draw();
    },
    close() {
      if (timer !== undefined) clearTimeout(timer);
      draw();
      render.done();
    },
  };
}

/** One line per state change and per finished item, for logs and pipes. */
export function plainDisplay(print: (line: string) => void, read: () => SyncStatus): LiveDisplay {
  const write = (line: string): void => print(terminalSafe(line));
  let stateLine: string | null = null;
  let seenAtMs = 0;
  const seen = new Set<string>();
  return {
    changed() {
      const status = read();
      const { headline, detail } = stateWords(status);
      const line = `${headline}${detail === null ? '' : `: ${detail}`}`;
      if (line !== stateLine) {
        stateLine = line;
        write(`${new Date().toISOString()} ${line}`);
      }
      // Activity is newest first; print what is newer than what was printed, oldest first.
      const fresh = status.activity.filter((entry) => {
        const key = `${entry.atMs} ${entry.action} ${entry.path}`;
        return entry.atMs >= seenAtMs && !seen.has(key);
      });
      for (const entry of fresh.reverse()) {
        seen.add(`${entry.atMs} ${entry.action} ${entry.path}`);
        write(`${new Date(entry.atMs).toISOString()} ${entry.action} ${entry.path}`);
      }
      if (fresh.length > 0) {
        seenAtMs = Math.max(seenAtMs, ...fresh.map((entry) => entry.atMs));
        // Older keys cannot come again once the time has moved past them.
        for (const key of seen) if (Number(key.slice(0, key.indexOf(' '))) < seenAtMs) seen.delete(key);
      }
    },
    note(line) {
      write(line);
    },
    close() {},
  };
}
