// The monitor's fallback (interface addresses on a test clock) and its words for NetworkManager's changes.
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { addressSnapshot } from '../../../../app/network/interface-addresses.ts';
import { describeChange, FALLBACK_SOURCE, NetworkMonitor } from '../../../../app/network/network-monitor.ts';
import type { Clock, TimerHandle } from '../../../../app/system/clock.ts';

/** A clock whose timers run when the test moves it on. */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  let timers: Array<{ at: number; run: () => void; id: number }> = [];
  let nextId = 1;
  return {
    now: () => now,
    wallNow: () => now,
    setTimeout: (run, delayMs) => {
      const id = nextId++;
      timers.push({ at: now + delayMs, run, id });
      return id;
    },
    clearTimeout: (handle: TimerHandle) => {
      timers = timers.filter((timer) => timer.id !== handle);
    },
    advance(ms) {
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers = timers.filter((t) => t !== timer);
        timer.run();
      }
    },
  };
}

const info = (address: string, internal = false): NetworkInterfaceInfo => ({
  address,
  netmask: '255.255.255.0',
  family: 'IPv4',
  mac: '00:00:00:00:00:00',
  internal,
  cidr: null,
});

describe('NetworkMonitor without NetworkManager', () => {
  it('compares interface addresses every 10 s and tells what came and went', async () => {
    const clock = manualClock();
    let interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = {
      lo: [info('127.0.0.1', true)],
      eth0: [info('192.168.1.20')],
    };
    const monitor = new NetworkMonitor({ platform: 'darwin', env: {}, clock, interfaces: () => interfaces });
    const changes: string[] = [];
    monitor.on('change', (why) => changes.push(why));
    await monitor.start();
    expect(monitor.source).toBe(FALLBACK_SOURCE);
    expect(monitor.metered).toBeUndefined();
    clock.advance(10_000);
    expect(changes).toEqual([]);
    interfaces = { lo: [info('127.0.0.1', true)], wlan0: [info('10.0.0.5')] };
    clock.advance(9_999);
    expect(changes).toEqual([]);
    clock.advance(1);
    expect(changes).toEqual([
      'interface addresses changed (+wlan0 10.0.0.5/255.255.255.0, -eth0 192.168.1.20/255.255.255.0)',
    ]);
    monitor.stop();
    interfaces = {};
    clock.advance(60_000);
    expect(changes).toHaveLength(1);
  });

  it('leaves the loopback out and does not count the order interfaces are listed in', () => {
    const a = addressSnapshot(() => ({
      lo: [info('127.0.0.1', true)],
      b: [info('10.0.0.2')],
      a: [info('10.0.0.1')],
    }));
    const b = addressSnapshot(() => ({ a: [info('10.0.0.1')], b: [info('10.0.0.2')] }));
    expect(a).toBe(b);
  });
});

describe('the words for a change of NetworkManager', () => {
  const base = { metered: 4 as const, primaryConnection: '/a', state: 70, connectivity: 4 };
  it('names each property that changed, and nothing when none did', () => {
    expect(describeChange(base, { ...base, metered: 1 })).toBe('metered: guess no → yes');
    expect(describeChange(base, { ...base, connectivity: 2, state: 60 })).toBe(
      'state: 70 → 60, connectivity: 4 → 2',
    );
    expect(describeChange(base, { ...base })).toBeUndefined();
    expect(describeChange(undefined, base)).toBe('NetworkManager started');
    expect(describeChange(base, undefined)).toBe('NetworkManager stopped');
  });
});
