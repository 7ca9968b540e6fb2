// The freedesktop.org Trash specification 1.0 on Linux and the BSDs: the home trash and the top-directory trash.
import { lstat, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { makeFolders } from '../local/file-errors.ts';
import { errorCode } from '../local/local-paths.ts';

/** What the freedesktop.org trash needs to know; everything else is read from the file system. */
export interface FreedesktopTrashOptions {
  /** `$XDG_DATA_HOME` as given (ignored unless absolute, as the base directory spec says). */
  xdgDataHome: string | undefined;
  home: string;
  uid: number;
  /** Milliseconds since the epoch, for `DeletionDate`. */
  now: number;
}

/** The sticky bit (S_ISVTX), which Node's `fs.constants` does not export. */
const STICKY_BIT = 0o1000;

/** A trash that cannot take this item, and why; the caller tries the next place. */
export class TrashUnusable extends Error {}

/**
 * Moves `source` (already `lstat`ed: `sourceDev` is its device) into the home trash when it is on the
 * same device, else into its top directory's trash. Returns where it went; throws when neither can.
 */
export async function moveToFreedesktopTrash(
  source: string,
  sourceDev: number,
  options: FreedesktopTrashOptions,
): Promise<string> {
  const dataHome =
    options.xdgDataHome !== undefined && isAbsolute(options.xdgDataHome)
      ? options.xdgDataHome
      : join(options.home, '.local', 'share');
  const homeTrash = join(dataHome, 'Trash');
  const homeTrashDev = await deviceOfNearest(homeTrash);
  // Trash spec 1.0, "Trash directories": the home trash takes files from its own device only; a file
  // elsewhere would be copied, which is slow and not atomic. A failing home trash does not send a file
  // of its device to a top directory (on a single-disk system that would be `/.Trash-$uid`).
  if (homeTrashDev === sourceDev) {
    await ensureTrashFolders(homeTrash, 'home trash');
    // Home trash: `Path=` is absolute.
    return claimAndMove(source, homeTrash, source, options.now);
  }
  return moveToTopdirTrash(source, sourceDev, await mountPointOf(source, sourceDev), options);
}

/** The trash of the top directory (mount point) `topdir` that holds `source`. */
export async function moveToTopdirTrash(
  source: string,
  sourceDev: number,
  topdir: string,
  options: Pick<FreedesktopTrashOptions, 'uid' | 'now'>,
): Promise<string> {
  const trash = await topdirTrash(topdir, sourceDev, options.uid);
  // Top-directory trash: `Path=` is relative to the top directory.
  return claimAndMove(source, trash, relative(topdir, source), options.now);
}

/** The device of `path`, or of its nearest existing ancestor when it does not exist yet. */
async function deviceOfNearest(path: string): Promise<number | undefined> {
  for (let current = path; ; current = dirname(current)) {
    try {
      return (await stat(current)).dev;
    } catch {
      if (dirname(current) === current) return undefined;
    }
  }
}

/** The highest ancestor of `path` on the same device: the "top directory" of the spec. */
export async function mountPointOf(path: string, dev: number): Promise<string> {
  let top = dirname(path);
  for (let parent = dirname(top); parent !== top; top = parent, parent = dirname(top)) {
    if ((await stat(parent)).dev !== dev) break;
  }
  return top;
}

/** `$topdir/.Trash/$uid` when an administrator prepared `.Trash` (sticky, no symlink), else `$topdir/.Trash-$uid`. */
async function topdirTrash(topdir: string, dev: number, uid: number): Promise<string> {
  const shared = join(topdir, '.Trash');
  const sharedStats = await lstat(shared).catch(() => undefined);
  // Spec: `.Trash` must be a real folder with the sticky bit, else it is ignored (and should be reported).
  if (sharedStats?.isDirectory() === true && (sharedStats.mode & STICKY_BIT) !== 0) {
    const mine = join(shared, String(uid));
    try {
      await ensureTrashFolders(mine, 'shared top-directory trash');
      await checkOwnTrash(mine, dev, uid);
      return mine;
    } catch {
      // Spec: when `$topdir/.Trash/$uid` cannot be used, `$topdir/.Trash-$uid` is next.
    }
  }
  const own = join(topdir, `.Trash-${uid}`);
  await ensureTrashFolders(own, 'top-directory trash');
  await checkOwnTrash(own, dev, uid);
  return own;
}

/** A trash folder someone else made (or a symlink planted there) is not used. */
async function checkOwnTrash(trash: string, dev: number, uid: number): Promise<void> {
  const stats = await lstat(trash);
  if (!stats.isDirectory() || stats.uid !== uid || stats.dev !== dev) {
    throw new TrashUnusable(`${trash} is not a folder of this user on the file's device`);
  }
}

/** Creates `trash`, `trash/files` and `trash/info` as needed (the spec says: without asking), mode 0700. */
async function ensureTrashFolders(trash: string, what: string): Promise<void> {
  try {
    // The real reason when it cannot be made (EROFS on a read-only disk; a recursive mkdir says ENOENT).
    await makeFolders(join(trash, 'files'), 0o700);
    await makeFolders(join(trash, 'info'), 0o700);
  } catch (error) {
    throw new TrashUnusable(`the ${what} ${trash} cannot be created: ${errorCode(error)}`, { cause: error });
  }
}

/** At most this many names are tried before the trash is called unusable. */
const MAX_NAME_ATTEMPTS = 1000;

/**
 * Spec, "Contents of a trash directory": the `.trashinfo` file is created first with O_EXCL, which
 * claims the name atomically against other trash implementations; then the item is renamed into
 * `files/` under that name. Collisions take `name.2`, `name.3`...
 */
async function claimAndMove(source: string, trash: string, infoPath: string, now: number): Promise<string> {
  const base = fitName(basename(source));
  const info = trashInfo(infoPath, now);
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt += 1) {
    const name = attempt === 1 ? base : `${base}.${attempt}`;
    const infoFile = join(trash, 'info', `${name}.trashinfo`);
    const target = join(trash, 'files', name);
    let handle;
    try {
      handle = await open(infoFile, 'wx', 0o600);
    } catch (error) {
      if (errorCode(error) === 'EEXIST') continue;
      throw new TrashUnusable(`cannot write ${infoFile}: ${errorCode(error)}`, { cause: error });
    }
    try {
      await handle.writeFile(info, 'utf8');
    } finally {
      await handle.close();
    }
    // A stray entry in `files/` without its info file must not be replaced: rename(2) would.
    const taken = await lstat(target).then(
      () => true,
      () => false,
    );
    if (taken) {
      await releaseClaim(infoFile);
      continue;
    }
    try {
      await rename(source, target);
      return target;
    } catch (error) {
      await releaseClaim(infoFile);
      throw new TrashUnusable(`cannot move into ${trash}: ${errorCode(error)}`, { cause: error });
    }
  }
  throw new TrashUnusable(`no free name in ${trash} after ${MAX_NAME_ATTEMPTS} tries`);
}

/** Removes the `.trashinfo` file this call created (never anything else): the item did not go there. */
async function releaseClaim(infoFile: string): Promise<void> {
  await unlink(infoFile).catch(() => undefined);
}

/** The `[Trash Info]` group: percent-encoded path (RFC 2396, `/` kept) and local time without zone. */
export function trashInfo(path: string, now: number): string {
  const encoded = path.split(sep).map(encodeURIComponent).join('/');
  return `[Trash Info]\nPath=${encoded}\nDeletionDate=${localTimestamp(new Date(now))}\n`;
}

/** `YYYY-MM-DDThh:mm:ss` in local time, as the spec asks (RFC 3339 without the zone). */
function localTimestamp(date: Date): string {
  const two = (value: number): string => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}` +
    `T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
  );
}

/** Bytes a name may have so that `NAME.NNNN.trashinfo` still fits the usual 255-byte limit. */
const MAX_NAME_BYTES = 255 - '.1000.trashinfo'.length;

/** Shortens a long name (at a character boundary) so its `.trashinfo` file can exist. */
function fitName(name: string): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  let fitted = '';
  for (const character of name) {
    if (Buffer.byteLength(fitted + character) > MAX_NAME_BYTES) break;
    fitted += character;
  }
  return fitted;
}
