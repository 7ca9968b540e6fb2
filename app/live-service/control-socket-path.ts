// Where the control socket of one synced folder lives: the profile's run folder, else a private folder under the temp dir.
import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ControlError } from './control-errors.ts';
import { folderKey } from '../index/index-db.ts';

/**
 * The longest socket path used, in bytes: `sun_path` holds 104 bytes on macOS and the BSDs (108 on
 * Linux) including the final NUL. One limit for every platform keeps the choice the same everywhere.
 */
export const MAX_SOCKET_PATH_BYTES = 103;
/** The profile's folder of control sockets. */
export const RUN_DIR_NAME = 'run';

const PRIVATE_DIR_MODE = 0o700;

export interface SocketPlace {
  platform?: NodeJS.Platform;
  /** The temp folder of the fallback; default `os.tmpdir()`. */
  tmpdir?: string;
  /** The user's id, in the fallback folder's name; default `process.getuid()`. */
  uid?: number;
}

// The socket is named by the same key as the folder's index (index-db.ts).
export { folderKey };

/**
 * `<profile>/run/<folder key>.sock`; when that is longer than `MAX_SOCKET_PATH_BYTES`,
 * `<tmp>/mch-sync-<uid>/<key>.sock` (the key then covers the profile too, since the temp folder is
 * shared by every profile of the user), then the same under `/tmp`. On Windows a named pipe,
 * `\\.\pipe\mch-sync-<key>`, whose namespace is machine-wide: the key covers the user as well.
 * The service and the commands call this with the same inputs and so find the same socket.
 */
export function controlSocketPath(profileDir: string, localRoot: string, place: SocketPlace = {}): string {
  const platform = place.platform ?? process.platform;
  if (platform === 'win32') {
    const user = process.env['USERNAME'] ?? '';
    return `\\\\.\\pipe\\mch-sync-${sharedKey(user, profileDir, localRoot)}`;
  }
  const inProfile = join(resolve(profileDir), RUN_DIR_NAME, `${folderKey(localRoot)}.sock`);
  if (fits(inProfile)) return inProfile;
  const uid = place.uid ?? process.getuid?.() ?? 0;
  const name = `${sharedKey(String(uid), profileDir, localRoot)}.sock`;
  for (const base of [place.tmpdir ?? tmpdir(), '/tmp']) {
    const candidate = join(base, `mch-sync-${uid}`, name);
    if (fits(candidate)) return candidate;
  }
  throw new ControlError(
    'CONTROL_SOCKET_FAILED',
    `No control socket path fits in ${MAX_SOCKET_PATH_BYTES} bytes for the profile ${profileDir}: use a shorter profile path (--profile).`,
  );
}

/** Whether the socket is a Windows named pipe (no folder, no file to clean up). */
export function isNamedPipe(socketPath: string): boolean {
  return socketPath.startsWith('\\\\.\\pipe\\') || socketPath.startsWith('\\\\?\\pipe\\');
}

/**
 * Creates the socket's folder (0700) for the service. The folder must be this user's own: one under
 * the shared temp folder could have been made by someone else first, to listen in our place.
 */
export async function prepareControlSocketDir(socketPath: string): Promise<void> {
  if (isNamedPipe(socketPath)) return;
  const dir = dirname(socketPath);
  try {
    await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch (error) {
    throw new ControlError(
      'CONTROL_SOCKET_FAILED',
      `Cannot create the control socket folder ${dir} (${(error as Error).message}).`,
      { cause: error },
    );
  }
  const mode = await checkControlSocketDir(socketPath);
  // Ours but wider than 0700 (made by hand, or by an older version): narrow it back.
  if (mode !== undefined && (mode & 0o077) !== 0) await chmod(dir, PRIVATE_DIR_MODE);
}

/**
 * Checks that the socket's folder is a real folder of this user and returns its mode; undefined when
 * it does not exist (then no service runs). A socket in a folder of someone else is never trusted.
 */
export async function checkControlSocketDir(socketPath: string): Promise<number | undefined> {
  if (isNamedPipe(socketPath) || process.getuid === undefined) return undefined;
  const dir = dirname(socketPath);
  let stats;
  try {
    stats = await lstat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ControlError('CONTROL_SOCKET_FAILED', `Cannot read ${dir} (${(error as Error).message}).`, {
      cause: error,
    });
  }
  if (!stats.isDirectory() || stats.uid !== process.getuid()) {
    throw new ControlError(
      'CONTROL_SOCKET_FAILED',
      `${dir} is not a folder of this user, so its control socket is not trusted: remove it, or use a profile with a shorter path.`,
    );
  }
  return stats.mode & 0o777;
}

function fits(path: string): boolean {
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES;
}

function sharedKey(owner: string, profileDir: string, localRoot: string): string {
  return createHash('sha256')
    .update(`${owner}\0${resolve(profileDir)}\0${resolve(localRoot)}`)
    .digest('hex')
    .slice(0, 16);
}
