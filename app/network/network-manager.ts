// NetworkManager over D-Bus: its Metered, PrimaryConnection, State and Connectivity, read once and then as it announces changes.
import type { DbusConnection } from './dbus-connection.ts';
import type { DbusMessage, DbusValue, DbusVariant } from './dbus-wire.ts';
import { DbusError } from './network-errors.ts';

export const NM_NAME = 'org.freedesktop.NetworkManager';
export const NM_PATH = '/org/freedesktop/NetworkManager';
const PROPERTIES = 'org.freedesktop.DBus.Properties';

/** NetworkManager's NMMetered: 0 unknown, 1 yes, 2 no, 3 guess-yes, 4 guess-no. */
export type NmMetered = 0 | 1 | 2 | 3 | 4;

export interface NetworkManagerState {
  metered: NmMetered;
  /** The object path of the primary active connection; `/` when there is none. */
  primaryConnection: string;
  /** NMState: 10 asleep, 20 disconnected, 30 disconnecting, 40 connecting, 50-70 connected (local, site, global). */
  state: number;
  /** NMConnectivityState: 1 none, 2 portal, 3 limited, 4 full (0 unknown). */
  connectivity: number;
}

/** Metered is yes or guess-yes: a hotspot or a connection the user marked so. */
export function isMetered(metered: NmMetered): boolean {
  return metered === 1 || metered === 3;
}

export interface NetworkManagerWatch {
  /** What NetworkManager says now; undefined while it is not on the bus. */
  state: NetworkManagerState | undefined;
}

/**
 * Subscribes to NetworkManager's PropertiesChanged and to its name coming and going, then reads its
 * properties (in that order, so no change falls between the read and the subscription). Throws
 * DbusError DBUS_CALL_FAILED (`dbusName` ServiceUnknown or NameHasNoOwner) when it is not running.
 * `onChange` gets the state after each change NetworkManager announces (undefined once it left the bus).
 */
export async function watchNetworkManager(
  connection: DbusConnection,
  onChange: (state: NetworkManagerState | undefined) => void,
): Promise<NetworkManagerWatch> {
  const watch: NetworkManagerWatch = { state: undefined };
  connection.onSignal((message) => {
    if (isPropertiesChanged(message) && watch.state !== undefined) {
      const changed = message.body[1];
      if (!Array.isArray(changed)) return;
      const next = withProperties(watch.state, changed);
      if (next === watch.state) return;
      watch.state = next;
      onChange(next);
    } else if (isOwnerChange(message)) {
      const newOwner = message.body[2];
      if (newOwner === '') {
        watch.state = undefined;
        onChange(undefined);
        return;
      }
      // Back (restarted): its properties read anew; a failure leaves it absent until it says more.
      readState(connection).then(
        (state) => {
          watch.state = state;
          onChange(state);
        },
        () => undefined,
      );
    }
  });
  await connection.addMatch(
    `type='signal',interface='${PROPERTIES}',member='PropertiesChanged',path='${NM_PATH}',arg0='${NM_NAME}'`,
  );
  await connection.addMatch(
    `type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='${NM_NAME}'`,
  );
  watch.state = await readState(connection);
  return watch;
}

async function readState(connection: DbusConnection): Promise<NetworkManagerState> {
  const [all] = await connection.call({
    destination: NM_NAME,
    path: NM_PATH,
    interface: PROPERTIES,
    member: 'GetAll',
    signature: 's',
    body: [NM_NAME],
  });
  if (!Array.isArray(all))
    throw new DbusError('DBUS_BAD_MESSAGE', 'NetworkManager answered GetAll with no a{sv}.');
  const initial: NetworkManagerState = { metered: 0, primaryConnection: '/', state: 0, connectivity: 0 };
  return withProperties(initial, all);
}

/** The state with the properties of an a{sv} applied; the same object when none of ours changed. */
function withProperties(state: NetworkManagerState, entries: DbusValue[]): NetworkManagerState {
  let next = state;
  for (const entry of entries) {
    if (!Array.isArray(entry)) continue;
    const [name, variant] = entry as [DbusValue, DbusVariant];
    const value = variant?.value;
    if (
      name === 'Metered' &&
      typeof value === 'number' &&
      value >= 0 &&
      value <= 4 &&
      value !== next.metered
    ) {
      next = { ...next, metered: value as NmMetered };
    } else if (
      name === 'PrimaryConnection' &&
      typeof value === 'string' &&
      value !== next.primaryConnection
    ) {
      next = { ...next, primaryConnection: value };
    } else if (name === 'State' && typeof value === 'number' && value !== next.state) {
      next = { ...next, state: value };
    } else if (name === 'Connectivity' && typeof value === 'number' && value !== next.connectivity) {
      next = { ...next, connectivity: value };
    }
  }
  return next;
}

function isPropertiesChanged(message: DbusMessage): boolean {
  return (
    message.interface === PROPERTIES &&
    message.member === 'PropertiesChanged' &&
    message.path === NM_PATH &&
    message.body[0] === NM_NAME
  );
}

function isOwnerChange(message: DbusMessage): boolean {
  return (
    message.interface === 'org.freedesktop.DBus' &&
    message.member === 'NameOwnerChanged' &&
    message.body[0] === NM_NAME
  );
}

/** NetworkManager is simply not running on this bus (as opposed to a bus that failed). */
export function isAbsent(error: unknown): boolean {
  return (
    error instanceof DbusError &&
    (error.dbusName === 'org.freedesktop.DBus.Error.ServiceUnknown' ||
      error.dbusName === 'org.freedesktop.DBus.Error.NameHasNoOwner' ||
      error.dbusName === 'org.freedesktop.DBus.Error.UnknownObject')
  );
}
