// Reads another process's CPU time, RSS and inotify watches from /proc (Linux), so a bench can measure a child from outside.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times; 100 on every Linux this runs on (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds the process has used so far, all its threads included. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5), utime and stime, are the 12th and 13th after the name.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident set size now, in MB (VmRSS of /proc/<pid>/status). */
/** CPU seconds the device process used so far; NaN where /proc cannot tell (or no pid is known). */
export function deviceCpuSeconds(pid: number | undefined): number {
  return pid === undefined ? Number.NaN : cpuSeconds(pid);
}

export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** Inotify watches the process holds, over all its inotify instances. */
export function inotifyWatches(pid: number): number {
  let watches = 0;
  for (const fd of readdirSync(`/proc/${pid}/fdinfo`)) {
    try {
      const info = readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8');
      watches += info.split('\n').filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // The descriptor was closed between the listing and the read.
    }
  }
  return watches;
}

/** The pid of a running process whose command line contains `fragment` (e.g. a data folder), if any. */
export function findPid(fragment: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (commandLine.includes(fragment)) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

export interface UsageWindow {
  seconds: number;
  cpuSeconds: number;
  /** RSS at the end of the window and its highest one-second sample, MB. */
  endRssMb: number;
  peakRssMb: number;
}

/** Samples a process for `seconds`: CPU time at both ends, RSS once a second. */
export async function measureWindow(pid: number, seconds: number): Promise<UsageWindow> {
  const started = process.hrtime.bigint();
  const cpuBefore = cpuSeconds(pid);
  let peakRssMb = rssMb(pid);
  for (let second = 0; second < seconds; second += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    peakRssMb = Math.max(peakRssMb, rssMb(pid));
  }
  const cpu = cpuSeconds(pid) - cpuBefore;
  const endRssMb = rssMb(pid);
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    cpuSeconds: cpu,
    endRssMb,
    peakRssMb: Math.max(peakRssMb, endRssMb),
  };
}
