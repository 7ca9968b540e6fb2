// The synced folders in the file managers' sidebars: a GTK bookmark and a KDE place per pair of the profile, put there by `integrate --install` and with a new pair, taken out by `--remove` and with the pair, and the profile's record of which are ours.
import { mkdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { listFolderPairs } from '../profile/folder-pairs.ts';
import { writeFileAtomic, writePrivateFileAtomic } from '../profile/private-file.ts';
import type { EntryDescription } from './entry-description.ts';
import { withGtkBookmark, withoutGtkBookmarks, type Bookmarks } from './gtk-bookmarks.ts';
import { guardedIo, IntegrateError } from './integrate-errors.ts';
import { EMPTY_XBEL, kdePlaceId, withKdePlace, withoutKdePlaces } from './kde-places.ts';

export type SidebarPlacesId = 'gtk-bookmarks' | 'kde-places';

/** One sidebar file and the profile whose pairs it shows. */
export interface SidebarPlacesTarget {
  kind: 'sidebar-places';
  id: SidebarPlacesId;
  /** The file manager `--status` looks for: the one most users of the file have. */
  program: string;
  path: string;
  profileDir: string;
  profileKey: string | undefined;
}

export function sidebarPlacesTargets(
  description: EntryDescription,
  folders: { data: string; config: string },
): SidebarPlacesTarget[] {
  const { profileDir, profileKey } = description;
  const common = { kind: 'sidebar-places', profileDir, profileKey } as const;
  const gtk = join(folders.config, 'gtk-3.0', 'bookmarks');
  return [
    // GTK 4's file chooser and Nautilus 4 read the gtk-3.0 file too: there is no gtk-4.0 one.
    { ...common, id: 'gtk-bookmarks', program: 'nautilus', path: gtk },
    { ...common, id: 'kde-places', program: 'dolphin', path: join(folders.data, 'user-places.xbel') },
  ];
}

/** install.ts's states, spelt again here: it imports this module. */
export type PlacesState = { state: 'installed' } | { state: 'outdated' } | { state: 'not-installed' };

// GTK's file has no room for a mark, so the profile remembers the lines it added; KDE's places carry
// our ID. A part of the record present means on: a pair added later gets its place in that file.
const RECORD_NAME = 'sidebar-places.json';
const partSchema = z.object({
  /** The file as the target named it (a link is followed each time). */
  file: z.string(),
  /** We created the file: it goes again with our last place if nothing else was put in it. */
  created: z.boolean(),
  /** GTK only: each line we added (as UTF-8 text) and its folder. */
  added: z.array(z.object({ folder: z.string(), line: z.string() })),
});
const recordSchema = z.object({
  version: z.literal(1),
  /** The profile's key in our KDE IDs (null: the default profile), for the pair hooks, which know no env. */
  profileKey: z.string().nullable(),
  'gtk-bookmarks': partSchema.optional(),
  'kde-places': partSchema.optional(),
});
type PlacesRecord = z.infer<typeof recordSchema>;
type RecordPart = z.infer<typeof partSchema>;

/** What a file we created holds again once our places are gone and nobody added any. */
const EMPTY: Record<SidebarPlacesId, string> = { 'gtk-bookmarks': '', 'kde-places': EMPTY_XBEL };
/** GTK and KDE make these files 0666 less the umask, 0644 for most; a new one is made 0644. */
const NEW_FILE_MODE = 0o644;

/** Which file is edited, for which profile. */
interface Where {
  id: SidebarPlacesId;
  key: string | undefined;
  /** The file's path, for messages. */
  path: string;
}

/** What the window shows as a pair's name: its folder's base name. */
function placeLabel(folder: string): string {
  return basename(folder) || folder;
}

/** `placed` with `folder`'s place, unless ours is there already or the user has one of the folder. */
function withPlace(where: Where, placed: Bookmarks, folder: string): Bookmarks {
  const label = placeLabel(folder);
  if (where.id === 'gtk-bookmarks') return withGtkBookmark(placed, folder, label);
  return {
    ...placed,
    bytes: withKdePlace(placed.bytes, { folder, label, profileKey: where.key }, where.path),
  };
}

/** `placed` with none of our places but those of the folders in `keep`. */
function withOnly(where: Where, placed: Bookmarks, keep: readonly string[]): Bookmarks {
  if (where.id === 'gtk-bookmarks') return withoutGtkBookmarks(placed, (folder) => !keep.includes(folder));
  const kept = new Set(keep.map((folder) => kdePlaceId(where.key, folder)));
  return { ...placed, bytes: withoutKdePlaces(placed.bytes, where.key, (id) => !kept.has(id), where.path) };
}

/** `placed` without our place of `folder`. */
function withoutPlace(where: Where, placed: Bookmarks, folder: string): Bookmarks {
  if (where.id === 'gtk-bookmarks') return withoutGtkBookmarks(placed, (each) => each === folder);
  const id = kdePlaceId(where.key, folder);
  return { ...placed, bytes: withoutKdePlaces(placed.bytes, where.key, (each) => each === id, where.path) };
}

/** `placed` with every pair's place and no other place of ours. */
function withEveryPair(where: Where, placed: Bookmarks, pairs: readonly string[]): Bookmarks {
  return pairs.reduce((result, folder) => withPlace(where, result, folder), withOnly(where, placed, pairs));
}

function pairFolders(profileDir: string): string[] {
  // A damaged pair record is reported by the commands that use pairs; here it simply has no place.
  return listFolderPairs(profileDir, () => {}).map((pair) => pair.localRoot);
}

// ---- What install.ts calls for a target ----

export async function sidebarPlacesState(target: SidebarPlacesTarget): Promise<PlacesState> {
  const part = (await readRecord(target.profileDir))?.[target.id];
  if (part === undefined) return { state: 'not-installed' };
  if (part.file !== target.path) return { state: 'outdated' };
  const file = await readPlacesFile(target.path);
  const where = { id: target.id, key: target.profileKey, path: file.path };
  const placed = withEveryPair(
    where,
    { bytes: file.bytes ?? '', added: part.added },
    pairFolders(target.profileDir),
  );
  return placed.bytes === (file.bytes ?? '') ? { state: 'installed' } : { state: 'outdated' };
}

/** Every pair's place in the file, none of ours of a pair gone; on from now on for pairs to come. */
export async function installSidebarPlaces(target: SidebarPlacesTarget): Promise<'written' | 'unchanged'> {
  let record = (await readRecord(target.profileDir)) ?? newRecord(target);
  const old = record[target.id];
  // Installed before into another file (other XDG folders then): ours go from there first.
  if (old !== undefined && old.file !== target.path) {
    await takeOut(target.profileDir, record, target.id, old.file, target.profileKey);
    record = { ...record, [target.id]: undefined };
  }
  const file = await readPlacesFile(target.path);
  const where = { id: target.id, key: target.profileKey, path: file.path };
  const before = record[target.id] ?? { file: target.path, created: false, added: [] };
  const placed = withEveryPair(
    where,
    { bytes: file.bytes ?? '', added: before.added },
    pairFolders(target.profileDir),
  );
  const record2 = { ...record, profileKey: target.profileKey ?? null };
  const { changed } = await commit(target.profileDir, record2, target.id, file, before, placed, true);
  return changed ? 'written' : 'unchanged';
}

/** None of ours in the file (KDE's found by their ID even without a record); off from now on. */
export async function removeSidebarPlaces(target: SidebarPlacesTarget): Promise<'removed' | 'absent'> {
  const record = (await readRecord(target.profileDir)) ?? newRecord(target);
  const part = record[target.id];
  let changed = false;
  for (const path of new Set([target.path, part?.file ?? target.path])) {
    changed = (await takeOut(target.profileDir, record, target.id, path, target.profileKey)) || changed;
  }
  return changed || part !== undefined ? 'removed' : 'absent';
}

async function takeOut(
  profileDir: string,
  record: PlacesRecord,
  id: SidebarPlacesId,
  path: string,
  key: string | undefined,
): Promise<boolean> {
  const file = await readPlacesFile(path);
  // The recorded lines are of the recorded file only: in another they could be the user's.
  const part = record[id];
  const before = part !== undefined && part.file === path ? part : { file: path, created: false, added: [] };
  const placed = withOnly({ id, key, path: file.path }, { bytes: file.bytes ?? '', added: before.added }, []);
  return (await commit(profileDir, record, id, file, before, placed, false)).changed;
}

// ---- The pair hooks: `folders add|remove` and the window's add and remove ----

/**
 * After a pair was added: its place in every sidebar file where the profile's places are on. A file
 * that cannot be changed is warned about, never thrown: the pair is added either way.
 */
export async function placePairInSidebars(
  profileDir: string,
  localRoot: string,
  warn: (message: string) => void,
): Promise<void> {
  await eachOnPart(profileDir, warn, (where, placed) => withPlace(where, placed, localRoot));
}

/** After a pair was removed: our place of its folder out of every sidebar file; warns, never throws. */
export async function takePairFromSidebars(
  profileDir: string,
  localRoot: string,
  warn: (message: string) => void,
): Promise<void> {
  await eachOnPart(profileDir, warn, (where, placed) => withoutPlace(where, placed, localRoot));
}

/** Runs `edit` on each file whose part of the record is on, in the file the part names. */
async function eachOnPart(
  profileDir: string,
  warn: (message: string) => void,
  edit: (where: Where, placed: Bookmarks) => Bookmarks,
): Promise<void> {
  const failed = (error: unknown): undefined => {
    if (!(error instanceof IntegrateError)) throw error;
    warn(`The folder's place in the file managers' sidebars was not changed: ${error.message}`);
  };
  let record = await readRecord(profileDir).catch(failed);
  for (const id of ['gtk-bookmarks', 'kde-places'] as const) {
    const part = record?.[id];
    if (record === undefined || part === undefined) continue;
    try {
      const file = await readPlacesFile(part.file);
      const where = { id, key: record.profileKey ?? undefined, path: file.path };
      const placed = edit(where, { bytes: file.bytes ?? '', added: part.added });
      record = (await commit(profileDir, record, id, file, part, placed, true)).record;
    } catch (error) {
      failed(error);
    }
  }
}

// ---- The files and the record ----

function newRecord(target: SidebarPlacesTarget): PlacesRecord {
  return { version: 1, profileKey: target.profileKey ?? null };
}

/**
 * Writes the file and the record's part of it (`on`: the part stays, with `placed`'s lines; else it
 * goes). The record is written first with every line we add (a crash between leaves a line we can
 * still take out, never one we do not know), then the file, then the record as it ends.
 */
async function commit(
  profileDir: string,
  record: PlacesRecord,
  id: SidebarPlacesId,
  file: PlacesFile,
  before: RecordPart,
  placed: Bookmarks,
  on: boolean,
): Promise<{ changed: boolean; record: PlacesRecord }> {
  const created = before.created || (file.bytes === undefined && placed.bytes !== '');
  const added = placed.added.filter((line) => !before.added.includes(line));
  if (added.length > 0) {
    await writeRecord(profileDir, {
      ...record,
      [id]: { ...before, created, added: [...before.added, ...added] },
    });
  }
  const changed = await writePlacesFile(file, placed.bytes, created, id);
  const after = { ...record, [id]: on ? { file: before.file, created, added: placed.added } : undefined };
  await writeRecord(profileDir, after);
  return { changed, record: after };
}

async function readRecord(profileDir: string): Promise<PlacesRecord | undefined> {
  const path = join(profileDir, RECORD_NAME);
  const text = await guardedIo(path, 'read', () => readFile(path, 'utf8').catch(absentAsUndefined));
  if (text === undefined) return undefined;
  try {
    return recordSchema.parse(JSON.parse(text));
  } catch {
    // Without it our GTK lines cannot be told from the user's: nothing is guessed.
    throw new IntegrateError(
      'INTEGRATION_FILE_INVALID',
      `${path} cannot be read, so the sidebar places mch-sync added cannot be told from yours. Delete it and run \`mch-sync integrate --install\` again (places added before stay, as yours).`,
    );
  }
}

/** Writes the record when it changed; a record with no part left goes. */
async function writeRecord(profileDir: string, record: PlacesRecord): Promise<void> {
  const path = join(profileDir, RECORD_NAME);
  if (record['gtk-bookmarks'] === undefined && record['kde-places'] === undefined) {
    await guardedIo(path, 'remove', () => rm(path, { force: true }));
    return;
  }
  const text = `${JSON.stringify(record, null, 2)}\n`;
  const current = await guardedIo(path, 'read', () => readFile(path, 'utf8').catch(absentAsUndefined));
  if (current !== text) await guardedIo(path, 'write', () => writePrivateFileAtomic(path, text));
}

/** A sidebar file: where it really is (a link followed), its bytes and mode; no bytes when missing. */
interface PlacesFile {
  path: string;
  bytes: string | undefined;
  mode: number;
}

async function readPlacesFile(given: string): Promise<PlacesFile> {
  // A link (a dotfiles folder) is followed: the file it points at is the one the file managers read.
  const path = await realpath(given).catch(() => given);
  return guardedIo(path, 'read', async () => {
    const content = await readFile(path).catch(absentAsUndefined);
    if (content === undefined) return { path, bytes: undefined, mode: NEW_FILE_MODE };
    return { path, bytes: content.toString('latin1'), mode: (await stat(path)).mode & 0o777 };
  });
}

/**
 * Writes `bytes` atomically with the file's own mode, only when they differ; a file we created that
 * holds nothing but what it started with once ours are gone is deleted. True when the file changed.
 */
async function writePlacesFile(
  file: PlacesFile,
  bytes: string,
  created: boolean,
  id: SidebarPlacesId,
): Promise<boolean> {
  if (bytes === (file.bytes ?? '')) return false;
  if (created && (bytes === EMPTY[id] || bytes === '')) {
    await guardedIo(file.path, 'remove', () => rm(file.path, { force: true }));
    return true;
  }
  await guardedIo(file.path, 'write', async () => {
    await mkdir(dirname(file.path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file.path, Buffer.from(bytes, 'latin1'), file.mode);
  });
  return true;
}

function absentAsUndefined(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw error;
}
