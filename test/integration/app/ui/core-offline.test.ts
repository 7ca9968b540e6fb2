// The desktop core opened while the device does not answer: its pairs are listed and retry, not hidden behind the first run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { dispatch } from '../../../../app/ui/dispatch.ts';
import { UiCore, type UiCoreOptions } from '../../../../app/ui/ui-core.ts';
import { startTestDevice } from '../../../helpers/device.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { MemoryKeychain } from '../../../helpers/mch-sync.ts';

const home = mkdtempSync(join(tmpdir(), 'mch-ui-offline-'));

afterAll(() => rmSync(home, { recursive: true, force: true }));

it('lists the pairs as offline when the device is down at start', async () => {
  const device = await startTestDevice();
  const folder = join(home, 'Docs');
  mkdirSync(folder);
  writeFileSync(join(folder, 'a.txt'), 'a');
  const options: UiCoreOptions = {
    profileDir: join(home, 'profile'),
    env: { HOME: home, MCH_SECRET_STORE: 'file' },
    keychain: new MemoryKeychain(),
    openExternal: () => Promise.resolve(),
    log: () => {},
  };
  const first = await UiCore.open(options);
  const call = async (core: UiCore, name: string, request: unknown): Promise<unknown> => {
    const result = await dispatch(core.handlers, name, request);
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };
  await call(first, 'account:signInPassword', {
    configUrl: device.running.urls.config,
    username: 'alice',
    password: 'alice-password',
  });
  await call(first, 'pairs:add', { localRoot: folder, remoteFolder: '/Docs' });
  await first.close();
  await device.stop();
  const second = await UiCore.open(options);
  try {
    const pairs = await waitFor('the pair offline', async () => {
      const listed = (await call(second, 'pairs:list', {})) as Array<{ localRoot: string; state: string }>;
      return listed[0]?.state === 'offline' ? listed : undefined;
    });
    expect(pairs.map((pair) => pair.localRoot)).toEqual([folder]);
  } finally {
    await second.close();
  }
}, 60_000);
