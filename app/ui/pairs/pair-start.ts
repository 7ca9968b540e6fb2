// One pair's live service started for the desktop core: its folder's locks, its index opened and checked against the device folder, the service itself; nothing left open when any step fails.
import type { DeviceConnection } from '../../../common/sync-status.ts';
import type { DeviceClient } from '../../api/device-client.ts';
import { indexFilePath, openIndexDb, type IndexDb } from '../../index/index-db.ts';
import { IndexStore } from '../../index/index-store.ts';
import { META_REMOTE_FOLDER } from '../../index/meta-keys.ts';
import { startPairService, type PairService, type PairStateSink } from '../../live-service/pair-service.ts';
import { lockSyncedFolder, type SyncedFolderLock } from '../../profile/folder-lock.ts';
import type { FolderPair } from '../../profile/folder-pairs.ts';
import type { DeviceName } from '../../sync/guards/device-check.ts';
import { PairError } from './pair-checks.ts';
import type { NetworkMonitor } from '../../network/network-monitor.ts';

/** What every pair's service is started with (the manager's options). */
export interface PairStartOptions {
  profileDir: string;
  env: NodeJS.ProcessEnv;
  /** The device client of the current sign-in. */
  client: DeviceClient;
  /** The device the profile chose: a pair synced with another one is held. */
  device?: DeviceName | undefined;
  /** How often the device is asked for changes; also how often a busy or missing folder is tried again. */
  pollMs?: number;
  ignoreRules?: string;
  warn: (message: string) => void;
  /** The core's state service (the file managers' emblems): every pair's service feeds it. */
  states?: PairStateSink;
  /** How the device is reached now (the core's DeviceRoute), for each pair's status. */
  connection?: () => DeviceConnection;
  /** The core's network monitor: a metered network pauses each pair that does not sync on one. */
  network?: NetworkMonitor;
}

/**
 * What is done while a pair's service is stopped (the manager's whileStopped): with what its service
 * starts with, and its folder's lock, held meanwhile.
 */
export type StoppedWork = (
  pair: FolderPair,
  stopped: { start: PairStartOptions; lock: SyncedFolderLock },
) => Promise<void>;

export interface StartedPair {
  lock: SyncedFolderLock;
  db: IndexDb;
  store: IndexStore;
  service: PairService;
}

/** Starts the pair's live service (it mounts an on-demand pair itself, from its record); throws why not. */
export async function startPair(
  options: PairStartOptions,
  pair: FolderPair,
  onChange: () => void,
): Promise<StartedPair> {
  let lock: SyncedFolderLock | undefined;
  let db: IndexDb | undefined;
  try {
    // Both locks of the folder before its index is opened: no other process of any profile syncs it.
    lock = lockSyncedFolder(options.profileDir, pair.localRoot);
    db = openIndexDb(indexFilePath(options.profileDir, pair.localRoot));
    const store = new IndexStore(db);
    const pairedWith = store.getMeta(META_REMOTE_FOLDER);
    if (pairedWith !== undefined && pairedWith !== pair.remoteFolder) {
      throw new PairError(
        'PAIR_FOLDER_INVALID',
        `${pair.localRoot} is synced with ${pairedWith} on the device, not ${pair.remoteFolder}.`,
      );
    }
    const service = await startPairService({
      profileDir: options.profileDir,
      client: options.client,
      index: store,
      localRoot: pair.localRoot,
      remoteFolder: pair.remoteFolder,
      ...(options.device === undefined ? {} : { device: options.device }),
      folderLock: lock,
      env: options.env,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      ...(options.ignoreRules === undefined ? {} : { ignoreRules: options.ignoreRules }),
      ...(options.states === undefined ? {} : { states: options.states }),
      ...(options.connection === undefined ? {} : { connection: options.connection }),
      ...(options.network === undefined ? {} : { network: options.network }),
      onLogError: (error) =>
        options.warn(`the log of ${pair.localRoot} cannot be written (${error.message})`),
      onChange,
    });
    return { lock, db, store, service };
  } catch (error) {
    db?.close();
    lock?.release();
    throw error;
  }
}
