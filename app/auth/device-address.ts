// The address of the profile's chosen device, looked up again when it did not answer last time (device-api.md §1).
import { MchError } from '../../common/errors.ts';
import { reachDevice } from './device-choice.ts';
import type { Session } from './session.ts';

export class NoDeviceError extends MchError {
  constructor(message: string) {
    super('NO_DEVICE', 'No device', message);
  }
}

/** The saved address of the chosen device; probed again when none answered last time. */
export async function deviceAddress(session: Session, signal: AbortSignal | undefined): Promise<string> {
  const chosen = session.settings.device;
  if (chosen === undefined) {
    throw new NoDeviceError('This profile has no device yet: run `mch-sync devices` to choose one.');
  }
  if (chosen.url !== undefined) return chosen.url;
  const lookup = await session.deviceLookup(signal);
  const reached = await reachDevice(lookup, await lookup.getDevice(chosen.id, signal), signal);
  await session.saveDevice(reached.device);
  if (reached.device.url === undefined) {
    throw new NoDeviceError(
      `${reached.unreachable ?? 'The device does not answer.'} Check that it is on and connected, then run again.`,
    );
  }
  return reached.device.url;
}
