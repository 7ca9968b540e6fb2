// Moving a local file or folder out of the way after a remote delete: the OS trash, else the sync folder's own.
import { homedir } from 'node:os';
import { lstat, rename } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BugError, MchError } from '../../../common/errors.ts';
import { errnoOf, makeFolders } from '../local/file-errors.ts';
import { moveToFreedesktopTrash, TrashUnusable } from './freedesktop-trash.ts';
import { errorCode } from '../local/local-paths.ts';

/** Stable codes of `moveToTrash` failures. */
export type TrashErrorCode = 'TRASH_FAILED' | 'TRASH_SOURCE_MISSING';

/**
 * Nothing could take the item (TRASH_FAILED; it is still where it was and is retried later), or there
 * was nothing to move (TRASH_SOURCE_MISSING; the item is already gone locally).
 */
export class TrashError extends MchError {
  declare readonly code: TrashErrorCode;
  readonly path: string;
  /**
   * The file system's code for why the item could not be read, or why the last place tried (the
   * folder's own trash) could not take it: the folder's own reason, such as EROFS on a read-only disk.
   * Undefined when no file system call failed (no free name).
   */
  readonly errno: string | undefined;

  constructor(
    code: TrashErrorCode,
    path: string,
    message: string,
    options?: { cause?: unknown; errno?: string | undefined },
  ) {
    super(
      code,
      code === 'TRASH_FAILED' ? 'Could not move to trash' : 'Already gone',
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.path = path;
    this.errno = options?.errno;
  }
}

export interface MoveToTrashOptions {
  /** The synced folder that holds the item: its `.mch-sync/trash/` is the last resort. */
  syncRoot: string;
  /** Defaults to `process.platform`; tests pass another one to try each way. */
  platform?: NodeJS.Platform;
  /** Defaults to `process.env`: `HOME` and `XDG_DATA_HOME` decide where the OS trash is. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Milliseconds since the epoch; defaults to `Date.now`. */
  now?: () => number;
}

export interface TrashResult {
  /** `os-trash`: where the file manager shows it; `folder-trash`: `<syncRoot>/.mch-sync/trash/`. */
  kind: 'os-trash' | 'folder-trash';
  /** Where the item is now (absolute). */
  location: string;
}

/** The sync folder's own trash, relative to its root (the scanner skips `.mch-sync` at any depth). */
export const FOLDER_TRASH = join('.mch-sync', 'trash');

/**
 * Moves a file or a whole folder (with everything in it) to the OS trash, or when there is none that
 * can take it, to `<syncRoot>/.mch-sync/trash/<time>/<relative path>` (issue 5, "Deletes"). Only
 * renames: nothing of the user's is ever unlinked, copied or overwritten (the only unlink is of a
 * `.trashinfo` file this call created, when its item could not follow), and a symlink is moved as the
 * link itself.
 * On failure the item stays where it was and a `TrashError` is thrown.
 */
export async function moveToTrash(absolutePath: string, options: MoveToTrashOptions): Promise<TrashResult> {
  const source = resolve(absolutePath);
  const root = resolve(options.syncRoot);
  const relativePath = relative(root, source);
  if (
    !isAbsolute(absolutePath) ||
    relativePath === '' ||
    relativePath === '..' ||
    relativePath.startsWith(`..${sep}`) ||
    isAbsolute(relativePath)
  ) {
    throw new BugError(`moveToTrash: ${absolutePath} is not an absolute path inside ${options.syncRoot}`);
  }
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const now = (options.now ?? Date.now)();

  let sourceDev: number;
  try {
    // lstat: a symlink is trashed as itself, its target is never touched.
    sourceDev = (await lstat(source)).dev;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new TrashError('TRASH_SOURCE_MISSING', source, `${source} no longer exists; nothing was moved.`, {
        cause: error,
      });
    }
    throw new TrashError('TRASH_FAILED', source, `${source} cannot be read (${code}); will retry later.`, {
      cause: error,
      errno: errnoOf(error),
    });
  }

  const problems: string[] = [];
  const osTrash = await tryOsTrash(source, sourceDev, platform, env, now, problems);
  if (osTrash !== undefined) return { kind: 'os-trash', location: osTrash };
  try {
    return { kind: 'folder-trash', location: await moveToFolderTrash(source, root, relativePath, now) };
  } catch (error) {
    problems.push(describe(error));
    throw new TrashError(
      'TRASH_FAILED',
      source,
      `${source} could not be moved to a trash (${problems.join('; ')}); it was left in place and will be retried.`,
      { cause: error, errno: errnoOf(error instanceof TrashUnusable ? error.cause : error) },
    );
  }
}

