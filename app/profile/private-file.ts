// Atomic file writes, and files only their owner may read: settings and, when there is no keychain, secrets.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Owner read and write only. */
export const PRIVATE_FILE_MODE = 0o600;
/** Owner only: the folder's listing says which files exist, and its files may hold secrets. */
export const PRIVATE_DIR_MODE = 0o700;

/** Modes mean nothing on Windows (ACLs decide there, and the profile is under the user's own folder). */
const modesApply = process.platform !== 'win32';

/** Creates the folder (and its parents) if missing; a new folder is private. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Writes `data` to `path` so that a reader sees the old or the new content, never a mix: a temporary
 * file in the same folder (same file system, so the rename is atomic) is written with mode 0600 from
 * the start, flushed, and renamed over the target.
 */
export async function writePrivateFileAtomic(path: string, data: string): Promise<void> {
  await ensurePrivateDir(dirname(path));
  await writeFileAtomic(path, data, PRIVATE_FILE_MODE);
}

/**
 * The same atomic write with another mode (a file manager's entry must be readable, a KDE service
 * menu executable). The folder must exist. The temporary file is never wider than `mode`. Bytes are
 * written as they are (a shared file edited byte for byte); a string as UTF-8.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const dir = dirname(path);
  const temporary = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(data, 'utf8');
    // The umask may have narrowed the mode, never widened it; chmod makes it exact either way.
    if (modesApply) await handle.chmod(mode);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDir(dir);
}

/** Flushes the folder entry so the rename itself survives a crash; not possible on Windows. */
async function syncDir(dir: string): Promise<void> {
  if (!modesApply) return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The file's text, or undefined when it does not exist. */
export async function readOptionalFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Makes an existing file private again if something widened its mode (a copy, an editor, a backup
 * restore). Returns the mode it had when that was wider than 0600, so the caller can say so.
 */
export async function restrictFileMode(path: string): Promise<number | undefined> {
  if (!modesApply) return undefined;
  let mode: number;
  try {
    mode = (await stat(path)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if ((mode & ~PRIVATE_FILE_MODE) === 0) return undefined;
  await chmod(path, PRIVATE_FILE_MODE);
  return mode;
}
