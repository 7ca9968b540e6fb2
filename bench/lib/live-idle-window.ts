// The live service (`mch-sync run`) on a bench pair, read from outside: time to the end of its first pass, then its RSS, CPU and inotify watches over an idle window that includes its polls.
import type { BenchProfile } from './bench-profile.ts';
import { withLiveRun } from './live-run.ts';
import { readMemoryMap } from './memory-map.ts';
import { inotifyWatches, measureWindow } from './process-usage.ts';
import { secondsSince } from './timing.ts';

export interface LiveIdleFigures {
  /** From the start of `mch-sync run` to the end of its first pass (the watcher is ready before it). */
  firstPassSeconds: number;
  windowSeconds: number;
  /** CPU seconds of the service (all threads) in the window. */
  cpuSeconds: number;
  /** RSS at the end of the window and its highest one-second sample in it, MB. */
  endRssMb: number;
  windowPeakRssMb: number;
  /** VmHWM at the end: the highest RSS over the service's whole life (its first pass included). */
  lifePeakRssMb: number;
  /** V8's and glibc's shares of the RSS at the end (MB), to tell garbage from the allocator's keep. */
  brkHeapMb: number;
  otherAnonymousMb: number;
  watches: number;
}

/**
 * Starts `mch-sync run` on the pair, waits for its first pass, then reads it for `windowSeconds` (the
 * service's poll runs every 30 s, so a window of 60 s holds one or two) and stops it as a user does.
 */
export async function measureLiveIdle(
  profile: BenchProfile,
  localRoot: string,
  remoteFolder: string,
  windowSeconds: number,
): Promise<LiveIdleFigures> {
  return withLiveRun(profile, localRoot, remoteFolder, async (run) => {
    const firstPassSeconds = secondsSince(run.started);
    const window = await measureWindow(run.pid, windowSeconds);
    const memory = readMemoryMap(run.pid);
    return {
      firstPassSeconds,
      windowSeconds: window.seconds,
      cpuSeconds: window.cpuSeconds,
      endRssMb: window.endRssMb,
      windowPeakRssMb: window.peakRssMb,
      lifePeakRssMb: memory.peakRssMb,
      brkHeapMb: memory.brkHeapMb,
      otherAnonymousMb: memory.otherAnonymousMb,
      watches: inotifyWatches(run.pid),
    };
  });
}
