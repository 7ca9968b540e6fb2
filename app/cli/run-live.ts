// `mch-sync run` without --once: the live service with its control socket, log file and display, until stopped.
import { join } from 'node:path';
import type { DeviceClient } from '../api/device-client.ts';
import type { IndexStore } from '../index/index-store.ts';
import { openRotatingLog } from '../log/rotating-log.ts';
import { startControlServer } from '../service/control-server.ts';
import { controlSocketPath, folderKey } from '../service/control-socket-path.ts';
import { LiveSync } from '../service/live-sync.ts';
import { SyncEngine, type EngineLogLine } from '../sync/engine.ts';
import type { CommandContext } from './cli-context.ts';
import { plainDisplay, terminalDisplay, type LiveDisplay } from './live-display.ts';

export interface LiveRun {
  client: DeviceClient;
  index: IndexStore;
  localRoot: string;
  remoteFolder: string;
  verbose: boolean;
}

/** Where the live service of a folder writes its log: `<profile>/logs/live-<folder key>.log`. */
export function liveLogDir(profileDir: string): string {
  return join(profileDir, 'logs');
}

/**
 * Runs live sync until `context.deps.signal` aborts (Ctrl+C, SIGTERM). Returns the exit code: 0 after
 * a clean stop.
 */
export async function runLive(context: CommandContext, run: LiveRun): Promise<number> {
  const signal = context.deps.signal;
  const log = openRotatingLog({
    dir: liveLogDir(context.profileDir),
    name: `live-${folderKey(run.localRoot)}`,
    onError: (error) => context.warn(`the log file cannot be written (${error.message})`),
  });
  // The display reads the service's status, and the service reports to the display: set once both exist.
  const view: { display?: LiveDisplay } = {};
  const logLine = (line: EngineLogLine): void => {
    log.write(line);
    if (line.level === 'error' || line.level === 'warn' || run.verbose) {
      view.display?.note(`${line.level}: ${line.path === undefined ? '' : `${line.path}: `}${line.message}`);
    }
  };
  const live = new LiveSync({
    localRoot: run.localRoot,
    remoteFolder: run.remoteFolder,
    log: logLine,
    onChange: () => view.display?.changed(),
    engine: (events) =>
      new SyncEngine({
        client: run.client,
        index: run.index,
        localRoot: run.localRoot,
        remoteFolder: run.remoteFolder,
        env: context.deps.env,
        log: logLine,
        events: {
          ...events,
          onActivity: (entry) => {
            events.onActivity?.(entry);
            log.write({ level: 'info', message: entry.action, path: entry.path, atMs: entry.atMs });
          },
        },
      }),
  });
  const terminal = context.deps.terminal;
  const display =
    terminal === undefined
      ? plainDisplay(
          (line) => context.print(line),
          () => live.status(),
        )
      : terminalDisplay(terminal, () => live.status());
  view.display = display;
  const server = await startControlServer({
    socketPath: controlSocketPath(context.profileDir, run.localRoot),
    handler: {
      status: () => live.status(),
      pause: () => live.pause(),
      resume: () => live.resume(),
      syncNow: () => live.syncNow(),
      confirmDeletes: () => live.confirmDeletes(),
      restore: () => live.restore(),
    },
    log: (line) => log.write(line),
  });
  log.write({ level: 'info', message: `live sync of ${run.localRoot} with ${run.remoteFolder} started` });
  try {
    await live.start();
    await new Promise<void>((resolve) => {
      if (signal === undefined || signal.aborted) {
        resolve();
        return;
      }
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    await live.stop();
    await server.close();
    display.close();
    log.write({ level: 'info', message: 'live sync stopped' });
    await log.close();
  }
  context.print('Stopped. The next run continues from here.');
  return 0;
}
