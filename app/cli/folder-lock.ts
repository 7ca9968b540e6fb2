// One running `mch-sync run` per synced folder: a lock file in the profile, taken over when its process is gone.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MchError } from '../../common/errors.ts';
import { indexFilePath } from '../index/index-db.ts';

export type FolderLockErrorCode = 'FOLDER_BUSY' | 'FOLDER_LOCK_FAILED';

export class FolderLockError extends MchError {
  declare readonly code: FolderLockErrorCode;
  /** The process holding the lock, for FOLDER_BUSY. */
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

/** What a lock file holds: enough to tell whether its owner still runs and to say who it is. */
interface LockRecord {
  pid: number;
  /** Random, so that a release never removes a lock another process took over. */
  token: string;
  folder: string;
  startedAt: string;
}

export interface FolderLock {
  readonly path: string;
  /** Removes the lock if it is still this one's; safe to call twice. */
  release(): void;
}

export interface FolderLockOptions {
  /** The synced folder, for the message another run shows. */
  folder: string;
  pid?: number;
  now?: () => Date;
  /** Whether a process runs; by default `kill(pid, 0)`. */
  isProcessAlive?: (pid: number) => boolean;
}

/** `<profile>/index/<same hash as the index>.lock`: the lock sits beside the index it protects. */
export function folderLockPath(profileDir: string, folder: string): string {
  return indexFilePath(profileDir, folder).replace(/\.db$/, '.lock');
}

/** True while a process with this id exists (also when it belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock at `path` or throws FOLDER_BUSY naming the process that holds it. The record is
 * written to a private file and hard-linked into place, so the lock appears atomically and always
 * complete (O_EXCL alone would let another run read a lock file whose pid is not written yet).
 */
export function acquireFolderLock(path: string, options: FolderLockOptions): FolderLock {
  const isAlive = options.isProcessAlive ?? processAlive;
  const record: LockRecord = {
    pid: options.pid ?? process.pid,
    token: randomBytes(12).toString('hex'),
    folder: options.folder,
    startedAt: (options.now?.() ?? new Date()).toISOString(),
  };
  const text = `${JSON.stringify(record)}\n`;
  const draft = `${path}.${record.pid}.${record.token}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(draft, text, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    throw lockFailed(path, error);
  }
  try {
    // Two rounds: the second follows the removal of a stale lock; losing that race to another run is FOLDER_BUSY.
    for (let round = 0; round < 2; round += 1) {
      try {
        linkSync(draft, path);
        return ownedLock(path, text);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw lockFailed(path, error);
      }
      const held = readLock(path);
      if (held.kind === 'gone') continue;
      if (held.kind === 'record' && isAlive(held.record.pid)) throw busy(path, held.record);
      // A dead owner (or a file this client never writes): take over, unless it changed meanwhile.
      if (readText(path) === held.text) removeQuietly(path);
    }
    const last = readLock(path);
    throw last.kind === 'record'
      ? busy(path, last.record)
      : new FolderLockError('FOLDER_BUSY', `Another mch-sync run just took the lock ${path}.`);
  } finally {
    removeQuietly(draft);
  }
}

function ownedLock(path: string, text: string): FolderLock {
  let released = false;
  return {
    path,
    release: () => {
      if (released) return;
      released = true;
      if (readText(path) === text) removeQuietly(path);
    },
  };
}

type HeldLock =
  | { kind: 'gone' }
  | { kind: 'record'; record: LockRecord; text: string }
  | { kind: 'unreadable'; text: string };

function readLock(path: string): HeldLock {
  const text = readText(path);
  if (text === undefined) return { kind: 'gone' };
  try {
    const value = JSON.parse(text) as Partial<LockRecord>;
    if (typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0) {
      return {
        kind: 'record',
        text,
        record: {
          pid: value.pid,
          token: String(value.token ?? ''),
          folder: String(value.folder ?? ''),
          startedAt: String(value.startedAt ?? ''),
        },
      };
    }
  } catch {
    // Not ours: treated like a lock of a process that is gone.
  }
  return { kind: 'unreadable', text };
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw lockFailed(path, error);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone (another run took it over first): nothing to do.
  }
}

function busy(path: string, record: LockRecord): FolderLockError {
  const since = record.startedAt === '' ? '' : ` since ${record.startedAt}`;
  return new FolderLockError(
    'FOLDER_BUSY',
    `Another mch-sync run (process ${record.pid}${since}) is syncing ${record.folder || 'this folder'}: ` +
      `wait for it to finish. If no mch-sync is running, delete ${path}.`,
    { holderPid: record.pid },
  );
}

function lockFailed(path: string, error: unknown): FolderLockError {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new FolderLockError(
    'FOLDER_LOCK_FAILED',
    `Could not create the lock ${path} (${code}): check the profile folder's permissions.`,
    { cause: error },
  );
}
