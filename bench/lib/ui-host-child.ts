// A child process for the UI benches: the real UiCore of a profile behind the headless host, as `mch-sync ui --no-open` runs them, with the renderer folder given.
//
// `node ui-host-child.ts PROFILE RENDERER_DIR [--loop-delay]` prints `ui <address with the secret>`
// once the host listens (the pairs have started by then; their first pass runs on), and on SIGTERM
// stops the host and the core (every pass cleanly) and prints `report <json>` (a HostChildReport).
// The environment is the parent's choice (HOME, MCH_SECRET_STORE=file).
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { startUiHost } from '../../app/ui-host/ui-host.ts';
import { UiCore } from '../../app/ui/ui-core.ts';

export interface HostChildReport {
  /**
   * How late the host's event loop ran a 10 ms timer from when it listened, ms (only with --loop-delay): the
   * histogram's values less the 10 ms it waits on purpose, so 0 is a free loop and 250 a 250 ms block.
   */
  loopDelay: { p50: number; p95: number; p99: number; max: number; count: number } | null;
}

const LOOP_RESOLUTION_MS = 10;

/** Where a parent finds this script. */
export const UI_HOST_CHILD = import.meta.filename;

async function main(profileDir: string, rendererDir: string, watchLoop: boolean): Promise<void> {
  const log = (level: string, message: string): void => {
    if (level !== 'info') process.stderr.write(`ui-host-child: ${level}: ${message}\n`);
  };
  const core = await UiCore.open({
    profileDir,
    env: process.env,
    openExternal: async () => {
      throw new Error('no browser is opened from a bench');
    },
    log,
  });
  const host = await startUiHost({
    service: core,
    rendererDir,
    log: (line) => process.stderr.write(`ui-host-child: ${line}\n`),
  });
  // Off unless asked: its timer would wake an idle host 100 times a second. From now on only: what
  // blocked the loop before the host listened (loading, the watcher's first walk) kept no call waiting.
  let histogram: IntervalHistogram | undefined;
  if (watchLoop) {
    histogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    histogram.enable();
  }
  console.log(`ui ${host.openUrl}`);
  process.once('SIGTERM', () => {
    void (async () => {
      await host.close();
      await core.close();
      histogram?.disable();
      const ms = (ns: number): number => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
      const report: HostChildReport = {
        loopDelay:
          histogram === undefined
            ? null
            : {
                p50: ms(histogram.percentile(50)),
                p95: ms(histogram.percentile(95)),
                p99: ms(histogram.percentile(99)),
                max: ms(histogram.max),
                count: histogram.count,
              },
      };
      console.log(`report ${JSON.stringify(report)}`);
      process.exit(0);
    })();
  });
}

if (process.argv[1] === import.meta.filename) {
  const [profileDir, rendererDir, flag] = process.argv.slice(2);
  if (profileDir === undefined || rendererDir === undefined) {
    console.error('usage: ui-host-child.ts PROFILE RENDERER_DIR [--loop-delay]');
    process.exit(2);
  }
  await main(profileDir, rendererDir, flag === '--loop-delay');
}
