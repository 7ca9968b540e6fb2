// The network monitor against a real dbus-daemon with a stand-in NetworkManager (python's Gio): properties read, changes told.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DbusConnection } from '../../../../app/network/dbus-connection.ts';
import { DbusError } from '../../../../app/network/network-errors.ts';
import { FALLBACK_SOURCE, NetworkMonitor, NM_SOURCE } from '../../../../app/network/network-monitor.ts';
import {
  missingBus,
  startMockNetworkManager,
  startPrivateBus,
  type MockNetworkManager,
  type PrivateBus,
} from '../../../helpers/private-bus.ts';

let bus: PrivateBus;
const cleanups: Array<() => void | Promise<void>> = [];

beforeEach(async () => {
  if (missingBus() !== undefined) return;
  bus = await startPrivateBus();
  cleanups.push(() => bus.stop());
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mock(): Promise<MockNetworkManager> {
  const nm = await startMockNetworkManager(bus.address);
  cleanups.push(() => nm.stop());
  return nm;
}

async function monitor(
  options: ConstructorParameters<typeof NetworkMonitor>[0] = {},
): Promise<NetworkMonitor> {
  const made = new NetworkMonitor({ busAddress: bus.address, ...options });
  cleanups.push(() => made.stop());
  await made.start();
  return made;
}

/** The next `change` the monitor tells. */
function nextChange(watched: NetworkMonitor): Promise<string> {
  return new Promise((resolve) => {
    const listener = (why: string): void => {
      watched.off('change', listener);
      resolve(why);
    };
    watched.on('change', listener);
  });
}

describe.skipIf(missingBus() !== undefined)('the D-Bus client on a real dbus-daemon', () => {
  it('signs in, gets a unique name and reads every type of a GetAll answer', async () => {
    await mock();
    const connection = await DbusConnection.open(bus.address);
    cleanups.push(() => connection.close());
    expect(connection.uniqueName).toMatch(/^:\d+\.\d+$/);
    const [names] = await connection.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'ListNames',
    });
    expect(names).toContain('org.freedesktop.NetworkManager');
    const [all] = await connection.call({
      destination: 'org.freedesktop.NetworkManager',
      path: '/org/freedesktop/NetworkManager',
      interface: 'org.freedesktop.DBus.Properties',
      member: 'GetAll',
      signature: 's',
      body: ['org.freedesktop.NetworkManager'],
    });
    const properties = new Map((all as [string, { value: unknown }][]).map(([name, v]) => [name, v.value]));
    expect(properties.get('Metered')).toBe(4);
    expect(properties.get('Version')).toBe('1.42.4-mock');
    expect(properties.get('NetworkingEnabled')).toBe(true);
    expect(properties.get('ActiveConnections')).toEqual([
      '/org/freedesktop/NetworkManager/ActiveConnection/1',
    ]);
    expect(properties.get('GlobalDnsConfiguration')).toEqual([
      ['searches', { signature: 'as', value: ['home.arpa'] }],
    ]);
  });

  it('fails a call to a name nobody owns with the bus’s error name, and the connection stays usable', async () => {
    const connection = await DbusConnection.open(bus.address);
    cleanups.push(() => connection.close());
    const failed = connection.call({
      destination: 'org.example.Nobody',
      path: '/',
      interface: 'org.freedesktop.DBus.Peer',
      member: 'Ping',
    });
    await expect(failed).rejects.toMatchObject({
      code: 'DBUS_CALL_FAILED',
      dbusName: 'org.freedesktop.DBus.Error.ServiceUnknown',
    });
    const [id] = await connection.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'GetId',
    });
    expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('says DBUS_UNREACHABLE for an address with no bus behind it', async () => {
    const failed = DbusConnection.open('unix:path=/nonexistent/mch-sync-test-bus');
    await expect(failed).rejects.toBeInstanceOf(DbusError);
    await expect(failed).rejects.toMatchObject({ code: 'DBUS_UNREACHABLE' });
  });
});

describe.skipIf(missingBus() !== undefined)('NetworkMonitor with NetworkManager', () => {
  it('reads Metered and tells a change of it without polling (1 and 3 metered, 2 and 4 not)', async () => {
    const nm = await mock();
    // No address poll could tell this: only NetworkManager's signal can.
    const watched = await monitor({ interfacePollMs: 3_600_000 });
    expect(watched.source).toBe(NM_SOURCE);
    expect(watched.metered).toBe(false);
    for (const [value, metered] of [
      [1, true],
      [2, false],
      [3, true],
      [4, false],
    ] as const) {
      const change = nextChange(watched);
      await nm.set('Metered', value);
      expect(await change).toMatch(/^metered: /);
      expect(watched.metered).toBe(metered);
    }
    const unknown = nextChange(watched);
    await nm.set('Metered', 0);
    await unknown;
    expect(watched.metered).toBeUndefined();
  });

  it('tells a new primary connection, and a change of state, in words', async () => {
    const nm = await mock();
    const watched = await monitor();
    const change = nextChange(watched);
    await nm.set('PrimaryConnection', '/org/freedesktop/NetworkManager/ActiveConnection/7');
    expect(await change).toBe(
      'primary connection: /org/freedesktop/NetworkManager/ActiveConnection/1 → /org/freedesktop/NetworkManager/ActiveConnection/7',
    );
    expect(watched.networkManager?.primaryConnection).toBe(
      '/org/freedesktop/NetworkManager/ActiveConnection/7',
    );
    const down = nextChange(watched);
    await nm.set('State', 20);
    expect(await down).toBe('state: 70 → 20');
  });

  it('tells NetworkManager stopping (metered unknown) and starting again (read anew)', async () => {
    const nm = await mock();
    const watched = await monitor();
    const stopped = nextChange(watched);
    await nm.stop();
    expect(await stopped).toBe('NetworkManager stopped');
    expect(watched.metered).toBeUndefined();
    expect(watched.source).toBe(NM_SOURCE);
    const started = nextChange(watched);
    await mock();
    expect(await started).toBe('NetworkManager started');
    expect(watched.metered).toBe(false);
  });

  it('falls back to interface addresses when NetworkManager is not on the bus', async () => {
    const watched = await monitor();
    expect(watched.source).toBe(FALLBACK_SOURCE);
    expect(watched.metered).toBeUndefined();
  });

  it('falls back when the bus itself cannot be reached, and reads MCH_NM_BUS_ADDRESS from its env', async () => {
    const nowhere = new NetworkMonitor({ env: { MCH_NM_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } });
    cleanups.push(() => nowhere.stop());
    await nowhere.start();
    expect(nowhere.source).toBe(FALLBACK_SOURCE);
    await mock();
    const there = new NetworkMonitor({ env: { MCH_NM_BUS_ADDRESS: bus.address }, platform: 'darwin' });
    cleanups.push(() => there.stop());
    await there.start();
    expect(there.source).toBe(NM_SOURCE);
  });

  it('falls back and tells it when the bus goes away', async () => {
    await mock();
    const watched = await monitor();
    // The daemon may tell the name's end before it drops the connection: the loss comes last.
    const lost = new Promise<string[]>((resolve) => {
      const seen: string[] = [];
      watched.on('change', (why) => {
        seen.push(why);
        if (why.startsWith('NetworkManager lost')) resolve(seen);
      });
    });
    await bus.stop();
    expect((await lost).at(-1)).toMatch(/^NetworkManager lost/);
    expect(watched.source).toBe(FALLBACK_SOURCE);
    expect(watched.metered).toBeUndefined();
  });
});
