// Who holds a folder's lock, from the record beside it; and the held locks of folders around or inside one.
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, isAbsolute } from 'node:path';

/** Who holds a lock, for the message another run shows; it decides nothing. */
export interface HolderRecord {
  pid: number;
  folder: string;
  /** The holder's profile folder (absent in records of older versions). */
  profile: string;
  /** The computer it runs on: a folder on a network share may be synced from another. */
  host: string;
  startedAt: string;
}

/** The holder's record, beside the lock: the lock itself cannot be read while it is held. */
export function holderRecordPath(path: string): string {
  return `${path}.holder`;
}

/** The recorded holder, or undefined while it has not written one yet (or the record is damaged). */
export function readHolder(path: string): HolderRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(holderRecordPath(path), 'utf8')) as Partial<HolderRecord>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return undefined;
    return {
      pid: value.pid,
      folder: String(value.folder ?? ''),
      profile: String(value.profile ?? ''),
      host: String(value.host ?? ''),
      startedAt: String(value.startedAt ?? ''),
    };
  } catch {
    return undefined;
  }
}

/** A lock of the same folder of locks whose folder is around or inside the one given. */
export interface OverlappingLock {
  path: string;
  holder: HolderRecord;
  /** `around`: the holder's folder holds this one; `inside`: it is inside this one. */
  where: 'around' | 'inside';
}

/**
 * The locks beside `ownPath` (the user's folder of folder locks) whose recorded folder is around or
 * inside `folder`, links followed on both sides. Records only: whether each lock is still held is the
 * caller's to find out (a record can outlive a killed holder). The same folder is not listed: its own
 * lock says that.
 */
export function overlappingLocks(ownPath: string, folder: string): OverlappingLock[] {
  const dir = dirname(ownPath);
  const ours = realOrSame(folder);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const found: OverlappingLock[] = [];
  for (const name of names) {
    if (!name.endsWith('.lock.holder')) continue;
    const path = join(dir, name.slice(0, -'.holder'.length));
    if (path === ownPath) continue;
    const holder = readHolder(path);
    if (holder === undefined || holder.folder === '') continue;
    const theirs = realOrSame(holder.folder);
    if (within(ours, theirs)) found.push({ path, holder, where: 'around' });
    else if (within(theirs, ours)) found.push({ path, holder, where: 'inside' });
  }
  return found;
}

/** Whether `path` is strictly inside `folder`. */
function within(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
