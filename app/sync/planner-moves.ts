// The order of local moves within a plan: where paths are after earlier moves, and moves that wait.
import { BugError } from '../../common/errors.ts';
import { MOVING_PREFIX } from './local-names.ts';
import { nameKey, type RelativePath } from './model.ts';
import type { Operation } from './operations.ts';
import { parentPath } from './reconcile.ts';

/**
 * Phases: 0 clears the way (conflict copies moved aside, the old side of a type change), 1 places
 * items (folders made, renames and moves, parents first), 2 moves content, 3 deletes (children
 * first), 4 updates the index only.
 */
export interface Pending {
  phase: 0 | 1 | 2 | 3 | 4;
  depth: number;
  build: (paths: PathTracker) => Operation | null;
  /** Set for a local move, so that moves can wait for their target to be free. */
  localMove?: { source: RelativePath; target: () => RelativePath; inode: string };
  /** Set for a local folder made in place of an item that still has to move away: it waits too. */
  placement?: { target: () => RelativePath };
}

/**
 * Local moves wait while their target is still the source of another pending move (`a→b` after
 * `b→c`); a cycle (`a→b`, `b→a`) is broken by moving one item to a temporary name first.
 */
export class LocalMoveQueue {
  /** Every local move not emitted yet: these may block a target. */
  private unemitted = new Set<Pending>();
  /** Moves whose turn came while their target was taken. */
  private pending: Pending[] = [];
  private temporaryNames = 0;

  private readonly paths: PathTracker;
  private readonly emit: (entry: Pending) => void;
  private readonly operations: Operation[];

  constructor(paths: PathTracker, emit: (entry: Pending) => void, operations: Operation[]) {
    this.paths = paths;
    this.emit = emit;
    this.operations = operations;
  }

  register(entries: Pending[]): void {
    for (const entry of entries) this.unemitted.add(entry);
  }

  add(entry: Pending): void {
    this.pending.push(entry);
    this.drain();
  }

  flush(): void {
    this.drain();
    for (let round = 0; this.pending.length > 0; round++) {
      const [first] = this.pending;
      if (!first?.localMove) break;
      // Each round frees one source path, so more rounds than moves means the queue is broken.
      if (round > this.unemitted.size + 1) throw new BugError('local moves cannot be ordered');
      const from = this.paths.current(first.localMove.source);
      const parent = parentPath(from);
      const aside = `${MOVING_PREFIX}${++this.temporaryNames}-${from.slice(parent.length === 0 ? 0 : parent.length + 1)}`;
      const to = parent === '' ? aside : `${parent}/${aside}`;
      this.paths.moved(from, to);
      this.operations.push({
        op: 'local-move',
        fromPath: from,
        toPath: to,
        inode: first.localMove.inode,
        remoteId: null,
        reason: 'sync',
      });
      this.drain();
    }
  }

  private drain(): void {
    for (let progress = true; progress;) {
      progress = false;
      for (const entry of this.pending) {
        if (this.isBlocked(entry)) continue;
        this.pending = this.pending.filter((other) => other !== entry);
        this.unemitted.delete(entry);
        this.emit(entry);
        progress = true;
        break;
      }
    }
  }

  private isBlocked(entry: Pending): boolean {
    const target = looseKey(entry.localMove?.target() ?? entry.placement?.target() ?? '');
    return [...this.unemitted].some(
      (other) =>
        other !== entry && other.localMove && looseKey(this.paths.current(other.localMove.source)) === target,
    );
  }
}

/** Case-folded as well, since the same check must hold on a case-insensitive file system. */
function looseKey(path: RelativePath): string {
  return nameKey(path).toLowerCase();
}

/** Where a local path is now, after the moves emitted so far (a moved folder carries its children). */
export class PathTracker {
  private readonly moves: { from: RelativePath; to: RelativePath }[] = [];

  current(path: RelativePath): RelativePath {
    let result = path;
    for (const { from, to } of this.moves) {
      if (result === from) result = to;
      else if (result.startsWith(`${from}/`)) result = to + result.slice(from.length);
    }
    return result;
  }

  moved(from: RelativePath, to: RelativePath): void {
    this.moves.push({ from, to });
  }
}
