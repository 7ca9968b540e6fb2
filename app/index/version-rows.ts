// The versions and conflicts tables of the index: content kept before this client replaced or removed it, and the conflicted copies settled by keeping both.
import type { IndexDb } from './index-db.ts';

/** Why content was kept: what replaced or removed it on this computer. */
export type VersionReason = 'replaced' | 'deleted' | 'conflict' | 'restored';

/** One kept file (or, while `pending`, one keep under way: a file, or a folder not walked yet). */
export interface VersionRow {
  id: number;
  /** Where the content was, relative to the sync root. */
  path: string;
  /** Where it is, relative to the versions folder. */
  blob: string;
  reason: VersionReason;
  size: number;
  mTimeMs: number;
  keptAtMs: number;
  state: 'pending' | 'kept';
  /** For a keep by hard link (the file is replaced right after): the content's inode. */
  inode: string | null;
  remoteId: string | null;
  contentHash: string | null;
}

export type NewVersion = Omit<VersionRow, 'id'>;

/** A conflicted copy and the file it was made from, as the table records them. */
export interface ConflictRow {
  copyPath: string;
  originalPath: string;
  madeAtMs: number;
  madeHere: boolean;
  settled: 'both' | null;
}

const COLUMNS = `id, path, blob, reason, size, m_time_ms AS mTimeMs, kept_at_ms AS keptAtMs, state, inode,
  remote_id AS remoteId, content_hash AS contentHash`;

/** The range of paths strictly below `folder` ('' for the whole pair): `[folder/, folder0)`. */
export function pathRange(folder: string): { low: string; high: string } {
  return folder === '' ? { low: '', high: '\u{10FFFF}' } : { low: `${folder}/`, high: `${folder}0` };
}

export class VersionRows {
  readonly #db: IndexDb;
  readonly #statements: ReturnType<typeof prepare>;

  constructor(db: IndexDb) {
    this.#db = db;
    this.#statements = prepare(db);
  }

  /** Runs `work` in one IMMEDIATE transaction (joining one already open). */
  transaction<T>(work: () => T): T {
    if (this.#db.inTransaction) return work();
    return this.#db.transaction(work).immediate();
  }

  add(version: NewVersion): number {
    return Number(this.#statements.insert.run(version).lastInsertRowid);
  }

  get(id: number): VersionRow | undefined {
    return this.#statements.get.get({ id }) as VersionRow | undefined;
  }

  markKept(id: number): void {
    this.#statements.markKept.run({ id });
  }

  remove(id: number): void {
    this.#statements.remove.run({ id });
  }

  /** The kept versions of the file at `path`, newest first. */
  ofPath(path: string): VersionRow[] {
    return this.#statements.ofPath.all({ path }) as VersionRow[];
  }

  /** Keeps under way when the process stopped: recovery settles each. */
  pending(): VersionRow[] {
    return this.#statements.pending.all() as VersionRow[];
  }

  /**
   * Deleted files: per path at or below `folder` with no synced item there now, its newest kept version
   * (kept at `sinceMs` or later), newest first.
   */
  deleted(folder: string, sinceMs: number): VersionRow[] {
    const { low, high } = pathRange(folder);
    return this.#statements.deleted.all({ low, high, sinceMs }) as VersionRow[];
  }

  /** How many kept versions each of `paths` has (only paths that have some). */
  countsOfPaths(paths: readonly string[]): Map<string, number> {
    const counts = new Map<string, number>();
    if (paths.length === 0) return counts;
    // All at once when most paths are asked (a "Recently deleted" list), else one lookup each.
    if (paths.length > 200) {
      for (const row of this.#statements.allCounts.iterate() as IterableIterator<{
        path: string;
        n: number;
      }>) {
        counts.set(row.path, row.n);
      }
    } else {
      for (const path of paths) {
        const n = this.#statements.countOfPath.pluck().get({ path }) as number;
        if (n > 0) counts.set(path, n);
      }
    }
    return counts;
  }

  /** Paths of synced files named as conflicted copies (made on another computer, or here). */
  conflictedCopyPaths(): string[] {
    return this.#statements.conflictedCopies.pluck().all() as string[];
  }

  /** Every kept version, by path and then newest first: what thinning walks. */
  *kept(): Generator<VersionRow> {
    yield* this.#statements.kept.iterate() as IterableIterator<VersionRow>;
  }

  /** The paths with a version kept at `sinceMs` or later: what a thinning after a pass looks at. */
  pathsKeptSince(sinceMs: number): string[] {
    return this.#statements.pathsKeptSince.pluck().all({ sinceMs }) as string[];
  }

  /** Every kept version, oldest first: what a size cap removes first. */
  *oldestFirst(): Generator<VersionRow> {
    yield* this.#statements.oldestFirst.iterate() as IterableIterator<VersionRow>;
  }

  /** How many versions are kept and their bytes. */
  usage(): { count: number; bytes: number } {
    const row = this.#statements.usage.get() as { count: number; bytes: number | null };
    return { count: row.count, bytes: row.bytes ?? 0 };
  }

  /** The other rows sharing a blob's folder (a folder deleted on the device is one blob of many files). */
  countInKeep(keepId: string): number {
    return this.#statements.countInKeep.pluck().get({ keepId, below: `${keepId}/` }) as number;
  }

  conflict(copyPath: string): ConflictRow | undefined {
    const row = this.#statements.conflict.get({ copyPath }) as ConflictStored | undefined;
    return row === undefined ? undefined : conflictOf(row);
  }

  conflicts(): ConflictRow[] {
    return (this.#statements.conflicts.all() as ConflictStored[]).map(conflictOf);
  }

  /** Records a conflicted copy (made here, or settled by keeping both). */
  putConflict(conflict: ConflictRow): void {
    this.#statements.putConflict.run({
      ...conflict,
      madeHere: conflict.madeHere ? 1 : 0,
    });
  }

