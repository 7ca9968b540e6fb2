// Which device a profile uses: the one asked for, else the previous one, else the first.
import { describe, expect, it } from 'vitest';
import type { DeviceRecord } from '../../../../app/api/cloud/device-lookup.ts';
import { pickDevice } from '../../../../app/auth/device-choice.ts';

function device(deviceId: string, name: string): DeviceRecord {
  return {
    deviceId,
    name,
    modelId: 'sebring',
    type: 'nas',
    serialNumber: '',
    createdOn: 0,
    network: { internalDNSName: '', internalURL: '', proxyURL: '', externalURI: '' },
  };
}

const devices = [device('d1', 'Home'), device('d2', 'Office')];

describe('pickDevice', () => {
  it('takes the one asked for, by id or by name', () => {
    expect(pickDevice(devices, { requested: 'd2' })?.name).toBe('Office');
    expect(pickDevice(devices, { requested: 'Office' })?.deviceId).toBe('d2');
    expect(pickDevice(devices, { requested: 'Garage', previousId: 'd1' })).toBeUndefined();
  });

  it('keeps the previous choice while it is listed, else takes the first', () => {
    expect(pickDevice(devices, { previousId: 'd2' })?.deviceId).toBe('d2');
    expect(pickDevice(devices, { previousId: 'gone' })?.deviceId).toBe('d1');
    expect(pickDevice([], {})).toBeUndefined();
  });
});
