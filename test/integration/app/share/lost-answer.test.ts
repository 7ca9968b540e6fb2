// A share created on the sharing service whose answer is lost on the way back: the client does not create
// a second one, but finds the one it made and completes it (device-api.md §4 has no idempotency key).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Wrapped } from '../../../../common/wire/cloud.ts';
import type { Share } from '../../../../common/wire/sharing.ts';
import type { ShareJson } from '../../../../app/cli/share-commands/share-command.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import type { HostileServer } from '../../../helpers/hostile-server.ts';
import { runMchSync } from '../../../helpers/mch-sync.ts';
import { signedInProfile, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { startDeviceProxy } from '../../../helpers/sync-pair.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';

let device: TestDevice;
let proxy: HostileServer;
let profile: SignedInProfile;
let folder: string;
let losing = false;
let creates = 0;

beforeAll(async () => {
  // Every address the device hands out (configuration, sharing, device) is the proxy's.
  proxy = await startDeviceProxy(() => device.running.listenUrl, {
    loseAnswer: (request) => {
      if (request.method !== 'POST' || !request.url.endsWith('/v1/shares')) return false;
      creates += 1;
      return losing;
    },
  });
  device = await startTestDevice({ publicUrl: proxy.base });
  profile = await signedInProfile(device, 'mch-share-lost-');
  folder = join(profile.home, 'Lost');
  mkdirSync(folder);
  writeFileSync(join(folder, 'a.txt'), 'a');
  writeFileSync(join(folder, 'b.txt'), 'b');
  const run = await runMchSync(['--profile', profile.profile, 'run', '--folder', folder, '--once'], {
    env: profile.env,
  });
  expectExit(run, 0);
}, 60_000);

afterAll(async () => {
  await device?.stop();
  await proxy?.close();
  profile?.remove();
});

it('completes the share the lost answer made instead of making a second', async () => {
  losing = true;
  const paths = [join(folder, 'a.txt'), join(folder, 'b.txt')];
  const run = await runMchSync(['--profile', profile.profile, 'share', '--json', ...paths], {
    env: profile.env,
    timeoutMs: 60_000,
  });
  losing = false;
  expectExit(run, 0);
  expect(creates).toBe(1);
  const shared = JSON.parse(run.stdout) as ShareJson;
  const listed = (await (await device.fetchAs('alice', '/cloud/v1/shares')).json()) as Wrapped<Share[]>;
  expect((listed.data ?? []).map((share) => share.shareId)).toEqual([shared.shareId]);
  const page = await fetch(shared.url);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('a.txt');
  expect(html).toContain('b.txt');
});
