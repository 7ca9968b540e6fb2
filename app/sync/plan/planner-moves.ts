// The order of local moves within a plan: where paths are after earlier moves, and moves that wait.
import { BugError } from '../../../common/errors.ts';
import { nameKey, type RelativePath } from '../../model/items.ts';
import type { Operation } from './operations.ts';
import type { PlanNode } from './planner-tree.ts';
import { MOVING_PREFIX } from '../../model/names.ts';
import { parentPath } from '../../model/paths.ts';

/**
 * Phases: 0 clears the way (conflict copies moved aside, the old side of a type change), 1 places
 * items (folders made, renames and moves, parents first), 2 moves content, 3 deletes (children
 * first), 4 updates the index only.
 */
export interface Pending {
  phase: 0 | 1 | 2 | 3 | 4;
  depth: number;
  build: (paths: PathTracker) => Operation | null;
  /**
   * Set for a local move, so that moves can wait for their target to be free. The target is where
   * the item goes now: its name in its parent where that parent is at this point of the plan
   * (undefined while the parent is not on disk yet).
   */
  localMove?: { source: RelativePath; target: () => RelativePath | undefined; inode: string };
  /** Set for a local folder made in place of an item that still has to move away: it waits too. */
  placement?: { target: () => RelativePath | undefined };
}

/**
 * Where planned items are on disk at each point of the plan. A move's target is built from where its
 * new parent is now, not from the parent's final path: the parent's own move may have to wait (a
 * chain `notes → d/Notes`, `d → notes` moves `notes` into `d` first, and `d` carries it along).
 */
export class LocalPlaces {
  /** The path a folder was made at, and the moves before it (they do not move it: seed 321). */
  private readonly made = new Map<PlanNode, { path: RelativePath; since: number }>();
  private readonly paths: PathTracker;

  constructor(paths: PathTracker) {
    this.paths = paths;
  }

  /** A folder the plan made at `path` (a later move of a folder above it carries it along). */
  madeAt(node: PlanNode, path: RelativePath): void {
    this.made.set(node, { path, since: this.paths.movesSoFar() });
  }

  /** Where the node is now, or undefined when it is not on disk yet (made later in the plan). */
  current(node: PlanNode | null): RelativePath | undefined {
    if (node === null) return '';
    const made = this.made.get(node);
    if (made !== undefined) return this.paths.current(made.path, made.since);
    const local = node.item.local;
    // A pulled item replaces what is at its local path (that goes aside or away); a copy is that.
    if (local === null || (!node.isCopy && node.decision.pull === 'create')) return undefined;
    return this.paths.current(local.path);
  }

  /** Where the node goes now: its final name in its parent as the parent is now. */
  target(node: PlanNode): RelativePath | undefined {
    const parent = this.current(node.parent);
    if (parent === undefined) return undefined;
    return parent === '' ? node.name : `${parent}/${node.name}`;
  }
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
      const first = this.toPark();
      if (!first?.localMove) throw new BugError('local folders cannot be placed');
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
    const target = this.targetOf(entry);
    // Its new parent is not on disk yet: it is made (or moved out of the way) first.
    if (target === undefined) return true;
    const key = looseKey(target);
    // A folder cannot go inside itself: something inside it has to move out first.
    if (entry.localMove && key.startsWith(`${looseKey(this.paths.current(entry.localMove.source))}/`)) {
      return true;
    }
    return [...this.unemitted].some(
      (other) =>
        other !== entry && other.localMove && looseKey(this.paths.current(other.localMove.source)) === key,
    );
  }

  private targetOf(entry: Pending): RelativePath | undefined {
    return entry.localMove ? entry.localMove.target() : entry.placement?.target();
  }

  /**
   * The move to park when nothing can go: one whose item holds the target another entry waits for
   * (moving it aside frees that target), else the first.
   */
  private toPark(): Pending | undefined {
    const wanted = new Set<string>();
    for (const entry of this.pending) {
      const target = this.targetOf(entry);
      if (target !== undefined) wanted.add(looseKey(target));
    }
    const moves = this.pending.filter((entry) => entry.localMove);
    return (
      moves.find(
        (entry) => entry.localMove && wanted.has(looseKey(this.paths.current(entry.localMove.source))),
      ) ?? moves[0]
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

  /** Where `path` is now; `since` (a `movesSoFar()`) applies only the moves after that point. */
  current(path: RelativePath, since = 0): RelativePath {
    let result = path;
    for (let at = since; at < this.moves.length; at++) {
      const { from, to } = this.moves[at] as { from: RelativePath; to: RelativePath };
      if (result === from) result = to;
      else if (result.startsWith(`${from}/`)) result = to + result.slice(from.length);
    }
    return result;
  }

  movesSoFar(): number {
    return this.moves.length;
  }

  moved(from: RelativePath, to: RelativePath): void {
    this.moves.push({ from, to });
  }
}
