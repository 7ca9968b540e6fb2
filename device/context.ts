// What every route of the device needs, built once per server and passed explicitly.
import type { Db } from './db/database.ts';
import type { JwtSigner } from './identity/jwt.ts';
import type { BlobStore } from './store/blobs.ts';
import type { DeviceRow } from './store/device-record.ts';
import type { ItemStore } from './store/items.ts';
import type { UserStore } from './store/users.ts';
import type { DeviceUrls } from './urls.ts';
import type { Deleter } from './store/deleter.ts';
import type { SearchIndexer } from './search/indexer.ts';
import type { Permissions } from './permissions.ts';
import type { FilePermStore } from './store/file-perms.ts';
import type { ShareStore } from './store/shares.ts';
import type { UploadStore } from './store/uploads.ts';
import type { UploadSweeper } from './store/upload-sweeper.ts';
import type { StorageMeter } from './store/storage-meter.ts';

export interface DeviceContext {
  db: Db;
  dataDir: string;
  device: DeviceRow;
  items: ItemStore;
  users: UserStore;
  permissions: Permissions;
  filePerms: FilePermStore;
  shares: ShareStore;
  blobs: BlobStore;
  /** The bytes stored, the capacity (`--capacity`) and the figures of GET /sdk/v2/device/storage. */
  storage: StorageMeter;
  deleter: Deleter;
  /** Unfinished resumable uploads, shared by both mounts of the device API. */
  uploads: UploadStore;
  /** Drops uploads that have received nothing for a while (device-api.md §3). */
  uploadSweeper: UploadSweeper;
  /** One per device, shared by both mounts of the device API. */
  searchIndexer: SearchIndexer;
  signer: JwtSigner;
  tokenTtlSeconds: number;
  /** Known once the server listens (the port may be chosen by the OS). */
  urls(): DeviceUrls;
  now(): number;
}
