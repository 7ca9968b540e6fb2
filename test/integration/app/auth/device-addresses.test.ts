// The right address, always (#33): a live `mch-sync run` against a device at home (127.0.0.2) and through its
// relay (127.0.0.3) moves to the relay when home goes away mid-upload, comes back home when home answers
// again, and goes offline when neither answers, then recovers; `status` says which.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { signedInProfile, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import {
  liveSync,
  mch,
  serviceLogs,
  serviceStatus,
  waitFor,
  type LiveSync,
} from '../../../helpers/on-demand-cli.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';

const MB = 1024 * 1024;
/** Home at 12 MB/s, like a home network that is slow enough to catch an upload in the middle. */
const HOME_RATE = 12 * MB;

let device: TestDevice;
let profile: SignedInProfile;
let folder: string;
let live: LiveSync | undefined;
/** Every truncation of an upload's bytes on the device: a resend of bytes it already had. */
const truncations: { path: string; length: number }[] = [];

function traffic(name: 'home' | 'relay'): { up: number; down: number } {
  const address = device.running.addresses[name];
  if (address === undefined) throw new Error(`no ${name} address`);
  return { ...address.traffic };
}

/** The device's item `name` under `parentId`, or undefined when there is none. */
async function child(parentId: string, name: string): Promise<{ id: string } | undefined> {
  const query = `parentID=${encodeURIComponent(parentId)}&name=${encodeURIComponent(name)}`;
  const response = await device.fetchAs('alice', `/sdk/v2/filesSearch/parentAndName?${query}`);
  return response.status === 200 ? ((await response.json()) as { id: string }) : undefined;
}

/** The device's copy of `name` in the synced folder, or undefined while it is not there. */
async function deviceContent(name: string): Promise<Buffer | undefined> {
  const root = (await (await device.fetchAs('alice', '/sdk/v2/files/root')).json()) as { id: string };
  const synced = await child(root.id, 'Synced');
  const file = synced === undefined ? undefined : await child(synced.id, name);
  if (file === undefined) return undefined;
  const response = await device.fetchAs('alice', `/sdk/v2/files/${file.id}/content`);
  return response.status === 200 ? Buffer.from(await response.arrayBuffer()) : undefined;
}

function digest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Waits until the device holds `name` with exactly `bytes`. */
async function arrived(name: string, bytes: Buffer): Promise<void> {
  const want = digest(bytes);
  try {
    await waitFor(`${name} on the device`, async () => {
      const content = await deviceContent(name);
      return content !== undefined && digest(content) === want ? true : undefined;
    });
  } catch (error) {
    // What the service said and its status, so a failure says why it did not send the file.
    const status = JSON.stringify(await serviceStatus(profile, folder), null, 1);
    throw new Error(`${(error as Error).message}\n${serviceLogs(profile).slice(-4000)}\n${status}`, {
      cause: error,
    });
  }
}

beforeAll(async () => {
  device = await startTestDevice({
    home: { host: '127.0.0.2', bytesPerSecond: HOME_RATE },
    relay: { host: '127.0.0.3', latencyMs: 5 },
  });
  const blobs = device.running.context.blobs;
  const truncate = blobs.truncate.bind(blobs);
  blobs.truncate = async (path: string, length: number) => {
    truncations.push({ path, length });
    await truncate(path, length);
  };
  profile = await signedInProfile(device, 'mch-addresses-');
  // Home is tried again every second while the relay is in use (45 s by default).
  profile.env['MCH_HOME_RECHECK_SECONDS'] = '1';
  folder = join(profile.home, 'Synced');
  mkdirSync(folder);
  writeFileSync(join(folder, 'first.txt'), 'first\n');
}, 60_000);

afterAll(async () => {
  await live?.stop();
  profile?.remove();
  await device?.stop();
});

