// Where the system bus is (NetworkManager's), and the sockets a D-Bus address names.
import { DbusError } from './network-errors.ts';

/** The system bus's well-known socket, when DBUS_SYSTEM_BUS_ADDRESS does not say otherwise (D-Bus spec). */
export const DEFAULT_SYSTEM_BUS = 'unix:path=/run/dbus/system_bus_socket';

/**
 * The bus NetworkManager is asked on: the explicit one, else `MCH_NM_BUS_ADDRESS` (tests point a child
 * process at a private bus with it), else the system bus.
 */
export function networkManagerBus(env: NodeJS.ProcessEnv, explicit?: string): string {
  return (
    explicit ??
    nonEmpty(env['MCH_NM_BUS_ADDRESS']) ??
    nonEmpty(env['DBUS_SYSTEM_BUS_ADDRESS']) ??
    DEFAULT_SYSTEM_BUS
  );
}

/**
 * The Unix sockets of an address (`unix:path=...` or `unix:abstract=...`, several separated by `;`),
 * in order; other transports (tcp, launchd, nonce-tcp) are skipped. DBUS_UNREACHABLE when none is left.
 */
export function socketPathsOf(address: string): string[] {
  const paths: string[] = [];
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    if (colon === -1 || entry.slice(0, colon) !== 'unix') continue;
    const keys = new Map<string, string>();
    for (const pair of entry.slice(colon + 1).split(',')) {
      const equals = pair.indexOf('=');
      if (equals > 0) keys.set(pair.slice(0, equals), unescape(pair.slice(equals + 1), address));
    }
    const path = keys.get('path');
    const abstract = keys.get('abstract');
    if (path !== undefined) paths.push(path);
    else if (abstract !== undefined) paths.push(`\0${abstract}`);
  }
  if (paths.length === 0) {
    throw new DbusError(
      'DBUS_UNREACHABLE',
      `The D-Bus address "${address}" names no Unix socket (unix:path= or unix:abstract=).`,
    );
  }
  return paths;
}

/** The spec's escaping: bytes outside [-0-9A-Za-z_/.\\*] as %hh. */
function unescape(value: string, address: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new DbusError('DBUS_UNREACHABLE', `The D-Bus address "${address}" has a bad %-escape.`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
