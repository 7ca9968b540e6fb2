// Unison (Debian's) as a peer of the sync client: its socket server on loopback in a process of its own, and one client process per pass.
import { mkdirSync } from 'node:fs';
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

/**
 * Never asks: -batch answers every question with its default, -auto takes the default actions, and
 * -confirmbigdel=false goes ahead when a whole replica seems emptied. -silent keeps its output short.
 * Everything else is Unison's default (fastcheck on, as on any Unix; no modification times synced).
 */
export const UNISON_FLAGS: readonly string[] = ['-batch', '-auto', '-silent', '-confirmbigdel=false'];

/** An empty HOME with the folder Unison keeps its archives in: a new one starts with no archive. */
function unisonHome(home: string): NodeJS.ProcessEnv {
  mkdirSync(join(home, '.unison'), { recursive: true });
  return { ...process.env, HOME: home, UNISON: join(home, '.unison') };
}

/** Starts `unison -socket PORT` with a private HOME; roots are folders under `work/root`. */
export async function startUnison(work: string, timeoutMs: number): Promise<PeerTool> {
  const root = join(work, 'root');
  mkdirSync(root, { recursive: true });
  const port = await freePort();
  const server = await startPeerServer(
    'unison',
    ['-socket', String(port)],
    unisonHome(join(work, 'server-home')),
    /server started/i,
  );
  let pairs = 0;
  return {
    name: 'unison',
    pair: async (localRoot, remoteName, existing): Promise<PeerPair> => {
      const remote = join(root, remoteName);
      if (!existing) mkdirSync(remote);
      pairs += 1;
      const env = unisonHome(join(work, `client-home-${pairs}`));
      // `//` after the address: an absolute path on the server (one slash is relative to its HOME).
      const args = [localRoot, `socket://127.0.0.1:${port}/${remote}`, ...UNISON_FLAGS];
      return {
        localRoot,
        sync: async (): Promise<PassFigures> => {
          const { seconds, cpu, serverCpu } = await timedPeerProcess(
            'unison',
            args,
            env,
            server.pid,
            timeoutMs,
          );
          return { seconds, cpu, serverCpu };
        },
      };
    },
    remoteFiles: async (remoteName) => localFiles(join(root, remoteName)),
    stop: () => server.stop(),
  };
}
