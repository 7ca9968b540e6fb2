// Whole `mch-sync run --once` processes on the scale bench's pair, measured from outside, each checked for doing exactly what its case expects.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { PassReport } from '../../app/sync/pass-report.ts';
import type { BenchProfile } from './bench-profile.ts';
import { runFind } from './find-baseline.ts';
import { changesOf } from './pass-changes.ts';
import { timedMchSync, type TimedCliRun } from './timed-cli.ts';

/** One measured `run --once`: the process from outside and what its JSON report says. */
export interface CliFigures {
  seconds: number;
  cpu: number;
  peakMb: number;
  operations: Record<string, number>;
  changes: number;
  /** Whether the pass ended at the quiet check (its --verbose log says so) instead of planning. */
  quiet: boolean;
  /** Whether its first round planned only around the items that differ (quiet-differences.ts). */
  around: boolean;
  load: number;
}

/** What the runs are made on. */
export interface ScaleRunTarget {
  profile: BenchProfile;
  localRoot: string;
  remoteFolder: string;
  timeoutMs: number;
  /** `NODE_OPTIONS` for the measured processes, if any. */
  nodeOptions: string | undefined;
}

/** The debug lines of a pass that ended at the quiet check (quiet-pass.ts, or nothing differing). */
const QUIET_LINES = [
  'nothing changed on either side since the last settled pass',
  'the listings the device changed hold what the index has',
  'with no settled record, both sides still hold what the index has',
];

/** Rows on the device and the last time one changed: equal before and after means nothing was written. */
function deviceState(deviceDir: string): string {
  const db = new Database(join(deviceDir, 'device.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT count(*) AS n, max(updated_at) AS at FROM items').get() as {
      n: number;
      at: number;
    };
    return `${row.n} rows, last change ${row.at}`;
  } finally {
    db.close();
  }
}

export function describeCli(figures: CliFigures, findSeconds: number): string {
  const operations = Object.entries(figures.operations)
    .map(([op, count]) => `${op} ${count}`)
    .join(', ');
  return `${figures.seconds.toFixed(2)} s (${(figures.seconds / findSeconds).toFixed(2)}× find), CPU ${figures.cpu.toFixed(2)} s, peak RSS ${figures.peakMb.toFixed(0)} MB, ${figures.quiet ? 'quiet check' : figures.around ? 'planned around differences' : 'planned over everything'}${operations === '' ? '' : `; ${operations}`} (load ${figures.load.toFixed(2)})`;
}

export class ScaleRuns {
  readonly #target: ScaleRunTarget;

  constructor(target: ScaleRunTarget) {
    this.#target = target;
  }

  /** One `run --once --json` (with `--verbose` unless told otherwise); throws unless it exits 0. */
  async runOnce(
    options: { verbose?: boolean; entry?: string | undefined } = {},
  ): Promise<CliFigures & { run: TimedCliRun }> {
    const { profile, localRoot, remoteFolder, timeoutMs, nodeOptions } = this.#target;
    const load = loadavg()[0] as number;
    const env = nodeOptions === undefined ? profile.env : { ...profile.env, NODE_OPTIONS: nodeOptions };
    const run = await timedMchSync(
      [
        '--profile',
        profile.profile,
        'run',
        '--once',
        '--json',
        ...(options.verbose === false ? [] : ['--verbose']),
        '--folder',
        localRoot,
        '--remote-folder',
        remoteFolder,
      ],
      { env, timeoutMs, ...(options.entry === undefined ? {} : { entry: options.entry }) },
    );
    if (run.code !== 0)
      throw new Error(`run --once failed (${run.code}):\n${run.stdout}\n${run.stderr.slice(-4000)}`);
    const report = JSON.parse(run.stdout) as PassReport;
    return {
      run,
      seconds: run.seconds,
      cpu: run.cpu,
      peakMb: run.peakMb,
      operations: report.operations,
      changes: changesOf(report),
      quiet: QUIET_LINES.some((line) => run.stderr.includes(line)),
      around: run.stderr.includes('round 1: planned around'),
      load,
    };
  }

  /** A quiet `run --once`: fails unless it ended at the quiet check having changed nothing on either side. */
  async quiet(deviceDir: string, what: string, entry: string | undefined): Promise<CliFigures> {
    const tree = runFind(this.#target.localRoot).output;
    const device = deviceState(deviceDir);
    const figures = await this.runOnce({ entry });
    if (figures.changes > 0 || !figures.quiet)
      throw new Error(
        `${what}: a pass with nothing to do planned or changed something: ${figures.run.stdout}`,
      );
    if (runFind(this.#target.localRoot).output !== tree) throw new Error(`${what}: the local tree changed`);
    if (deviceState(deviceDir) !== device) throw new Error(`${what}: the device changed`);
    return figures;
  }

  /**
   * A `run --once` that must plan: fails unless it carried out exactly `expected` (operation → count),
   * and, when `way` is given, unless it planned that way.
   */
  async planned(
    what: string,
    expected: Record<string, number>,
    entry: string | undefined,
    way?: 'around differences' | 'over everything',
  ): Promise<CliFigures> {
    const figures = await this.runOnce({ entry });
    if (figures.quiet || JSON.stringify(figures.operations) !== JSON.stringify(expected)) {
      throw new Error(
        `${what}: expected a planned pass with ${JSON.stringify(expected)}: ${figures.run.stdout}`,
      );
    }
    if (way !== undefined && figures.around !== (way === 'around differences'))
      throw new Error(`${what}: expected a pass planned ${way}`);
    return figures;
  }
}
