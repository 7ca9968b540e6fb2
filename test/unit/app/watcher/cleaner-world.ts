// A small notation for event-cleaner tests: a seeded folder, chokidar's raw events, the cleaned changes as strings.
import {
  EventCleaner,
  type EventCleanerOptions,
  type LocalChange,
  type RawEvent,
} from '../../../../app/watcher/watch-events.ts';
import type { LocalEntry } from '../../../../app/model/items.ts';

/** A file as a scan saw it: `size` 3 and mtime 100 unless given. */
export function file(path: string, inode: number, size = 3, mtimeNs = 100n): LocalEntry {
  return { path, kind: 'file', inode: String(inode), size, mtimeNs };
}

export function folder(path: string, inode: number): LocalEntry {
  return { path, kind: 'folder', inode: String(inode), size: 0, mtimeNs: 50n };
}

/** A raw event without its time; `at` fills it in. */
export type Step = Omit<RawEvent, 'atMs'>;

export const add = (path: string, inode: number, size = 3, mtimeNs = 100n): Step => ({
  type: 'add',
  path,
  inode: String(inode),
  size,
  mtimeNs,
});
export const change = (path: string, inode: number, size = 3, mtimeNs = 100n): Step => ({
  type: 'change',
  path,
  inode: String(inode),
  size,
  mtimeNs,
});
export const addDir = (path: string, inode: number): Step => ({
  type: 'addDir',
  path,
  inode: String(inode),
  size: 0,
  mtimeNs: 50n,
});
export const unlink = (path: string): Step => ({ type: 'unlink', path });
export const unlinkDir = (path: string): Step => ({ type: 'unlinkDir', path });

/** `moved a -> b`, `modified doc.txt`, `created dir/` (a trailing slash marks a folder). */
export function show(change: LocalChange): string {
  const slash = change.itemKind === 'folder' ? '/' : '';
  const from = change.fromPath === undefined ? '' : `${change.fromPath}${slash} -> `;
  return `${change.kind} ${from}${change.path}${slash}`;
}

/** An EventCleaner with a clock of its own: each pushed event is 1 ms after the previous one. */
export class CleanerWorld {
  readonly cleaner: EventCleaner;
  nowMs = 0;

  constructor(seed: LocalEntry[] = [], options: EventCleanerOptions = {}) {
    this.cleaner = new EventCleaner(options);
    this.cleaner.seed(seed);
  }

  push(...steps: Step[]): this {
    for (const step of steps) {
      this.nowMs += 1;
      this.cleaner.push({ ...step, atMs: this.nowMs });
    }
    return this;
  }

  wait(ms: number): this {
    this.nowMs += ms;
    return this;
  }

  /** Drains once the move window has surely passed (or at `afterMs` from now) and shows the changes. */
  drain(afterMs = 5000): string[] {
    this.nowMs += afterMs;
    return this.cleaner.drain(this.nowMs).changes.map(show);
  }
}