describe('a device at home and through its relay', () => {
  it('is reached at home after sign-in, with both addresses kept in the profile', async () => {
    const settings = JSON.parse(readFileSync(join(profile.profile, 'settings.json'), 'utf8')) as {
      device: { url: string; addresses: { via: string; url: string }[] };
    };
    const home = device.running.addresses.home?.port;
    const relay = device.running.addresses.relay?.port;
    expect(settings.device.url).toBe(`http://127.0.0.2:${home}`);
    expect(settings.device.addresses).toEqual([
      { via: 'home', url: `http://127.0.0.2:${home}` },
      { via: 'relay', url: `http://127.0.0.3:${relay}/proxy/${device.running.context.device.id}` },
    ]);
    live = await liveSync(profile, folder, { mounted: false });
    expect((await serviceStatus(profile, folder))?.connection).toEqual({ via: 'home', reachable: true });
    await arrived('first.txt', Buffer.from('first\n'));
  }, 120_000);

  it('goes on through the relay when home goes away mid-upload, sending no byte the device had again', async () => {
    const big = randomBytes(40 * MB);
    const homeBefore = traffic('home').up;
    const relayBefore = traffic('relay').up;
    writeFileSync(join(folder, 'big.bin'), big);
    // Some chunks went home, and not all of them: home goes away in the middle of the upload.
    await waitFor('a part of the upload at home', () =>
      traffic('home').up - homeBefore > 8 * MB ? true : undefined,
    );
    await device.setAddress('home', 'down');
    const sentHome = traffic('home').up - homeBefore;
    expect(sentHome).toBeLessThan(big.length);
    await arrived('big.bin', big);
    const status = await serviceStatus(profile, folder);
    expect(status?.connection).toEqual({ via: 'relay', reachable: true });
    // The rest came through the relay, from where the device's copy ended: it never cut bytes it had.
    expect(traffic('relay').up - relayBefore).toBeGreaterThanOrEqual(big.length - sentHome);
    expect(truncations).toEqual([]);
    // The profile keeps the address that answered, for the next start.
    const settings = JSON.parse(readFileSync(join(profile.profile, 'settings.json'), 'utf8')) as {
      device: { url: string };
    };
    expect(settings.device.url).toBe(
      `http://127.0.0.3:${device.running.addresses.relay?.port}/proxy/${device.running.context.device.id}`,
    );
    const words = await mch(profile, ['status', '--folder', folder]);
    expectExit(words, 0);
    expect(words.stdout).toContain('through the internet');
  }, 180_000);

  it('comes back home when home answers again, and the next transfer goes home', async () => {
    await device.setAddress('home', 'up');
    await waitFor('home again', async () =>
      (await serviceStatus(profile, folder))?.connection?.via === 'home' ? true : undefined,
    );
    const next = randomBytes(6 * MB);
    const homeBefore = traffic('home').up;
    const relayBefore = traffic('relay').up;
    writeFileSync(join(folder, 'next.bin'), next);
    await arrived('next.bin', next);
    expect(traffic('home').up - homeBefore).toBeGreaterThanOrEqual(next.length);
    // The relay carried none of it (at most a probe or a poll that was already on its way).
    expect(traffic('relay').up - relayBefore).toBeLessThan(next.length / 10);
    const words = await mch(profile, ['status', '--folder', folder]);
    expect(words.stdout).toContain('at home');
  }, 180_000);

  it('is offline while neither address answers, then recovers through the one that comes back', async () => {
    await device.setAddress('home', 'down');
    await device.setAddress('relay', 'down');
    writeFileSync(join(folder, 'while-away.txt'), 'written while the device could not be reached\n');
    await waitFor('offline', async () => {
      const status = await serviceStatus(profile, folder);
      return status?.state === 'offline' && status.connection?.reachable === false ? true : undefined;
    });
    await device.setAddress('relay', 'up');
    await arrived('while-away.txt', Buffer.from('written while the device could not be reached\n'));
    await waitFor('through the relay', async () => {
      const status = await serviceStatus(profile, folder);
      return status?.connection?.via === 'relay' && status.connection.reachable ? true : undefined;
    });
    await device.setAddress('home', 'up');
  }, 240_000);
});
