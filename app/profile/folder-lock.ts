// One process syncing a folder, whatever the profile or the path spelling: locks the operating system drops when their process dies.
import Database from 'better-sqlite3';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  renameSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { MchError } from '../../common/errors.ts';
import { folderKey } from '../index/index-db.ts';
import { folderPlace } from './folder-place.ts';
import { holderRecordPath, overlappingLocks, readHolder, type HolderRecord } from './lock-holders.ts';

export { holderRecordPath } from './lock-holders.ts';

export type FolderLockErrorCode = 'FOLDER_BUSY' | 'FOLDER_LOCK_FAILED' | 'FOLDER_MISSING';

export class FolderLockError extends MchError {
  declare readonly code: FolderLockErrorCode;
  /** The process holding the lock, for FOLDER_BUSY, when its record could be read. */
  readonly holderPid: number | undefined;

  constructor(code: FolderLockErrorCode, message: string, options?: { cause?: unknown; holderPid?: number }) {
    const titles: Record<FolderLockErrorCode, string> = {
      FOLDER_BUSY: 'Folder busy',
      FOLDER_LOCK_FAILED: 'Folder lock failed',
      FOLDER_MISSING: 'Folder missing',
    };
    super(code, titles[code], message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.holderPid = options?.holderPid;
  }
}

export interface FolderLock {
  readonly path: string;
  /** Gives the lock up; safe to call twice. */
  release(): void;
}

/** Both locks of a synced folder. */
export interface SyncedFolderLock extends FolderLock {
  /**
   * Takes the lock of the folder now at the path, when it is another folder than the one locked (the
   * user answered that a replaced folder is the pair's now), then gives the old one up. FOLDER_BUSY
   * when another process holds the new one; FOLDER_MISSING when there is none.
   */
  renew(): void;
}

export interface FolderLockOptions {
  /** The synced folder, for the message another run shows. */
  folder: string;
  /** The profile syncing it, for the same message. */
  profile: string;
  /** Create the lock's folder (and its parents) when missing; otherwise it must exist. */
  makeFolder?: boolean;
}

/**
 * `<profile>/index/<hash>.lock`, the profile's lock of a folder: it keeps the profile's index of the
 * folder to one process, even while the folder itself is missing. The hash is of the folder's real
 * place (links resolved, case folded where the file system ignores it), so every spelling of one
 * folder meets one lock; for a plain path it is the index's own hash, as in older versions.
 */
export function folderLockPath(profileDir: string, folder: string): string {
  const [root = '/', ...names] = folderPlace(folder).keys;
  return join(profileDir, 'index', `${folderKey(join(root, ...names))}.lock`);
}

/**
 * The folder's own lock, `/tmp/mch-sync-<uid>/locks/<device>-<inode>.lock` (the temp folder on
 * Windows): every process of every profile of the user meets it, however it spells the folder's path,
 * since it is named by the folder itself (device and inode, links followed). Not in the folder: an
 * open lock file there would keep its disk from being ejected while the client runs. A fixed base, not
 * $TMPDIR, so a terminal, the tray app and a timer all find the same file. Undefined when the folder is
 * missing or not a folder.
 */
export function folderOwnLockPath(folder: string): string | undefined {
  let stats;
  try {
    stats = statSync(folder, { bigint: true });
  } catch {
    return undefined;
  }
  if (!stats.isDirectory()) return undefined;
  return join(userLockDir(), `${stats.dev}-${stats.ino}.lock`);
}

/** The user's folder of folder locks; made 0700, and refused when it is not this user's own. */
function userLockDir(): string {
  if (process.platform === 'win32') return join(tmpdir(), 'mch-sync', 'locks');
  return join('/tmp', `mch-sync-${process.getuid?.() ?? 0}`, 'locks');
}

/**
 * Makes the user's lock folder under the shared /tmp, or checks it: someone else could have made it
 * first, to hold our locks or read the records.
 */
function prepareUserLockDir(path: string): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw lockFailed(path, error);
  }
  if (process.getuid === undefined) return;
  for (const folder of [dirname(dir), dir]) {
    const stats = lstatSync(folder);
    if (!stats.isDirectory() || stats.uid !== process.getuid()) {
      throw new FolderLockError(
        'FOLDER_LOCK_FAILED',
        `${folder} is not a folder of this user, so folder locks kept there are not trusted: remove it.`,
      );
    }
    if ((stats.mode & 0o077) !== 0) chmodSync(folder, 0o700);
  }
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
  if (options.makeFolder !== false) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    } catch (error) {
      throw lockFailed(path, error);
    }
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
    return heldLock(path, db, options);
  }
}

