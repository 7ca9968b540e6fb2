// One running `mch-sync run` per synced folder: a lock the operating system drops when its process dies.
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, renameSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MchError } from '../../common/errors.ts';
import { indexFilePath } from '../index/index-db.ts';

export type FolderLockErrorCode = 'FOLDER_BUSY' | 'FOLDER_LOCK_FAILED';

export class FolderLockError extends MchError {
  declare readonly code: FolderLockErrorCode;
  /** The process holding the lock, for FOLDER_BUSY, when its record could be read. */
  readonly holderPid: number | undefined;

  constructor(code: FolderLockErrorCode, message: string, options?: { cause?: unknown; holderPid?: number }) {
    super(
      code,
      code === 'FOLDER_BUSY' ? 'Folder busy' : 'Folder lock failed',
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.holderPid = options?.holderPid;
  }
}

/** Who holds a lock, for the message another run shows; it decides nothing. */
interface HolderRecord {
  pid: number;
  folder: string;
  startedAt: string;
}

export interface FolderLock {
  readonly path: string;
  /** Gives the lock up; safe to call twice. */
  release(): void;
}

export interface FolderLockOptions {
  /** The synced folder, for the message another run shows. */
  folder: string;
}

/** `<profile>/index/<same hash as the index>.lock`: the lock sits beside the index it protects. */
export function folderLockPath(profileDir: string, folder: string): string {
  return indexFilePath(profileDir, folder).replace(/\.db$/, '.lock');
}

/** The holder's record, beside the lock: the lock itself cannot be read while it is held. */
export function holderRecordPath(path: string): string {
  return `${path}.holder`;
}

/**
 * How long a second run tries before it says FOLDER_BUSY. Not 0: two runs starting at the same moment
 * both take SQLite's shared lock first, and without a wait each would refuse the other.
 */
const BUSY_WAIT_MS = 100;

/**
 * The connections of the locks this process holds. better-sqlite3 closes a connection it collects as
 * garbage, which would drop a lock whose handle the caller let go of: a lock lasts until `release()`.
 */
const heldConnections = new Set<Database.Database>();

/**
 * Takes the lock at `path` or throws FOLDER_BUSY naming the process that holds it.
 *
 * The lock is an open exclusive transaction on a SQLite database at `path`, kept until `release()`.
 * SQLite holds it as a POSIX `fcntl` lock on Unix and a `LockFileEx` lock on Windows, which the kernel
 * drops when the process ends, however it ends: a run killed with SIGKILL blocks nothing, even while it
 * lingers as a zombie or its pid is reused, and a live run always blocks (which `kill(pid, 0)` on a
 * recorded pid could not tell). The database stays empty (no table, no journal on disk), so the file
 * is 0 bytes and needs no recovery after a crash.
 *
 * POSIX locks belong to a process, and closing any descriptor of the file drops them all: nothing in a
 * process that may hold the lock opens the file except through SQLite, which keeps such descriptors
 * open and tracks locks per connection, so a second acquisition in the same process is FOLDER_BUSY too.
 */
export function acquireFolderLock(path: string, options: FolderLockOptions): FolderLock {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw lockFailed(path, error);
  }
  // Two rounds: the second follows a file that is no lock of this client (the JSON record of older ones).
  for (let round = 0; ; round += 1) {
    let db: Database.Database | undefined;
    try {
      db = new Database(path, { timeout: BUSY_WAIT_MS });
      db.pragma('journal_mode = MEMORY');
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      db?.close();
      const code = sqliteCode(error);
      if (code === 'SQLITE_BUSY') throw busy(path, options.folder);
      if ((code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') && round === 0) {
        // Nobody holds it (a holder's lock would have made this SQLITE_BUSY before the file was read),
        // and an empty file is an empty database. A run that lost a race to it and truncates it again
        // truncates an empty file: the lock of the winner is in the kernel, not in the file.
        emptyStaleFile(path);
        continue;
      }
      throw lockFailed(path, error);
    }
    return heldLock(path, db, options.folder);
  }
}

function heldLock(path: string, db: Database.Database, folder: string): FolderLock {
  const recordPath = holderRecordPath(path);
  const record: HolderRecord = { pid: process.pid, folder, startedAt: new Date().toISOString() };
  // Written while the lock is held, to a private file renamed into place: a reader sees a whole record,
  // and a record left by a killed run is replaced here. Best effort (a rename on Windows fails while a
  // reader has the file open): without a record, FOLDER_BUSY just names no process.
  const draft = `${recordPath}.${process.pid}.tmp`;
  try {
    writeFileSync(draft, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    renameSync(draft, recordPath);
  } catch {
    removeQuietly(draft);
    removeQuietly(recordPath);
  }
  heldConnections.add(db);
  let released = false;
  return {
    path,
    release: () => {
      if (released) return;
      released = true;
      // The record goes first, while the lock is still held, so it is never the next holder's.
      removeQuietly(recordPath);
      // Closing rolls the transaction back and drops the lock. The 0-byte file stays: removing it could
      // let a run that opened it just before lock a file no later run sees.
      db.close();
      heldConnections.delete(db);
    },
  };
}

/** The recorded holder, or undefined while it has not written one yet (or the record is damaged). */
function readHolder(path: string): HolderRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(holderRecordPath(path), 'utf8')) as Partial<HolderRecord>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return undefined;
    return { pid: value.pid, folder: String(value.folder ?? ''), startedAt: String(value.startedAt ?? '') };
  } catch {
    return undefined;
  }
}

function emptyStaleFile(path: string): void {
  try {
    truncateSync(path, 0);
  } catch (error) {
    throw lockFailed(path, error);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: nothing to do.
  }
}

/** better-sqlite3's error code (`SQLITE_BUSY`...), or undefined for other errors. */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

function busy(path: string, folder: string): FolderLockError {
  const holder = readHolder(path);
  const who =
    holder === undefined
      ? 'Another mch-sync run'
      : `Another mch-sync run (process ${holder.pid}${holder.startedAt === '' ? '' : ` since ${holder.startedAt}`})`;
  return new FolderLockError(
    'FOLDER_BUSY',
    `${who} is syncing ${holder?.folder || folder}: wait for it to finish, or stop it.`,
    holder === undefined ? undefined : { holderPid: holder.pid },
  );
}

function lockFailed(path: string, error: unknown): FolderLockError {
  const code = sqliteCode(error) ?? (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new FolderLockError(
    'FOLDER_LOCK_FAILED',
    `Could not take the lock ${path} (${code}): check the profile folder's permissions.`,
    { cause: error },
  );
}
