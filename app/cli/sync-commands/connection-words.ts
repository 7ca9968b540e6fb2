// How `mch-sync status` and the live display say the way the device is reached: at home, through the internet, or not at all.
import type { DeviceConnection } from '../../../common/sync-status.ts';

/** "at home", "through the internet (the device's relay)", "at the address set by hand"; with "no answer" when none answered. */
export function connectionWords(connection: DeviceConnection): string {
  const where =
    connection.via === 'home'
      ? 'at home'
      : connection.via === 'relay'
        ? "through the internet (the device's relay)"
        : 'at the address set by hand';
  return connection.reachable ? where : `not answering (last reached ${where})`;
}
