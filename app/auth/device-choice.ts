// Which of the user's devices this profile syncs with, and the address it answers on (device-api.md §1).
import { MchError } from '../../common/errors.ts';
import type { DeviceLookup, DeviceRecord } from '../api/cloud/device-lookup.ts';
import type { ChosenDevice, DeviceAddressRecord } from '../profile/settings.ts';

/**
 * The device to use: the one asked for (by id or name), else the one chosen before if it is still
 * listed, else the first listed. Undefined when the user has none, or when the one asked for is
 * not among them (the caller says so).
 */
export function pickDevice(
  devices: readonly DeviceRecord[],
  wanted: { requested?: string | undefined; previousId?: string | undefined },
): DeviceRecord | undefined {
  if (wanted.requested !== undefined) {
    const byId = devices.find((device) => device.deviceId === wanted.requested);
    return byId ?? devices.find((device) => device.name === wanted.requested);
  }
  return devices.find((device) => device.deviceId === wanted.previousId) ?? devices[0];
}

export interface ReachedDevice {
  device: ChosenDevice;
  via?: 'pinned' | 'internal' | 'proxy';
  /** Why no address answered, when none did. */
  unreachable?: string;
}

/** Probes the device's addresses; an unreachable device is still chosen, just without an address. */
export async function reachDevice(
  lookup: DeviceLookup,
  record: DeviceRecord,
  signal?: AbortSignal,
): Promise<ReachedDevice> {
  const device: ChosenDevice = { id: record.deviceId, name: record.name };
  const addresses = recordAddresses(lookup, record);
  if (addresses.length > 0) device.addresses = addresses;
  try {
    const chosen = await lookup.chooseDeviceUrl(record, { signal });
    return { device: { ...device, url: chosen.url }, via: chosen.via };
  } catch (error) {
    if (error instanceof MchError && error.code === 'DEVICE_UNREACHABLE') {
      return { device, unreachable: error.message };
    }
    throw error;
  }
}

/** The record's addresses in the words of the profile: the home network's, then the relay's. */
export function recordAddresses(lookup: DeviceLookup, record: DeviceRecord): DeviceAddressRecord[] {
  return lookup
    .candidates(record)
    .map((candidate) => ({ via: candidate.via === 'internal' ? 'home' : 'relay', url: candidate.url }));
}
