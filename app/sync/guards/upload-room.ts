// Which uploads of a round's plan fit on the device, and the words of one held for want of space (issue #33).
import { formatBytes } from '../../../common/units.ts';
import type { RelativePath } from '../../model/items.ts';
import { baseName } from '../../model/paths.ts';
import type { Operation } from '../plan/operations.ts';
import { unsyncedItem, type PassIssue } from '../pass-report.ts';

/** The device's size and free bytes as last read (GET /sdk/v2/device/storage). */
export interface KnownSpace {
  totalBytes: number;
  freeBytes: number;
}

const MIB = 1024 * 1024;

/**
 * What an upload leaves free on the device: 1 % of it, at least 64 KiB and at most 256 MiB. A device
 * filled to its last byte fails at everything (its database, its other clients' writes), and the file
 * system's own blocks and the figure's age make the last bytes uncertain anyway.
 */
export function marginOf(totalBytes: number): number {
  return Math.min(256 * MIB, Math.max(64 * 1024, Math.ceil(totalBytes / 100)));
}

/** An upload the round does not send: its path and size, and the space as known when it was held. */
export interface HeldUpload {
  path: RelativePath;
  sizeBytes: number;
  /** Undefined when no free space is known (the device does not say, or the reading failed). */
  freeBytes: number | undefined;
  /** Bytes to free before it fits (margin included); 0 when the figures say it fits but the device refused it. */
  missingBytes: number;
}

type Upload = Extract<Operation, { op: 'upload' | 'upload-content' }>;

function isUpload(operation: Operation): operation is Upload {
  return operation.op === 'upload' || operation.op === 'upload-content';
}

/**
 * Splits a plan into what runs and the uploads held: in plan order, each upload takes its size from
 * the room left (free less the margin); one that does not fit is held and the next may still fit. A
 * path the device refused with a 507 (`refused`: the free bytes known then, undefined if none) is held
 * until a reading shows more free than then. Everything else runs: downloads, moves, deletes, and
 * uploads of empty files, which take no room. Pure: the caller reads the space and keeps the refusals.
 */
export function fitUploads(
  operations: readonly Operation[],
  space: KnownSpace | undefined,
  refused: ReadonlyMap<RelativePath, number | undefined>,
): { operations: Operation[]; held: HeldUpload[] } {
  const run: Operation[] = [];
  const held: HeldUpload[] = [];
  let room = space === undefined ? Infinity : space.freeBytes - marginOf(space.totalBytes);
  for (const operation of operations) {
    if (!isUpload(operation) || operation.local.size === 0) {
      run.push(operation);
      continue;
    }
    const { path } = operation;
    const size = operation.local.size;
    const freeBytes = space?.freeBytes;
    const missingBytes = Math.max(0, size - room);
    const refusedAt = refused.has(path) ? (refused.get(path) ?? -1) : undefined;
    const stillRefused = refusedAt !== undefined && (freeBytes === undefined || freeBytes <= refusedAt);
    if (missingBytes > 0 || stillRefused) {
      held.push({ path, sizeBytes: size, freeBytes, missingBytes });
      continue;
    }
    room -= size;
    run.push(operation);
  }
  return { operations: run, held };
}

/** The issue of a held upload: the file, its size, the free space and what is missing, and what happens next. */
export function heldUploadIssue(held: HeldUpload): PassIssue {
  const name = `${baseName(held.path)} (${formatBytes(held.sizeBytes)})`;
  const after = 'Free space on the device; it is sent when there is room.';
  let message: string;
  if (held.freeBytes === undefined) {
    message = `${name} was refused by the device: it is full. ${after}`;
  } else if (held.missingBytes > 0) {
    const free = formatBytes(held.freeBytes);
    message = `${name} does not fit on the device: ${free} free, ${formatBytes(held.missingBytes)} missing. ${after}`;
  } else {
    // The device's figure and its refusal disagree (another client filled it meanwhile, a quota):
    // sent again once it says more is free than when it refused.
    const free = formatBytes(held.freeBytes);
    message = `${name} was refused by the device for want of space, with ${free} free. Free space on the device; it is sent when more is free.`;
  }
  return unsyncedItem('DEVICE_FULL', held.path, message);
}