/** The OS trash's answer: where the item went, or undefined (with the reason in `problems`). */
async function tryOsTrash(
  source: string,
  sourceDev: number,
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  now: number,
  problems: string[],
): Promise<string | undefined> {
  const home = env['HOME'] ?? homedir();
  try {
    switch (platform) {
      case 'win32':
        // The Recycle Bin is reachable only through the shell API (IFileOperation / SHFileOperation),
        // which needs native code or a PowerShell process per file: the folder trash is used instead.
        problems.push('no Recycle Bin access without native code');
        return undefined;
      case 'darwin':
        return await moveToMacTrash(source, home);
      case 'linux':
      case 'freebsd':
      case 'openbsd':
      case 'netbsd':
      case 'sunos':
      case 'aix':
      case 'android':
      case 'haiku':
      case 'cygwin':
        return await moveToFreedesktopTrash(source, sourceDev, {
          xdgDataHome: env['XDG_DATA_HOME'],
          home,
          uid: process.getuid?.() ?? 0,
          now,
        });
      default:
        problems.push(`no OS trash known for ${String(platform)}`);
        return undefined;
    }
  } catch (error) {
    problems.push(describe(error));
    return undefined;
  }
}

/**
 * `~/.Trash` under a name not yet taken (`name 2.ext` as the Finder does). A file on another volume
 * fails with EXDEV: its `/Volumes/X/.Trashes/$uid` is not used (not done), the folder trash is.
 */
async function moveToMacTrash(source: string, home: string): Promise<string> {
  const trash = join(home, '.Trash');
  const present = await lstat(trash).catch(() => undefined);
  if (present?.isDirectory() !== true) throw new TrashUnusable(`${trash} is not a folder`);
  const name = basename(source);
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const target = join(trash, attempt === 1 ? name : `${stem} ${attempt}${extension}`);
    if (await exists(target)) continue;
    try {
      await rename(source, target);
      return target;
    } catch (error) {
      throw new TrashUnusable(`cannot move into ${trash}: ${errorCode(error)}`, { cause: error });
    }
  }
  throw new TrashUnusable(`no free name in ${trash}`);
}

const MAX_ATTEMPTS = 1000;

/**
 * `<root>/.mch-sync/trash/<time>/<relative path>`, the relative path kept so the user can tell where
 * it came from. When that place is taken, `<time>-2`, `<time>-3`... : never over anything.
 */
async function moveToFolderTrash(
  source: string,
  root: string,
  relativePath: string,
  now: number,
): Promise<string> {
  if (relativePath.split(sep).includes('.mch-sync')) {
    throw new TrashUnusable('the item is inside the client state folder');
  }
  // Colons are not allowed in Windows names; UTC keeps the order across time zone changes.
  const stamp = new Date(now).toISOString().replaceAll(':', '-');
  try {
    await makeFolders(join(root, FOLDER_TRASH));
  } catch (error) {
    throw new TrashUnusable(`cannot create ${join(root, FOLDER_TRASH)}: ${errorCode(error)}`, {
      cause: error,
    });
  }
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const bucket = join(root, FOLDER_TRASH, attempt === 1 ? stamp : `${stamp}-${attempt}`);
    const target = join(bucket, relativePath);
    if (await exists(target)) continue;
    try {
      await makeFolders(dirname(target));
    } catch (error) {
      // A file where a parent folder should be: another bucket has room.
      if (errorCode(error) === 'EEXIST' || errorCode(error) === 'ENOTDIR') continue;
      throw new TrashUnusable(`cannot create ${bucket}: ${errorCode(error)}`, { cause: error });
    }
    // The check above and this rename are not one step (Node has no RENAME_NOREPLACE); only another
    // trash of the same path in the same millisecond could slip between them.
    try {
      await rename(source, target);
      return target;
    } catch (error) {
      throw new TrashUnusable(`cannot move into ${bucket}: ${errorCode(error)}`, { cause: error });
    }
  }
  throw new TrashUnusable(`no free place in ${join(root, FOLDER_TRASH)}`);
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    (error: unknown) => errorCode(error) !== 'ENOENT',
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
