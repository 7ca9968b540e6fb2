// The device's free space as a pass knows it: read once per pass, uploads that cannot fit held, and
// the paths the device refused with a 507 kept until it says more is free (issue #33).
import { ApiError } from '../../../common/errors.ts';
import type { SyncStatus } from '../../../common/sync-status.ts';
import { readDeviceStorage, type DeviceStorage } from '../../api/device-info/device-storage.ts';
import type { DeviceEndpoint } from '../../api/device-endpoint.ts';
import type { RelativePath } from '../../model/items.ts';
import type { Operation } from '../plan/operations.ts';
import type { SyncOptions } from '../engine-options.ts';
import type { PassIssue } from '../pass-report.ts';
import { fitUploads, heldUploadIssue, marginOf } from './upload-room.ts';

/** How old the last reading may be before a quiet poll asks again: the status's figure, not a guard. */
const QUIET_READ_MS = 10 * 60_000;

export class DeviceRoom {
  readonly #device: DeviceEndpoint;
  /** The last reading; undefined before the first, or when the last one failed. */
  #storage: DeviceStorage | undefined;
  /** Paths the device refused for want of space, with the free bytes known just after (undefined: none). */
  readonly #refused = new Map<RelativePath, number | undefined>();
  /** When the space was last asked for (answered or not), in ms since the epoch. */
  #askedAtMs = Number.NEGATIVE_INFINITY;
  /** Uploads held for want of room in the pass under way, and in the one before it. */
  #heldInPass = 0;
  #heldBefore = 0;

  constructor(device: DeviceEndpoint) {
    this.#device = device;
  }

  /**
   * At the start of every pass. A pass that is not a poll (the first, `sync now`, `run --once`) reads
   * the space once, and sends refused files again whatever the figure says: the user may have freed
   * space the device does not count yet. A poll reads it while an upload waits for room (so it goes as
   * soon as there is some), else only when the last reading is QUIET_READ_MS old: an idle folder's poll
   * stays one conditional listing per folder. A pass that trusts its cached listings (right after a
   * local change) asks nothing more of the device than its own changes. Between readings the pass goes
   * by the last one less what went up since. Never fails the pass: a device without the endpoint, or a
   * failed read, leaves the space unknown and the device's 507 to say when.
   */
  async beginPass(options: Pick<SyncOptions, 'signal' | 'remote' | 'scopeRemoteChanges'>): Promise<void> {
    const poll = options.scopeRemoteChanges === true;
    if (!poll) this.#refused.clear();
    this.#heldBefore = this.#heldInPass;
    this.#heldInPass = 0;
    if (options.remote === 'trust-cache') return;
    const waiting = this.#heldBefore > 0 || this.#refused.size > 0;
    if (!poll || waiting || Date.now() - this.#askedAtMs >= QUIET_READ_MS) await this.#read(options.signal);
  }

  /** The last reading, for the status; nothing when the device has not said. */
  status(): Pick<SyncStatus, 'device'> {
    const storage = this.#storage;
    if (storage === undefined) return {};
    const { freeBytes, totalBytes, checkedAtMs } = storage;
    return { device: { freeBytes, totalBytes, checkedAtMs } };
  }

  /** The round's plan without the uploads that cannot fit, and an issue for each of them. */
  holdUploads(operations: readonly Operation[]): { operations: Operation[]; issues: PassIssue[] } {
    const fitted = fitUploads(operations, this.#storage, this.#refused);
    this.#heldInPass += fitted.held.length;
    return { operations: fitted.operations, issues: fitted.held.map(heldUploadIssue) };
  }

  /**
   * After a round ran `operations`: each upload the device refused with a 507 (its issue DEVICE_FULL)
   * is remembered and its issue told in the hold's words, with the space read again (one read, only
   * when something was refused: the space went between the pass's reading and the upload). Uploads
   * that went are forgotten.
   */
  async afterRound(
    operations: readonly Operation[],
    issues: PassIssue[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const uploads = new Map<RelativePath, number>();
    for (const operation of operations) {
      if (operation.op === 'upload' || operation.op === 'upload-content')
        uploads.set(operation.path, operation.local.size);
    }
    const refused = issues.filter((issue) => issue.code === 'DEVICE_FULL' && uploads.has(issue.path));
    for (const path of uploads.keys()) this.#refused.delete(path);
    // What went up takes its room from the reading, for the passes that go by it (replaced content
    // counted whole: while it is written the device holds both).
    const failed = new Set(issues.map((issue) => issue.path));
    let sent = 0;
    for (const [path, size] of uploads) if (!failed.has(path)) sent += size;
    if (this.#storage !== undefined && sent > 0)
      this.#storage = { ...this.#storage, freeBytes: Math.max(0, this.#storage.freeBytes - sent) };
    if (refused.length === 0) return;
    await this.#read(signal);
    const storage = this.#storage;
    const free = storage?.freeBytes;
    for (const issue of refused) {
      this.#refused.set(issue.path, free);
      const sizeBytes = uploads.get(issue.path) ?? 0;
      const room = storage === undefined ? Infinity : storage.freeBytes - marginOf(storage.totalBytes);
      const missingBytes = Math.max(0, sizeBytes - room);
      const words = heldUploadIssue({ path: issue.path, sizeBytes, freeBytes: free, missingBytes });
      issues[issues.indexOf(issue)] = { ...words, ...(issue.side === undefined ? {} : { side: issue.side }) };
    }
  }

  async #read(signal: AbortSignal | undefined): Promise<void> {
    this.#askedAtMs = Date.now();
    try {
      this.#storage = await readDeviceStorage(this.#device, { signal });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'ABORTED') throw error;
      this.#storage = undefined;
    }
  }
}
