// A real `mch-sync run` (live) on the watcher bench's tree, once per environment, read from outside: does an allocator setting change the idle service's RSS?
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { addBenchPair, signInBenchProfile, type BenchProfile } from './bench-profile.ts';
import { startBenchDevice } from './device.ts';
import { workFolder } from './kept-setup.ts';
import { passOnce, withLiveRun } from './live-run.ts';
import { readMemoryMap, type MemoryMap } from './memory-map.ts';
import { inotifyWatches } from './process-usage.ts';
import { secondsSince } from './timing.ts';

const REMOTE_FOLDER = '/watcher-memory';
const PASS_TIMEOUT_MS = 3_600_000;

export interface LiveEnvironment {
  name: string;
  env: Record<string, string>;
}

export interface LiveMemory {
  environment: LiveEnvironment;
  /** Seconds from the start of `mch-sync run` to the end of its first pass. */
  readySeconds: number;
  /** Read `checkpoints` seconds after the first pass ended. */
  samples: { afterSeconds: number; memory: MemoryMap }[];
  watches: number;
}

/**
 * Mirrors `localRoot` to a device (kept in `keepDir` when given: the first upload takes minutes), then
 * runs `mch-sync run` once per environment, each read at every checkpoint after its first pass.
 */
export async function measureLiveRuns(
  localRoot: string,
  keepDir: string | undefined,
  shape: string,
  environments: LiveEnvironment[],
  checkpoints: number[],
): Promise<LiveMemory[]> {
  const folder = workFolder(keepDir, 'mch-watcher-memory-live-', shape);
  const device = await startBenchDevice(join(folder.path, 'device'), 60_000);
  try {
    const profile = await signInBenchProfile(device, join(folder.path, 'home'));
    await addBenchPair(profile, localRoot, REMOTE_FOLDER);
    const started = process.hrtime.bigint();
    const once = await passOnce(profile, localRoot, REMOTE_FOLDER, PASS_TIMEOUT_MS);
    console.log(`mch-sync run --once (mirroring the tree): ${once} in ${secondsSince(started).toFixed(1)} s`);
    folder.ready();
    const results: LiveMemory[] = [];
    for (const environment of environments) {
      const withEnv: BenchProfile = { ...profile, env: { ...profile.env, ...environment.env } };
      const result = await withLiveRun(withEnv, localRoot, REMOTE_FOLDER, async (run) => {
        const readySeconds = secondsSince(run.started);
        const samples: LiveMemory['samples'] = [];
        let waited = 0;
        for (const afterSeconds of checkpoints) {
          await sleep(Math.max(0, afterSeconds - waited) * 1000);
          waited = afterSeconds;
          samples.push({ afterSeconds, memory: readMemoryMap(run.pid) });
        }
        return { environment, readySeconds, samples, watches: inotifyWatches(run.pid) };
      });
      console.log(`mch-sync run, ${environment.name}: ${JSON.stringify(result)}`);
      results.push(result);
    }
    return results;
  } finally {
    await device.stop();
    folder.done();
  }
}
