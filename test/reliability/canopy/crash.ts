// A simulated process death for soak runs: the engine's index, disk writes and requests all stop at once.
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { openIndexDb } from '../../../app/index/index-db.ts';
import { IndexStore } from '../../../app/index/index-store.ts';
import type { IndexDb } from '../../../app/index/index-db.ts';

/** What the dead process's code meets when it carries on: it is not there any more. */
export class CrashError extends Error {
  readonly code = 'SIMULATED_CRASH';
  constructor(what: string) {
    super(`simulated crash: ${what}`);
  }
}

/** One engine process: its code runs inside `run`, and `kill` ends it. */
export interface EngineProcess {
  readonly dead: boolean;
  kill(): void;
  run<T>(work: () => Promise<T>): Promise<T>;
}

const processes = new AsyncLocalStorage<{ dead: boolean }>();

/** The fs functions that change the disk (sync, callback and promise forms). */
const WRITERS = [
  'writeFile',
  'appendFile',
  'rename',
  'rm',
  'rmdir',
  'unlink',
  'mkdir',
  'link',
  'symlink',
  'utimes',
  'copyFile',
  'truncate',
  'open',
] as const;

let guarded = false;

/**
 * Wraps node:fs so that code running for a dead process gets CrashError instead of changing the disk
 * (a process that died writes nothing more). Other code, the harness's and a new engine's, is not
 * touched. ESM named imports of node:fs are live bindings, refreshed by syncBuiltinESMExports.
 */
function guardFileSystem(): void {
  if (guarded) return;
  guarded = true;
  const dead = (): boolean => processes.getStore()?.dead === true;
  const patch = (
    target: Record<string, unknown>,
    name: string,
    kind: 'sync' | 'callback' | 'promise',
  ): void => {
    const original = target[name];
    if (typeof original !== 'function') return;
    target[name] = function guardedFs(this: unknown, ...args: unknown[]): unknown {
      if (!dead()) return (original as (...a: unknown[]) => unknown).apply(this, args);
      const error = new CrashError(`${name} after the process died`);
      if (kind === 'sync') throw error;
      if (kind === 'promise') return Promise.reject(error);
      const callback = args.at(-1);
      if (typeof callback === 'function') process.nextTick(() => (callback as (e: Error) => void)(error));
      return undefined;
    };
  };
  const sync = fs as unknown as Record<string, unknown>;
  const promises = fs.promises as unknown as Record<string, unknown>;
  for (const name of WRITERS) {
    patch(sync, name, 'callback');
    patch(sync, `${name}Sync`, 'sync');
    patch(promises, name, 'promise');
  }
  patch(sync, 'write', 'callback');
  patch(sync, 'writeSync', 'sync');
  syncBuiltinESMExports();
}

export function newEngineProcess(): EngineProcess {
  guardFileSystem();
  const state = { dead: false };
  return {
    get dead() {
      return state.dead;
    },
    kill: () => {
      state.dead = true;
    },
    run: (work) => processes.run(state, work),
  };
}

/** An index that dies with its process: a crash inside a transaction rolls it back, as SQLite does. */
export class CrashingIndexStore extends IndexStore {
  readonly db: IndexDb;
  #transactions = 0;
  #crashAt: number | undefined;
  #onCrash: (() => void) | undefined;

  constructor(db: IndexDb) {
    super(db);
    this.db = db;
  }

  /** The `at`-th outermost transaction from now throws CrashError after its work, before its commit. */
  crashInTransaction(at: number, onCrash: () => void): void {
    this.#transactions = 0;
    this.#crashAt = at;
    this.#onCrash = onCrash;
  }

  disarm(): void {
    this.#crashAt = undefined;
  }

  override transaction<T>(work: () => T): T {
    if (this.db.inTransaction || this.#crashAt === undefined) return super.transaction(work);
    this.#transactions += 1;
    if (this.#transactions !== this.#crashAt) return super.transaction(work);
    this.#crashAt = undefined;
    try {
      return super.transaction(() => {
        work();
        throw new CrashError('inside an index transaction');
      });
    } finally {
      this.#onCrash?.();
    }
  }
}

/** Opens the index file as a new process would. */
export function openCrashingIndex(path: string): CrashingIndexStore {
  return new CrashingIndexStore(openIndexDb(path));
}
