// What an on-demand pair's live service runs beside its passes: the hydration socket, the hydrator and the mount.
import { mkdir } from 'node:fs/promises';
import type { DeviceClient } from '../api/device-client.ts';
import type { IndexStore } from '../index/index-store.ts';
import { DEFAULT_NO_DOWNLOAD } from '../mount/no-download.ts';
import { startHydrationServer, type HydrationServer } from './hydration-server.ts';
import { Hydrator, type HydrationEvent } from './hydrator.ts';
import { HydrationJournal } from './hydration-journal.ts';
import { MountKeeper } from './mount-keeper.ts';
import type { HydrateRequest } from '../mount/hydration-protocol.ts';
import { inPlaceFreeOne, outcomeOf, type FreeOne } from './free-files.ts';

export interface OnDemandServiceOptions {
  client: Pick<DeviceClient, 'downloadInto'>;
  index: Pick<IndexStore, 'byInode'>;
  /** The cache folder the engine syncs. */
  cache: string;
  /** The user's folder, where the cache folder is shown. */
  mountPoint: string;
  /** The hydration socket's path (beside the control socket). */
  socketPath: string;
  /** Processes that never download (settings); default `DEFAULT_NO_DOWNLOAD`. */
  noDownload?: readonly string[];
  /** The device is known to be out of reach. */
  offline: () => boolean;
  /** A pass, waited for: brings a newer placeholder when the device's version changed. */
  refresh: () => Promise<void>;
  onHydration?: (request: HydrateRequest, event: HydrationEvent) => void;
  /** The folder was mounted, or lost its mount. */
  onMountChange?: (mounted: boolean) => void;
  log: (level: 'info' | 'warn', message: string, path?: string) => void;
}

export interface OnDemandService {
  readonly hydrator: Hydrator;
  /** The folder is mounted now (false for the moment a dead mount process is replaced). */
  readonly mounted: boolean;
  /** Makes a whole file a placeholder again: through the mount (which knows whether it is open), else in place. */
  readonly free: FreeOne;
  /** Unmounts, then closes the socket (a download under way fails for whoever still waits). */
  stop(): Promise<void>;
}

/** Starts the socket, then the mount; a mount that cannot start closes the socket and throws its error. */
export async function startOnDemandService(options: OnDemandServiceOptions): Promise<OnDemandService> {
  await mkdir(options.cache, { recursive: true, mode: 0o700 });
  // Nothing downloads yet: what a crash left half filled is put back first.
  const journal = new HydrationJournal(options.cache);
  const putBack = await journal.tidy(options.cache, options.index);
  if (putBack > 0) options.log('info', `${putBack} placeholder(s) left half filled by a crash put back`);
  const hydrator = new Hydrator({
    journal,
    client: options.client,
    index: options.index,
    cacheRoot: options.cache,
    offline: options.offline,
    refresh: options.refresh,
    log: (level, message, path) => options.log(level, message, path),
  });
  const server: HydrationServer = await startHydrationServer({
    socketPath: options.socketPath,
    hydrator,
    ...(options.onHydration === undefined ? {} : { onEvent: options.onHydration }),
    log: (level, message) => options.log(level, message),
  });
  let mount: MountKeeper;
  try {
    mount = await MountKeeper.start(
      {
        source: options.cache,
        mountPoint: options.mountPoint,
        socket: options.socketPath,
        noDownload: options.noDownload ?? DEFAULT_NO_DOWNLOAD,
      },
      {
        log: (level, message) => options.log(level, message),
        ...(options.onMountChange === undefined ? {} : { onChange: options.onMountChange }),
      },
    );
  } catch (error) {
    await server.close();
    throw error;
  }
  const inPlace = inPlaceFreeOne(options.cache);
  return {
    hydrator,
    get mounted() {
      return mount.mounted;
    },
    free: async (path, expected) => {
      const answer = await server.free(path, expected);
      // The mount is gone (it died, or is being restarted): nothing can hold the file open through it.
      if (answer === undefined) return inPlace(path, expected);
      if (answer.kind === 'freed') return 'freed';
      return outcomeOf({ type: 'free-refused', errno: answer.errno, message: answer.message });
    },
    stop: async () => {
      await mount.stop();
      await server.close();
    },
  };
}
