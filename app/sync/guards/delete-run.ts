// The deletes of recent passes, which the mass-delete guard counts with a pass's own: one deletion seen in parts is guarded as one.
import type { IndexStore } from '../../index/index-store.ts';

/** Index meta key of the `DeleteRun` as JSON. */
export const META_DELETE_RUN = 'deleteRun';

/**
 * Deletes made by passes that followed each other with less than this between them belong to one run.
 * The live service sees a large `rm -rf` in batches (its watcher lets ripe deletions out after 10 s of
 * a storm, and a pass may start between two `rm` commands): each batch alone may stay under the guard.
 */
export const DELETE_RUN_GAP_MS = 60_000;

/** Items deleted on each side (local: moved to the trash) by the passes of one run so far. */
export interface DeleteRun {
  local: number;
  remote: number;
  /** When the last of them was made (wall clock, ms since the epoch). */
  lastAtMs: number;
}

/** The deletes of the run still going at `nowMs`, or none: what the guard adds to a pass's own. */
export function earlierDeletes(index: IndexStore, nowMs: number): { local: number; remote: number } {
  const run = readRun(index);
  if (run === undefined || nowMs - run.lastAtMs >= DELETE_RUN_GAP_MS || nowMs < run.lastAtMs) {
    return { local: 0, remote: 0 };
  }
  return { local: run.local, remote: run.remote };
}

/**
 * Before a pass carries out a plan that deletes: the run's deletes so far, this pass's included, made
 * now. A pass the user confirmed starts a run from nothing: the deletes they agreed to are not counted
 * against the next pass.
 */
export function noteDeleteRun(
  index: IndexStore,
  run: { local: number; remote: number },
  nowMs: number,
  confirmed: boolean,
): void {
  const counted: DeleteRun = confirmed
    ? { local: 0, remote: 0, lastAtMs: nowMs }
    : { local: run.local, remote: run.remote, lastAtMs: nowMs };
  index.setMeta(META_DELETE_RUN, JSON.stringify(counted));
}

function readRun(index: IndexStore): DeleteRun | undefined {
  const text = index.getMeta(META_DELETE_RUN);
  if (text === undefined) return undefined;
  try {
    const run = JSON.parse(text) as Partial<DeleteRun>;
    const counts = [run.local, run.remote, run.lastAtMs];
    return counts.every((value) => typeof value === 'number' && Number.isFinite(value))
      ? (run as DeleteRun)
      : undefined;
  } catch {
    return undefined;
  }
}

type Sides = { local: number; remote: number };

/**
 * One pass's part in the run: the run before it (read once), what its rounds deleted, and the record
 * kept up to date: a round's planned deletes are counted before they are made (a pass stopped half way
 * can only be held sooner), and once it is over, what it really deleted (a re-planning round's guard
 * counts what this pass's earlier rounds deleted: soak seed 6).
 */
export class DeleteTally {
  readonly #index: IndexStore;
  readonly #confirmed: boolean;
  #before: Sides | undefined;
  readonly #made: Sides = { local: 0, remote: 0 };

  constructor(index: IndexStore, confirmed: boolean) {
    this.#index = index;
    this.#confirmed = confirmed;
  }

  /** What the guard adds to a round's own deletes. */
  earlier(nowMs: number): Sides {
    this.#before ??= earlierDeletes(this.#index, nowMs);
    return add(this.#before, this.#made);
  }

  beforeRound(planned: Sides, nowMs: number): void {
    if (planned.local + planned.remote > 0) this.#note(planned, nowMs);
  }

  afterRound(planned: Sides, deleted: Sides, nowMs: number): void {
    this.#made.local += deleted.local;
    this.#made.remote += deleted.remote;
    if (planned.local + planned.remote > 0) this.#note({ local: 0, remote: 0 }, nowMs);
  }

  #note(also: Sides, nowMs: number): void {
    noteDeleteRun(this.#index, add(this.earlier(nowMs), also), nowMs, this.#confirmed);
  }
}

function add(a: Sides, b: Sides): Sides {
  return { local: a.local + b.local, remote: a.remote + b.remote };
}
