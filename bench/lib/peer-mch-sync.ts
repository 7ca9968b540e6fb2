// Our client as the peers bench runs it: the device as a child process and one whole `mch-sync run --once` process per pass, each pair with a profile of its own.
import { join } from 'node:path';
import { STATE_FOLDER_NAME } from '../../app/model/names.ts';
import type { PassReport } from '../../app/sync/pass-report.ts';
import { ensureRemoteFolder } from '../../app/sync/remote/remote-folder.ts';
import { walkRemote } from '../../app/sync/remote/remote-walk.ts';
import { countedClient } from './bench-client.ts';
import { addBenchPair, signInBenchProfile, type BenchProfile } from './bench-profile.ts';
import { startBenchDevice } from './device.ts';
import type { PassFigures, PeerPair, PeerTool } from './peer-process.ts';
import { cpuSeconds, findPid } from './process-usage.ts';
import { timedMchSync } from './timed-cli.ts';

/** Our client's state folder in the tree it syncs: not one of the synced files. */
export const MCH_SYNC_SKIP: readonly string[] = [STATE_FOLDER_NAME];

/** Our tool, with what the start-up case needs besides the common shape. */
export interface MchSyncTool extends PeerTool {
  /** The signed-in profile of the pair made for `localRoot`. */
  profileOf(localRoot: string): BenchProfile | undefined;
}

/** `entry`: the bin/mch-sync.js each pass runs (the installed command's, built-entry.ts); the checkout's when absent. */
export async function startMchSync(work: string, timeoutMs: number, entry?: string): Promise<MchSyncTool> {
  const deviceDir = join(work, 'device');
  const device = await startBenchDevice(deviceDir);
  const devicePid = findPid(deviceDir);
  if (devicePid === undefined) {
    await device.stop();
    throw new Error('the device process was not found: its CPU time cannot be read');
  }
  const profiles = new Map<string, BenchProfile>();
  return {
    name: 'mch-sync',
    profileOf: (localRoot) => profiles.get(localRoot),
    pair: async (localRoot, remoteName): Promise<PeerPair> => {
      // A profile per pair: like the peers' new archives, the client starts with no index and no state.
      const profile = await signInBenchProfile(device, join(work, `home-${profiles.size + 1}`));
      const remoteFolder = `/${remoteName}`;
      await addBenchPair(profile, localRoot, remoteFolder);
      profiles.set(localRoot, profile);
      const args = ['--profile', profile.profile, 'run', '--once', '--json'];
      return {
        localRoot,
        sync: async (): Promise<PassFigures> => {
          const deviceStart = cpuSeconds(devicePid);
          const run = await timedMchSync([...args, '--folder', localRoot, '--remote-folder', remoteFolder], {
            env: profile.env,
            timeoutMs,
            ...(entry === undefined ? {} : { entry }),
          });
          const serverCpu = cpuSeconds(devicePid) - deviceStart;
          if (run.code !== 0)
            throw new Error(`run --once failed (${run.code}):\n${run.stdout}\n${run.stderr.slice(-4000)}`);
          const report = JSON.parse(run.stdout) as PassReport;
          if (report.status !== 'synced') {
            throw new Error(
              `run --once ended ${report.status}: ${JSON.stringify(report.hold ?? report.issues.slice(0, 5))}`,
            );
          }
          return { seconds: run.seconds, cpu: run.cpu, serverCpu };
        },
      };
    },
    remoteFiles: async (remoteName) => {
      const { client } = countedClient(device.base, device.token);
      const { id } = await ensureRemoteFolder(client, `/${remoteName}`);
      const { entries } = await walkRemote(client, id);
      const files = new Map<string, number>();
      for (const entry of entries.values()) if (entry.kind === 'file') files.set(entry.path, entry.size);
      return files;
    },
    stop: () => device.stop(),
  };
}
