// The sync engine facade: one object per synced folder pair that runs passes (scan, walk, plan, execute).
import type { DeviceClient } from '../api/device-client.ts';
import type { IndexStore } from '../index/index-store.ts';
import type { PassReport } from './pass-report.ts';
import type { DeleteGuard } from './planner.ts';

export interface EngineLogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  path?: string;
}

export interface SyncEngineOptions {
  client: DeviceClient;
  /** The index of this folder pair; the engine is its only writer. */
  index: IndexStore;
  /** The local folder (absolute). */
  localRoot: string;
  /** The remote folder as a slash path from the device root (`/Photos/2024`); created on the first pass. */
  remoteFolder: string;
  /** For conflicted-copy names and reports; default `() => new Date()`. */
  now?: () => Date;
  log?: (line: EngineLogLine) => void;
  deleteGuard?: DeleteGuard;
  /** Uploads and downloads at once (default 4). */
  transferConcurrency?: number;
  /** Where the OS trash is looked for (tests pass their own HOME); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Treat names differing only in case as one (default: probed in the local folder). */
  caseInsensitive?: boolean;
}

export interface SyncOptions {
  /** Go ahead with a pass the mass-delete guard would hold. */
  confirmDeletes?: boolean;
  signal?: AbortSignal;
}

export declare class SyncEngine {
  constructor(options: SyncEngineOptions);
  /** One pass (with a few re-planning rounds after 412s); never throws for a per-item problem. */
  syncOnce(options?: SyncOptions): Promise<PassReport>;
}
