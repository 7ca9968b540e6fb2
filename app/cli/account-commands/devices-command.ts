// `mch-sync devices`: the account's devices, the one this profile uses and the address it answers on.
import type { DeviceRecord } from '../../api/cloud/device-lookup.ts';
import { pickDevice, reachDevice, type ReachedDevice } from '../../auth/device-choice.ts';
import { Session } from '../../auth/session.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import type { CommandContext } from '../terminal/cli-context.ts';

export interface DevicesJson {
  devices: Array<{
    id: string;
    name: string;
    modelId: string;
    type: string;
    serialNumber: string;
    /** The device this profile uses. */
    chosen: boolean;
    /** For the chosen device: the address that answered, or null when none did. */
    url: string | null;
    via: 'pinned' | 'internal' | 'proxy' | null;
  }>;
}

export async function runDevices(
  context: CommandContext,
  values: Record<string, string | boolean | undefined>,
): Promise<number> {
  const session = await Session.open(context.auth);
  const signal = context.deps.signal;
  const lookup = await session.deviceLookup(signal);
  const devices = await lookup.listDevices(session.settings.user.id, signal);
  const record = pickDevice(devices, { previousId: session.settings.device?.id });
  let reached: ReachedDevice | undefined;
  if (record !== undefined) {
    reached = await reachDevice(lookup, record, signal);
    // Remember the address that answers now (or that none does), for the commands that follow.
    await session.saveDevice(reached.device);
  }
  if (values['json'] === true) {
    context.print(JSON.stringify(toJson(devices, reached), null, 2));
    return 0;
  }
  if (devices.length === 0) {
    context.print('Your account has no device yet: set one up, then run `mch-sync devices` again.');
    return 0;
  }
  for (const device of devices) {
    const chosen = reached !== undefined && device.deviceId === reached.device.id;
    const where = !chosen
      ? ''
      : reached?.device.url !== undefined
        ? `  ${reached.device.url} (${reached.via === 'proxy' ? 'through the relay' : 'home network'})`
        : '  not answering';
    // The name and id come from the device: a newline or an escape sequence in them stays inert.
    context.print(
      terminalSafe(`${chosen ? '*' : ' '} ${device.name || '(unnamed)'}  ${device.deviceId}${where}`),
    );
  }
  if (reached?.unreachable !== undefined) {
    context.warn(`${reached.unreachable} Check that the device is on and connected.`);
  }
  return 0;
}

function toJson(devices: readonly DeviceRecord[], reached: ReachedDevice | undefined): DevicesJson {
  return {
    devices: devices.map((device) => {
      const chosen = reached !== undefined && device.deviceId === reached.device.id;
      return {
        id: device.deviceId,
        name: device.name,
        modelId: device.modelId,
        type: device.type,
        serialNumber: device.serialNumber,
        chosen,
        url: chosen ? (reached?.device.url ?? null) : null,
        via: chosen ? (reached?.via ?? null) : null,
      };
    }),
  };
}
