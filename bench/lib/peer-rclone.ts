// rclone bisync (Debian's) as a peer of the sync client: `rclone serve sftp` on loopback in a process of its own, and one `rclone bisync` process per pass.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../test/helpers/free-port.ts';
import {
  localFiles,
  startPeerServer,
  timedPeerProcess,
  type PassFigures,
  type PeerPair,
  type PeerTool,
} from './peer-process.ts';

const USER = 'bench';
const PASSWORD = 'bench-peers';
/** The name of the sftp remote, defined by environment variables alone (RCLONE_CONFIG_<NAME>_...). */
const REMOTE = 'peer';

/**
 * rclone's defaults, named so the report can say them: 4 transfers and 8 checkers at once (our client
 * also moves 4 files at once).
 */
export const RCLONE_FLAGS: readonly string[] = ['--transfers', '4', '--checkers', '8'];

/** An environment that reads no config, cache or key of the user's: all under `home`. */
function rcloneEnv(home: string): NodeJS.ProcessEnv {
  mkdirSync(home, { recursive: true });
  const config = join(home, 'rclone.conf');
  writeFileSync(config, '');
  return {
    ...process.env,
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
    RCLONE_CONFIG: config,
  };
}

/** Starts `rclone serve sftp` with a user and password; remotes are folders under `work/root`. */
export async function startRclone(work: string, timeoutMs: number): Promise<PeerTool> {
  const root = join(work, 'root');
  mkdirSync(root, { recursive: true });
  const port = await freePort();
  // The server makes its host keys in its cache folder: a private HOME keeps them out of the user's.
  const server = await startPeerServer(
    'rclone',
    ['serve', 'sftp', '--addr', `127.0.0.1:${port}`, '--user', USER, '--pass', PASSWORD, root],
    rcloneEnv(join(work, 'server-home')),
    /SFTP server listening/,
  );
  const clientBase = rcloneEnv(join(work, 'client-home'));
  const prefix = `RCLONE_CONFIG_${REMOTE.toUpperCase()}_`;
  const clientEnv: NodeJS.ProcessEnv = {
    ...clientBase,
    [`${prefix}TYPE`]: 'sftp',
    [`${prefix}HOST`]: '127.0.0.1',
    [`${prefix}PORT`]: String(port),
    [`${prefix}USER`]: USER,
    // rclone takes a password only in its obscured form.
    [`${prefix}PASS`]: execFileSync('rclone', ['obscure', PASSWORD], {
      env: clientBase,
      encoding: 'utf8',
    }).trim(),
  };
  let pairs = 0;
  return {
    name: 'rclone bisync',
    pair: async (localRoot, remoteName, existing): Promise<PeerPair> => {
      // Through the server: its file cache would not see a folder made behind its back for minutes.
      if (!existing) execFileSync('rclone', ['mkdir', `${REMOTE}:${remoteName}`], { env: clientEnv });
      pairs += 1;
      // bisync keeps each pair's listings in its work folder: a new one is a pair with no history.
      const workdir = join(work, `bisync-${pairs}`);
      const args = ['bisync', localRoot, `${REMOTE}:${remoteName}`, '--workdir', workdir, ...RCLONE_FLAGS];
      let first = true;
      return {
        localRoot,
        sync: async (): Promise<PassFigures> => {
          // bisync refuses to run a pair it has no listings of until a --resync made them.
          const run = await timedPeerProcess(
            'rclone',
            first ? [...args, '--resync'] : args,
            clientEnv,
            server.pid,
            timeoutMs,
          );
          first = false;
          return { seconds: run.seconds, cpu: run.cpu, serverCpu: run.serverCpu };
        },
      };
    },
    remoteFiles: async (remoteName) => localFiles(join(root, remoteName)),
    stop: () => server.stop(),
  };
}
