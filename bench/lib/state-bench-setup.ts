// What the state-service benches start from: a device child, a profile signed in to it, folders of small files synced by a real `mch-sync run --once`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { signInBenchProfile, type BenchProfile } from './bench-profile.ts';
import { startBenchDevice, type BenchDevice } from './device.ts';
import { passOnce } from './live-run.ts';
import { secondsSince } from './timing.ts';

export interface StateBench {
  work: string;
  device: BenchDevice;
  profile: BenchProfile;
  /** Stops the device and removes the work folder. */
  close(): Promise<void>;
}

export async function startStateBench(prefix: string): Promise<StateBench> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  try {
    const device = await startBenchDevice(join(work, 'device'));
    try {
      const profile = await signInBenchProfile(device, join(work, 'home'));
      return {
        work,
        device,
        profile,
        close: async () => {
          await device.stop();
          rmSync(work, { recursive: true, force: true });
        },
      };
    } catch (error) {
      await device.stop();
      throw error;
    }
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

/** `count` files of 1-64 bytes directly in `dir`, named `file-00000.txt`… (sorted as numbered). */
export function writeFlatFolder(dir: string, count: number, prefix = 'file'): void {
  mkdirSync(dir, { recursive: true });
  const filler = 'abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789';
  for (let index = 0; index < count; index += 1) {
    const name = `${prefix}-${String(index).padStart(5, '0')}.txt`;
    writeFileSync(join(dir, name), filler.slice(index % 8, (index % 8) + 1 + (index % 64)));
  }
}

/** One `mch-sync run --once` of the folder with the real command (it pairs it); logs its counts. */
export async function syncOnce(bench: StateBench, folder: string, remoteFolder: string): Promise<void> {
  const started = process.hrtime.bigint();
  const summary = await passOnce(bench.profile, folder, remoteFolder);
  console.log(`synced ${folder} → ${remoteFolder} in ${secondsSince(started).toFixed(1)} s: ${summary}`);
}

/** The 1-minute load average, for the log: this machine is shared. */
export function load(): string {
  return loadavg()[0]?.toFixed(2) ?? '?';
}
