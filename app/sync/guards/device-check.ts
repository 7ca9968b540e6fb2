// Before a pass reads the device: is it the device this pair synced with? A new or reset device at the same address is held, never read as "everything gone".
import { ApiError } from '../../../common/errors.ts';
import type { DeviceClient } from '../../api/device-client.ts';
import type { IndexStore } from '../../index/index-store.ts';
import { answersHold, forgetSyncedItems, type HoldAnswer } from './folder-check.ts';
import { META_REMOTE_ROOT } from '../../index/meta-keys.ts';
import { withAdvice } from './hold-advice.ts';
import type { PassHold } from '../pass-report.ts';

/** Index meta key of the recorded `SyncedDevice` as JSON. */
export const META_DEVICE = 'device';

/** The device a pair syncs with, as the profile names it. */
export interface DeviceName {
  id: string;
  name: string;
}

/**
 * What the pair synced with: the id of the user's root folder on the device (a reset or replaced
 * device has another, whatever its address), and the profile's device when the caller said.
 */
export interface SyncedDevice {
  rootId: string;
  device?: DeviceName;
}

export type DeviceCheck = { kind: 'same' } | { kind: 'held'; hold: PassHold } | { kind: 'started-again' };

/**
 * Compares the device the client reaches (and the device the profile chose) with the recorded one.
 * Unrecorded (a new pair, or one synced by an older version): recorded when it is surely the same
 * device (the pair is new, or its remote folder is still there by id). Changed: held, unless the user
 * answered restore: the pair starts again with this device (items, kept listings and the remote
 * folder's id forgotten; the folder is found or made by its path and both sides merged).
 */
export async function checkDevice(
  options: {
    client: DeviceClient;
    index: IndexStore;
    localRoot: string;
    remoteFolder: string;
    device?: DeviceName | undefined;
  },
  answer: HoldAnswer,
  signal: AbortSignal | undefined,
): Promise<DeviceCheck> {
  const { client, index } = options;
  const call = signal === undefined ? {} : { signal };
  const root = await client.getFile('root', call);
  const now: SyncedDevice = {
    rootId: root.id,
    ...(options.device === undefined ? {} : { device: options.device }),
  };
  const recorded = recordedDevice(index);
  if (recorded === undefined) {
    if (index.count() === 0 || (await remoteRootStands(client, index, call))) record(index, now);
    return { kind: 'same' };
  }
  const otherDevice =
    recorded.device !== undefined && now.device !== undefined && recorded.device.id !== now.device.id;
  if (recorded.rootId === now.rootId && !otherDevice) {
    // A name changed on the device, or a caller that did not say which device before: kept up to date.
    if (now.device !== undefined && JSON.stringify(now.device) !== JSON.stringify(recorded.device))
      record(index, now);
    return { kind: 'same' };
  }
  if (answer.restore && answersHold(answer, 'device-changed')) {
    index.transaction(() => {
      forgetSyncedItems(index);
      index.listings.clear();
      index.deleteMeta(META_REMOTE_ROOT);
      record(index, now);
    });
    return { kind: 'started-again' };
  }
  const was = recorded.device === undefined ? 'another device' : nameOf(recorded.device);
  const is =
    now.device === undefined
      ? 'the device it reaches now'
      : recorded.device !== undefined && recorded.device.id === now.device.id
        ? `${nameOf(now.device)}, which was reset or replaced since (its folders are not the ones synced)`
        : nameOf(now.device);
  return {
    kind: 'held',
    hold: withAdvice(options.localRoot, {
      reason: 'device-changed',
      deletes: { local: 0, localTotal: index.count(), remote: 0, remoteTotal: 0 },
      what: `${options.localRoot} was synced with ${was}; this profile now reaches ${is}. Nothing was changed on either side.`,
    }),
  };
}

function nameOf(device: DeviceName): string {
  return `${device.name} (${device.id})`;
}

function recordedDevice(index: IndexStore): SyncedDevice | undefined {
  const text = index.getMeta(META_DEVICE);
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<SyncedDevice>;
    return typeof value.rootId === 'string' ? (value as SyncedDevice) : undefined;
  } catch {
    return undefined;
  }
}

function record(index: IndexStore, device: SyncedDevice): void {
  index.setMeta(META_DEVICE, JSON.stringify(device));
}

/** Whether the remote folder an older version recorded is still on this device (so it is the same one). */
async function remoteRootStands(
  client: DeviceClient,
  index: IndexStore,
  call: { signal?: AbortSignal },
): Promise<boolean> {
  const known = index.getMeta(META_REMOTE_ROOT);
  if (known === undefined) return false;
  try {
    await client.getFile(known, call);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') return false;
    throw error;
  }
}