  removeConflict(copyPath: string): void {
    this.#statements.removeConflict.run({ copyPath });
  }
}

interface ConflictStored {
  copyPath: string;
  originalPath: string;
  madeAtMs: number;
  madeHere: number;
  settled: 'both' | null;
}

function conflictOf(row: ConflictStored): ConflictRow {
  return { ...row, madeHere: row.madeHere === 1 };
}

function prepare(db: IndexDb) {
  return {
    insert: db.prepare(
      `INSERT INTO versions (path, blob, reason, size, m_time_ms, kept_at_ms, state, inode, remote_id, content_hash)
       VALUES (:path, :blob, :reason, :size, :mTimeMs, :keptAtMs, :state, :inode, :remoteId, :contentHash)`,
    ),
    get: db.prepare(`SELECT ${COLUMNS} FROM versions WHERE id = :id`),
    markKept: db.prepare(`UPDATE versions SET state = 'kept' WHERE id = :id`),
    remove: db.prepare(`DELETE FROM versions WHERE id = :id`),
    ofPath: db.prepare(
      `SELECT ${COLUMNS} FROM versions WHERE path = :path AND state = 'kept' ORDER BY kept_at_ms DESC, id DESC`,
    ),
    pending: db.prepare(`SELECT ${COLUMNS} FROM versions WHERE state = 'pending' ORDER BY id`),
    // SQLite takes the bare columns from the row holding MAX(): each path's newest version, read in
    // the path index's order; the synced items are looked up by their unique path.
    deleted: db.prepare(
      `SELECT ${COLUMNS} FROM (
         SELECT id, path, blob, reason, size, m_time_ms, MAX(kept_at_ms) AS kept_at_ms, state, inode,
           remote_id, content_hash
         FROM versions WHERE path >= :low AND path < :high AND state = 'kept' GROUP BY path
       ) AS newest
       WHERE kept_at_ms >= :sinceMs AND NOT EXISTS (SELECT 1 FROM items WHERE items.path = newest.path)
       ORDER BY kept_at_ms DESC, id DESC`,
    ),
    kept: db.prepare(
      `SELECT ${COLUMNS} FROM versions WHERE state = 'kept' ORDER BY path, kept_at_ms DESC, id DESC`,
    ),
    oldestFirst: db.prepare(`SELECT ${COLUMNS} FROM versions WHERE state = 'kept' ORDER BY kept_at_ms, id`),
    usage: db.prepare(`SELECT COUNT(*) AS count, SUM(size) AS bytes FROM versions WHERE state = 'kept'`),
    countInKeep: db.prepare(
      `SELECT COUNT(*) FROM versions WHERE blob = :keepId OR substr(blob, 1, length(:below)) = :below`,
    ),
    conflict: db.prepare(
      `SELECT copy_path AS copyPath, original_path AS originalPath, made_at_ms AS madeAtMs,
         made_here AS madeHere, settled FROM conflicts WHERE copy_path = :copyPath`,
    ),
    conflicts: db.prepare(
      `SELECT copy_path AS copyPath, original_path AS originalPath, made_at_ms AS madeAtMs,
         made_here AS madeHere, settled FROM conflicts ORDER BY made_at_ms DESC`,
    ),
    putConflict: db.prepare(
      `INSERT INTO conflicts (copy_path, original_path, made_at_ms, made_here, settled)
       VALUES (:copyPath, :originalPath, :madeAtMs, :madeHere, :settled)
       ON CONFLICT (copy_path) DO UPDATE SET original_path = excluded.original_path,
         made_at_ms = excluded.made_at_ms, made_here = excluded.made_here, settled = excluded.settled`,
    ),
    removeConflict: db.prepare(`DELETE FROM conflicts WHERE copy_path = :copyPath`),
    pathsKeptSince: db.prepare(
      `SELECT DISTINCT path FROM versions WHERE kept_at_ms >= :sinceMs AND state = 'kept'`,
    ),
    countOfPath: db.prepare(`SELECT COUNT(*) FROM versions WHERE path = :path AND state = 'kept'`),
    allCounts: db.prepare(`SELECT path, COUNT(*) AS n FROM versions WHERE state = 'kept' GROUP BY path`),
    conflictedCopies: db.prepare(
      `SELECT path FROM items WHERE kind = 'file' AND name LIKE '% (conflicted copy %'`,
    ),
  };
}
