// The address of the profile's chosen device, looked up again when it did not answer last time (device-api.md §1), and the route that keeps it right while a run lasts.
import { MchError } from '../../common/errors.ts';
import { recordAddresses, reachDevice } from './device-choice.ts';
import { probeDevice } from '../api/cloud/device-lookup.ts';
import type { ChosenDevice } from '../profile/settings.ts';
import { DeviceRoute } from './device-route.ts';
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

export interface DeviceRouteChoice {
  /** How often the home address is tried again while on the relay (tests and benches shorten it). */
  homeRecheckMs?: number;
  /**
   * Whether an older profile's addresses are read from the device record in the background (default
   * true); a short command says false, so it does not wait on the device service before it exits.
   */
  learnAddresses?: boolean;
}

/**
 * The route of a run: the address that answered last, with every address of the device to switch
 * between. Nothing here waits on the network beyond `deviceAddress`: a profile saved before the
 * addresses were kept reads them from the device record in the background (and keeps them); until
 * then, or when the device service cannot be asked, the run keeps the one address it has.
 */
export async function deviceRoute(
  session: Session,
  signal: AbortSignal | undefined,
  choice: DeviceRouteChoice = {},
): Promise<DeviceRoute> {
  const current = await deviceAddress(session, signal);
  const saved = session.settings.device?.addresses;
  const route = new DeviceRoute({
    addresses: (saved ?? []).map((address) => ({ ...address })),
    current,
    probe: (url, probeSignal) => probeDevice(session.transport, url, { signal: probeSignal }),
    ...(choice.homeRecheckMs === undefined ? {} : { homeRecheckMs: choice.homeRecheckMs }),
    remember: (address) => {
      void rememberDevice(session, { url: address.url });
    },
  });
  if (saved === undefined && choice.learnAddresses !== false) void learnAddresses(session, route);
  return route;
}

/** Reads an older profile's device record once for its addresses; a failure leaves the run on the one it has. */
async function learnAddresses(session: Session, route: DeviceRoute): Promise<void> {
  const chosen = session.settings.device;
  if (chosen === undefined) return;
  try {
    const lookup = await session.deviceLookup();
    const addresses = recordAddresses(lookup, await lookup.getDevice(chosen.id));
    route.learn(addresses);
    await rememberDevice(session, { addresses });
  } catch {
    // Offline or the service refused: the next run asks again.
  }
}

/** Saves what the route found about the device (the address that answered, the addresses it has), best effort. */
async function rememberDevice(session: Session, change: Partial<ChosenDevice>): Promise<void> {
  try {
    await session.settingsFile.update((settings) =>
      settings.device === undefined ? settings : { ...settings, device: { ...settings.device, ...change } },
    );
  } catch {
    // The next start probes once more; nothing is lost.
  }
}

/** The route's timing from the environment: `MCH_HOME_RECHECK_SECONDS` (tests and benches shorten the wait on the relay). */
export function routeChoice(env: NodeJS.ProcessEnv): DeviceRouteChoice {
  const text = env['MCH_HOME_RECHECK_SECONDS'];
  const seconds = text === undefined ? NaN : Number(text);
  return Number.isFinite(seconds) && seconds > 0 ? { homeRecheckMs: seconds * 1000 } : {};
}
