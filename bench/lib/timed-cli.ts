// One `mch-sync` command as its own process, timed from outside: wall time, CPU time and peak RSS (GNU time's maxrss, from wait4).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MCH_SYNC_BIN, runProcess, type CliRun } from '../../test/helpers/mch-sync.ts';
import { secondsSince } from './timing.ts';

/** GNU time, which reports the child's rusage as wait4 gave it (ru_maxrss: its peak RSS). */
const TIME_BIN = '/usr/bin/time';

export interface TimedCliRun extends CliRun {
  /** From spawn to exit, as this process saw it. */
  seconds: number;
  /** User + system CPU seconds of the process. */
  cpu: number;
  /** Peak RSS of the process over its whole life, MB. */
  peakMb: number;
}

/** Runs `node bin/mch-sync.js args` under GNU time; `entry` replaces bin/mch-sync.js (a compiled build). */
export async function timedMchSync(
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; timeoutMs: number; entry?: string },
): Promise<TimedCliRun> {
  if (!existsSync(TIME_BIN)) {
    throw new Error(
      `${TIME_BIN} is missing: install GNU time (Debian: apt-get install time) to run this bench`,
    );
  }
  const folder = mkdtempSync(join(tmpdir(), 'mch-timed-cli-'));
  const report = join(folder, 'time');
  try {
    const started = process.hrtime.bigint();
    const run = await runProcess(
      TIME_BIN,
      ['-f', '%M %U %S', '-o', report, process.execPath, options.entry ?? MCH_SYNC_BIN, ...args],
      { env: options.env, timeoutMs: options.timeoutMs },
    );
    const seconds = secondsSince(started);
    const line = readFileSync(report, 'utf8').trim().split('\n').at(-1) ?? '';
    const [maxRssKb, user, system] = line.split(' ').map(Number);
    if (maxRssKb === undefined || Number.isNaN(maxRssKb))
      throw new Error(`no figures from ${TIME_BIN}: ${line}`);
    return { ...run, seconds, cpu: (user ?? 0) + (system ?? 0), peakMb: maxRssKb / 1024 };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
