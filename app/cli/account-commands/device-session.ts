// The signed-in session and a client of the chosen device, as every command that talks to the device needs them.
import { DeviceClient } from '../../api/device-client.ts';
import { deviceRoute } from '../../auth/device-address.ts';
import { Session } from '../../auth/session.ts';
import type { CommandContext } from '../terminal/cli-context.ts';

export interface DeviceSession {
  session: Session;
  client: DeviceClient;
}

/** Opens the profile's sign-in (SIGN_IN_REQUIRED when there is none) and a client of its device. */
export async function openDeviceSession(context: CommandContext): Promise<DeviceSession> {
  const session = await Session.open(context.auth);
  // A command's requests follow the device's addresses too: one that gets no answer at home goes
  // through the relay (no timers: the route only checks when a request fails).
  const route = await deviceRoute(session, context.deps.signal, { learnAddresses: false });
  return { session, client: new DeviceClient({ deviceUrl: route, transport: session.transport }) };
}
