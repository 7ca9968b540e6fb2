// Files deleted here that the OS trash still holds (freedesktop.org trash, Linux): listed beside the device's deletes, and put back where they were.
import { cp, lstat, mkdir, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { mountPointOf } from '../sync/trash/freedesktop-trash.ts';
import { VersionsError } from './versions-errors.ts';

/** A file or folder deleted from the pair's folder on this computer, still in a trash. */
export interface TrashedEntry {
  /** Where it was, relative to the pair's folder. */
  path: string;
  /** When it went to the trash (the `.trashinfo`'s DeletionDate, local time). */
  trashedAtMs: number;
  /** Bytes of a file; 0 for a folder. */
  size: number;
  kind: 'file' | 'folder';
  /** In the trash: the item and its `.trashinfo` (absolute). */
  location: string;
  infoFile: string;
}

export interface TrashPlaces {
  /** `HOME` and `XDG_DATA_HOME` decide where the home trash is. */
  env: Readonly<Record<string, string | undefined>>;
  uid?: number;
}

/** The trash folders that can hold what was deleted from `folder`: the home trash and its disk's own. */
async function trashesFor(
  folder: string,
  places: TrashPlaces,
): Promise<{ trash: string; top: string | undefined }[]> {
  const home = places.env['HOME'] ?? homedir();
  const dataHome = places.env['XDG_DATA_HOME'];
  const homeTrash = join(
    dataHome !== undefined && isAbsolute(dataHome) ? dataHome : join(home, '.local', 'share'),
    'Trash',
  );
  const found = [{ trash: homeTrash, top: undefined as string | undefined }];
  try {
    const stats = await lstat(folder);
    const top = await mountPointOf(join(folder, '.'), stats.dev);
    const uid = places.uid ?? process.getuid?.() ?? 0;
    for (const trash of [join(top, '.Trash', String(uid)), join(top, `.Trash-${uid}`)]) {
      if (trash !== homeTrash) found.push({ trash, top });
    }
  } catch {
    // A folder that is not there: only the home trash can hold what was deleted from it.
  }
  return found;
}

/** `YYYY-MM-DDThh:mm:ss` as local time (the spec's DeletionDate), or 0 when unreadable. */
function deletionTime(text: string): number {
  const match = /^DeletionDate=(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/m.exec(text);
  if (match === null) return 0;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  return new Date(year ?? 0, (month ?? 1) - 1, day, hour, minute, second).getTime();
}

/**
 * What the trashes hold of the pair's `folder` (absolute, the user's folder), below `within` ('' all)
 * and deleted since `sinceMs`, newest first.
 */
export async function listTrashed(
  folder: string,
  places: TrashPlaces,
  within = '',
  sinceMs = 0,
): Promise<TrashedEntry[]> {
  const root = resolve(folder);
  const entries: TrashedEntry[] = [];
  for (const { trash, top } of await trashesFor(root, places)) {
    let names: string[];
    try {
      names = (await readdir(join(trash, 'info'))).filter((name) => name.endsWith('.trashinfo'));
    } catch {
      continue;
    }
    for (const name of names) {
      const infoFile = join(trash, 'info', name);
      const text = await readFile(infoFile, 'utf8').catch(() => '');
      const encoded = /^Path=(.*)$/m.exec(text)?.[1];
      if (encoded === undefined) continue;
      let original: string;
      try {
        original = decodeURIComponent(encoded);
      } catch {
        continue;
      }
      const absolute = isAbsolute(original) ? original : top === undefined ? undefined : join(top, original);
      if (absolute === undefined) continue;
      const path = relative(root, absolute).split(sep).join('/');
      if (path === '' || path.startsWith('../') || path === '..' || isAbsolute(path)) continue;
      if (within !== '' && path !== within && !path.startsWith(`${within}/`)) continue;
      const trashedAtMs = deletionTime(text);
      if (trashedAtMs < sinceMs) continue;
      const location = join(trash, 'files', name.slice(0, -'.trashinfo'.length));
      const stats = await lstat(location).catch(() => undefined);
      if (stats === undefined) continue;
      entries.push({
        path,
        trashedAtMs,
        size: stats.isDirectory() ? 0 : stats.size,
        kind: stats.isDirectory() ? 'folder' : 'file',
        location,
        infoFile,
      });
    }
  }
  return entries.sort((a, b) => b.trashedAtMs - a.trashedAtMs || a.path.localeCompare(b.path));
}

/** Puts a trashed item back where it was (its folders made again); refused when something is there now. */
export async function restoreTrashed(folder: string, entry: TrashedEntry): Promise<void> {
  const target = join(resolve(folder), ...entry.path.split('/'));
  if ((await lstat(target).catch(() => undefined)) !== undefined) {
    throw new VersionsError('DESTINATION_EXISTS', `${entry.path} exists again; it was left in the trash.`);
  }
  await mkdir(dirname(target), { recursive: true });
  try {
    await rename(entry.location, target);
  } catch (error) {
    // The home trash on another disk than the folder the engine syncs (an on-demand pair's cache
    // folder in the profile): copied over, then taken out of the trash.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(entry.location, target, {
      recursive: true,
      errorOnExist: true,
      force: false,
      preserveTimestamps: true,
    });
    await rm(entry.location, { recursive: true, force: true });
  }
  // The spec: the info file goes once its item left the trash.
  await unlink(entry.infoFile).catch(() => undefined);
}