/**
 * Takes both locks of a synced folder, the profile's (its index) and the folder's own (every process of
 * every profile of the user), or throws FOLDER_BUSY naming the holder, or FOLDER_MISSING.
 *
 * A folder that is missing (a disk not mounted) is refused rather than synced under the profile's lock
 * alone: the folder's lock is named by the folder itself, so a process that started without it could
 * not keep a second one, of another profile or through another path, from syncing the folder once it
 * appears, and two processes on one folder lose data. `run` refuses a missing folder anyway; the
 * window retries (pair-manager.ts), taking the folder's lock before its first pass. Nothing is kept
 * open in the folder: its disk can be ejected while the client runs (the engine then holds the pair).
 */
export function lockSyncedFolder(profileDir: string, folder: string): SyncedFolderLock {
  const options = { folder: resolve(folder), profile: resolve(profileDir) };
  const profileLock = acquireFolderLock(folderLockPath(profileDir, folder), options);
  const takeOwn = (): FolderLock => {
    const ownPath = folderOwnLockPath(folder);
    if (ownPath === undefined) throw missingFolder(options.folder);
    prepareUserLockDir(ownPath);
    const own = acquireFolderLock(ownPath, { ...options, makeFolder: false });
    try {
      refuseOverlapping(ownPath, options.folder);
    } catch (error) {
      own.release();
      throw error;
    }
    return own;
  };
  let folderLock: FolderLock;
  try {
    folderLock = takeOwn();
  } catch (error) {
    profileLock.release();
    throw error;
  }
  return {
    get path() {
      return folderLock.path;
    },
    renew: () => {
      // Taken before the old one is given up: no moment in which neither folder is held.
      if (folderOwnLockPath(folder) === folderLock.path) return;
      const renewed = takeOwn();
      folderLock.release();
      folderLock = renewed;
    },
    release: () => {
      folderLock.release();
      profileLock.release();
    },
  };
}

function heldLock(path: string, db: Database.Database, options: FolderLockOptions): FolderLock {
  const recordPath = holderRecordPath(path);
  const record: HolderRecord = {
    pid: process.pid,
    folder: options.folder,
    profile: options.profile,
    host: hostname(),
    startedAt: new Date().toISOString(),
  };
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

/** "Another mch-sync run (process 123, profile /p, since ...)", as far as the record tells. */
function holderWords(holder: HolderRecord | undefined): string {
  const who = 'Another mch-sync run';
  if (holder === undefined) return who;
  const facts = [
    `process ${holder.pid}${holder.host === '' || holder.host === hostname() ? '' : ` on ${holder.host}`}`,
    ...(holder.profile === '' ? [] : [`profile ${holder.profile}`]),
    ...(holder.startedAt === '' ? [] : [`since ${holder.startedAt}`]),
  ];
  return `${who} (${facts.join(', ')})`;
}

function busy(path: string, folder: string): FolderLockError {
  const holder = readHolder(path);
  const who = holderWords(holder);
  // The holder may have reached the folder through another path (a link): both are said.
  const theirs = holder?.folder ?? '';
  const what = theirs === '' || theirs === folder ? folder : `${folder} (as ${theirs})`;
  return new FolderLockError(
    'FOLDER_BUSY',
    `${who} is syncing ${what}: wait for it to finish, or stop it.`,
    holder === undefined ? undefined : { holderPid: holder.pid },
  );
}

/**
 * FOLDER_BUSY when another process syncs a folder around or inside this one (another profile's pair of
 * `~/Docs` while this is `~/Docs/Notes`): both would write the same files, as two processes on one
 * folder do. Taken after this folder's own lock, so of two such processes starting together at least
 * one sees the other. A record whose lock nobody holds (its process was killed) is a stale one, and
 * taking that lock for a moment, then giving it back, removes it.
 */
function refuseOverlapping(ownPath: string, folder: string): void {
  for (const other of overlappingLocks(ownPath, folder)) {
    let probe: FolderLock;
    try {
      probe = acquireFolderLock(other.path, {
        folder: other.holder.folder,
        profile: other.holder.profile,
        makeFolder: false,
      });
    } catch (error) {
      if (!(error instanceof FolderLockError) || error.code !== 'FOLDER_BUSY') continue;
      const relation = other.where === 'around' ? 'which holds' : 'which is inside';
      throw new FolderLockError(
        'FOLDER_BUSY',
        `${holderWords(other.holder)} is syncing ${other.holder.folder}, ${relation} ${folder}: two ` +
          `processes would write the same files. Stop that one, or sync only one of the two folders.`,
        { holderPid: other.holder.pid },
      );
    }
    probe.release();
  }
}

function missingFolder(folder: string): FolderLockError {
  return new FolderLockError(
    'FOLDER_MISSING',
    `The folder ${folder} does not exist (a disk that is not mounted?): nothing is synced until it is back.`,
  );
}

function lockFailed(path: string, error: unknown): FolderLockError {
  const code = sqliteCode(error) ?? (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new FolderLockError(
    'FOLDER_LOCK_FAILED',
    `Could not take the lock ${path} (${code}): check that you may write in ${dirname(path)}.`,
    { cause: error },
  );
}
