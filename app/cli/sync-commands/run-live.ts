// `mch-sync run` without --once: the pair's live service with a display, until stopped.
import type { DeviceClient } from '../../api/device-client.ts';
import type { IndexStore } from '../../index/index-store.ts';
import type { DeviceRoute, RouteState } from '../../auth/device-route.ts';
import { startPairService } from '../../live-service/pair-service.ts';
import type { DeviceName } from '../../sync/guards/device-check.ts';
import type { FolderLockRenewal } from '../../sync/guards/folder-check.ts';
import type { EngineLogLine } from '../../sync/engine.ts';
import type { CommandContext } from '../terminal/cli-context.ts';
import { StateService } from '../../file-state/state-service.ts';
import { NetworkMonitor } from '../../network/network-monitor.ts';
import { openShareSession } from '../share-commands/share-session.ts';
import { commandStateActions } from '../state-commands/state-actions.ts';
import { plainDisplay, terminalDisplay, type LiveDisplay } from './live-display.ts';
import { connectionWords } from './connection-words.ts';

export { liveLogDir } from '../../live-service/pair-service.ts';

export interface LiveRun {
  client: DeviceClient;
  index: IndexStore;
  localRoot: string;
  remoteFolder: string;
  /** The device the profile chose. */
  device: DeviceName | undefined;
  /** The lock this run holds: it follows a replaced folder the user answered for. */
  folderLock: FolderLockRenewal;

  verbose: boolean;
  /** The process's state service, shared by the pairs of `run` without --folder. */
  states?: StateService;
  /** The process's network monitor (started); without it the run starts one of its own. */
  network?: NetworkMonitor;
  /** The device's addresses and the one in use (the status says which). */
  route?: DeviceRoute;
}

/**
 * Runs live sync until `context.deps.signal` aborts (Ctrl+C, SIGTERM). Returns the exit code: 0 after
 * a clean stop.
 */
export async function runLive(context: CommandContext, run: LiveRun): Promise<number> {
  const signal = context.deps.signal;
  // The display reads the service's status, and the service reports to the display: set once both exist.
  const view: { display?: LiveDisplay } = {};
  // A run of every pair shares the process's service; a run of one pair has its own.
  const states = run.states ?? (await startStates(context));
  const network = run.network ?? (await startNetwork(context));
  const route = run.route;
  const service = await startPairService({
    ...(states === undefined ? {} : { states }),
    network,
    profileDir: context.profileDir,
    client: run.client,
    index: run.index,
    localRoot: run.localRoot,
    remoteFolder: run.remoteFolder,
    ...(run.device === undefined ? {} : { device: run.device }),
    folderLock: run.folderLock,
    env: context.deps.env,
    onLogError: (error) => context.warn(`the log file cannot be written (${error.message})`),
    onLog: (line: EngineLogLine) => {
      if (line.level === 'error' || line.level === 'warn' || run.verbose) {
        view.display?.note(
          `${line.level}: ${line.path === undefined ? '' : `${line.path}: `}${line.message}`,
        );
      }
    },
    onChange: () => view.display?.changed(),
    ...(route === undefined ? {} : { connection: () => route.connection }),
  });
  const terminal = context.deps.terminal;
  view.display =
    terminal === undefined
      ? plainDisplay(
          (line) => context.print(line),
          () => service.live.status(),
        )
      : terminalDisplay(terminal, () => service.live.status());
  const onRoute = (state: RouteState): void => {
    view.display?.note(`Device: ${connectionWords({ via: state.via, reachable: state.reachable })}.`);
    view.display?.changed();
  };
  route?.on('change', onRoute);
  // A new network (another Wi-Fi, a cable, back from sleep) may change which address answers.
  const onNetwork = (): void => void route?.check();
  network.on('change', onNetwork);
  try {
    await new Promise<void>((resolve) => {
      if (signal === undefined || signal.aborted) {
        resolve();
        return;
      }
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    route?.off('change', onRoute);
    network.off('change', onNetwork);
    await service.stop();
    if (run.states === undefined) await states?.close();
    if (run.network === undefined) network.stop();
    view.display.close();
  }
  context.print('Stopped. The next run continues from here.');
  return 0;
}

/**
 * The state service of this run (the file manager's emblems and entries). Without it sync goes on:
 * a socket that cannot be made is said once, and the emblems are missing.
 */
export async function startStates(context: CommandContext): Promise<StateService | undefined> {
  let sharing: ReturnType<typeof openShareSession> | undefined;
  try {
    return await StateService.start({
      profileDir: context.profileDir,
      actions: commandStateActions(context),
      sharedIds: async () => {
        // Opened once; a failure (offline at start) is tried again at the next ask.
        sharing ??= openShareSession(context, []).catch((error: unknown) => {
          sharing = undefined;
          throw error;
        });
        const shares = await (await sharing).sharing.list();
        return new Set(shares.flatMap((share) => share.fileIds));
      },
    });
  } catch (error) {
    context.warn(`file managers cannot show sync states (${(error as Error).message})`);
    return undefined;
  }
}

/**
 * The network monitor of this run: NetworkManager on the system bus (MCH_NM_BUS_ADDRESS points it at
 * another, for tests), else interface addresses. Never fails: without a bus, metered is unknown.
 */
export async function startNetwork(context: CommandContext): Promise<NetworkMonitor> {
  const network = new NetworkMonitor({ env: context.deps.env });
  await network.start();
  return network;
}
