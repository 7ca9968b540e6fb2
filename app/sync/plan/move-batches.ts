// Which consecutive remote moves of a plan may be sent at the same time without changing the outcome.
import { nameKey, type RelativePath } from '../../model/items.ts';
import type { Operation } from './operations.ts';

type RemoteMove = Extract<Operation, { op: 'remote-move' }>;

/**
 * The end (exclusive) of the run of operations from `start` that may run concurrently: plain remote
 * moves, none of which can meet another of the run. `start + 1` when the operation at `start` runs
 * alone (any other operation, or a move that may not share a run).
 *
 * Two moves of a run never touch related paths: no `fromPath` or `toPath` of one equals, contains or
 * lies inside a `fromPath` or `toPath` of another (no chains, swaps, nested items, or items moved into
 * a folder another move renames). `fromPath` is where the walk saw the item and `toPath` where the plan
 * ends, so earlier moves of the plan may have put an item elsewhere meanwhile; the names, which only an
 * item's own move changes, are compared too: no move's final name is another's current name, wherever
 * they are. Together this means no move's target slot is held by, or freed by, another move of the run,
 * so whichever finishes first, the device and the index end up as in plan order.
 */
export function independentMoveRun(operations: readonly Operation[], start: number): number {
  const first = operations[start];
  if (first === undefined || !mayShareRun(first)) return start + 1;
  const run = new MoveRun();
  run.add(first);
  let end = start + 1;
  for (; end < operations.length; end += 1) {
    const operation = operations[end] as Operation;
    // The run stops at the first move that may not join: moves after it must still wait for it.
    if (!mayShareRun(operation) || !run.accepts(operation)) break;
    run.add(operation);
  }
  return end;
}

/**
 * Only plain renames and moves into folders that already exist. A move into a folder this plan creates
 * needs that folder's new id; conflict copies, case clashes and type changes keep their planned order.
 */
function mayShareRun(operation: Operation): operation is RemoteMove {
  return (
    operation.op === 'remote-move' &&
    operation.reason === 'sync' &&
    (operation.parent === null || operation.parent.kind === 'existing')
  );
}

/** The paths and names a run of moves touches, to test a further move against all of them at once. */
class MoveRun {
  readonly #ids = new Set<string>();
  /** Every `fromPath` and `toPath` of the run. */
  readonly #paths = new Set<string>();
  /** Every folder above a path of the run. */
  readonly #above = new Set<string>();
  readonly #sourceNames = new Set<string>();
  readonly #targetNames = new Set<string>();

  accepts(move: RemoteMove): boolean {
    if (this.#ids.has(move.remoteId)) return false;
    for (const path of [move.fromPath, move.toPath]) {
      const key = looseKey(path);
      // Equal to, or above, a path of the run.
      if (this.#paths.has(key) || this.#above.has(key)) return false;
      // Inside a path of the run.
      if (foldersAbove(key).some((folder) => this.#paths.has(folder))) return false;
    }
    if (targetNames(move).some((name) => this.#sourceNames.has(name))) return false;
    return !this.#targetNames.has(sourceName(move));
  }

  add(move: RemoteMove): void {
    this.#ids.add(move.remoteId);
    for (const path of [move.fromPath, move.toPath]) {
      const key = looseKey(path);
      this.#paths.add(key);
      for (const folder of foldersAbove(key)) this.#above.add(folder);
    }
    this.#sourceNames.add(sourceName(move));
    for (const name of targetNames(move)) this.#targetNames.add(name);
  }
}

/** Case-folded as well: two names that differ only in case may still be one name somewhere. */
function looseKey(path: RelativePath): string {
  return nameKey(path).toLowerCase();
}

/** 'a/b/c' → ['a', 'a/b']. */
function foldersAbove(key: string): string[] {
  const folders: string[] = [];
  for (let slash = key.indexOf('/'); slash !== -1; slash = key.indexOf('/', slash + 1)) {
    folders.push(key.slice(0, slash));
  }
  return folders;
}

function lastName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

function sourceName(move: RemoteMove): string {
  return lastName(looseKey(move.fromPath));
}

/** The final name, from the path and from the PATCH itself (they agree; both are kept out of caution). */
function targetNames(move: RemoteMove): string[] {
  const fromPath = lastName(looseKey(move.toPath));
  return move.name === null ? [fromPath] : [fromPath, looseKey(move.name)];
}
