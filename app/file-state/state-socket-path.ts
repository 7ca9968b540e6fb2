// Where the state services of one profile listen: one socket per running client, `<pid>.sock`, in the profile's run folder or a private one under the temp dir.
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MAX_SOCKET_PATH_BYTES, RUN_DIR_NAME } from '../live-service/control-socket-path.ts';

/** The folder of state sockets inside the profile's run folder. */
export const STATE_DIR_NAME = 'state';
/** A socket's name is the pid of its client: `4242.sock` (pids stay below 2^22 on Linux). */
export const STATE_SOCKET_PATTERN = /^[0-9]{1,10}\.sock$/;
// The longest name a socket in the folder can have: the folder must leave room for it.
const LONGEST_NAME = '4294967295.sock';

export interface StatePlace {
  platform?: NodeJS.Platform;
  tmpdir?: string;
  uid?: number;
}

/**
 * `<profile>/run/state`, else `<tmp>/mch-sync-<uid>/state-<key of uid and profile>` (then under /tmp)
 * when a socket's path there would not fit in `sun_path`. The file-manager extensions get this folder
 * written into them at install; the commands and the clients call it with the same inputs. On Windows
 * the prefix of the named pipes, `\\.\pipe\mch-sync-state-<key>-`.
 */
export function stateSocketDir(profileDir: string, place: StatePlace = {}): string {
  const platform = place.platform ?? process.platform;
  const uid = place.uid ?? process.getuid?.() ?? 0;
  if (platform === 'win32') {
    const user = process.env['USERNAME'] ?? '';
    return `\\\\.\\pipe\\mch-sync-state-${profileKey(user, profileDir)}-`;
  }
  const inProfile = join(resolve(profileDir), RUN_DIR_NAME, STATE_DIR_NAME);
  if (fits(inProfile)) return inProfile;
  for (const base of [place.tmpdir ?? tmpdir(), '/tmp']) {
    const candidate = join(base, `mch-sync-${uid}`, `state-${profileKey(String(uid), profileDir)}`);
    if (fits(candidate)) return candidate;
  }
  return join('/tmp', `mch-sync-${uid}`, `state-${profileKey(String(uid), profileDir)}`);
}

/** The socket of the client with this pid. */
export function stateSocketPath(dir: string, pid: number): string {
  return dir.startsWith('\\\\') ? `${dir}${pid}` : join(dir, `${pid}.sock`);
}

function fits(dir: string): boolean {
  return Buffer.byteLength(join(dir, LONGEST_NAME)) <= MAX_SOCKET_PATH_BYTES;
}

function profileKey(owner: string, profileDir: string): string {
  return createHash('sha256')
    .update(`${owner}\0${resolve(profileDir)}`)
    .digest('hex')
    .slice(0, 16);
}
