// The signed-in session and a client of the chosen device, as every command that talks to the device needs them.
import { MchError } from '../../../common/errors.ts';
import { DeviceClient } from '../../api/device-client.ts';
import { reachDevice } from '../../auth/device-choice.ts';
import { Session } from '../../auth/session.ts';
import type { CommandContext } from '../terminal/cli-context.ts';

export class NoDeviceError extends MchError {
  constructor(message: string) {
    super('NO_DEVICE', 'No device', message);
  }
}

export interface DeviceSession {
  session: Session;
  client: DeviceClient;
}

/** Opens the profile's sign-in (SIGN_IN_REQUIRED when there is none) and a client of its device. */
export async function openDeviceSession(context: CommandContext): Promise<DeviceSession> {
  const session = await Session.open(context.auth);
  const deviceUrl = await deviceAddress(session, context.deps.signal);
  return { session, client: new DeviceClient({ deviceUrl, transport: session.transport }) };
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
