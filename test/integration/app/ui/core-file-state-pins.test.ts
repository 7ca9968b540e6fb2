// The window core's state service for an on-demand pair, against the real device and a real mount: "Keep on this device" and "Free up space" asked on its socket as the file manager asks, the file downloaded and freed for real; a link made in the window drawn at once; and a core without a host window says so.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type { FileSyncState } from '../../../../common/file-state.ts';
import { callCore, openTestCore, signInAlice } from '../../../helpers/core-call.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { connectStateServices, type StateConnection } from '../../../../app/file-state/state-client.ts';
import { onDemandUnavailable } from '../../../../app/on-demand/on-demand-pair.ts';
import { readPairOnDemand } from '../../../../app/profile/pair-on-demand.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { mountsBelow } from '../../../helpers/on-demand.ts';

let home: string | undefined;
let profile: string;
let core: UiCore | undefined;
let folder: string;
let service: StateConnection | undefined;

function at(path: string): string {
  return join(folder, ...path.split('/'));
}

async function stateOf(path: string): Promise<FileSyncState | undefined> {
  const reply = await service?.request({ op: 'state', paths: [at(path)] });
  return reply?.type === 'answer' ? reply.states[0]?.state : undefined;
}

function stateBecomes(path: string, state: FileSyncState): Promise<true> {
  return waitFor(`${path} to be ${state}`, async () => ((await stateOf(path)) === state ? true : undefined));
}

async function act(action: 'pin' | 'unpin' | 'free' | 'why', path: string): Promise<string> {
  const reply = await service?.request({ op: 'act', action, paths: [at(path)] });
  return reply?.type === 'done' ? reply.message : `not done: ${JSON.stringify(reply)}`;
}

describe.skipIf(onDemandUnavailable() !== undefined)('the window core’s file-manager entries', () => {
  test.beforeAll(async ({ device }) => {
    const client = clientFor(device).device;
    const cloud =
      (await client.findByName('root', 'Kept'))?.id ??
      (await client.createFolder({ parentId: 'root', name: 'Kept' })).id;
    const photos = (await client.createFolder({ parentId: cloud, name: 'Photos' })).id;
    await client.create({
      parentId: photos,
      name: 'beach.jpg',
      content: Buffer.from('the beach, with the sea'),
    });
    home = mkdtempSync(join(tmpdir(), 'mch-ui-state-pins-'));
    mkdirSync(join(home, '.local', 'share'), { recursive: true });
    profile = join(home, 'profile');
    folder = join(home, 'Kept');
    mkdirSync(folder);
    // No host window: show and why are answered STATE_NO_WINDOW.
    core = await openTestCore(home);
    await signInAlice(core, device);
    const pairId = (
      await callCore(core, 'pairs:add', { localRoot: folder, remoteFolder: '/Kept', onDemand: true })
    ).id;
    await waitFor(
      'the first pass, mounted',
      async () => {
        const pair = (await callCore(core!, 'pairs:list', {})).find((candidate) => candidate.id === pairId);
        return pair?.state === 'idle' && pair.onDemand?.mounted === true ? pair : undefined;
      },
      30_000,
    );
    service = await waitFor('the core’s state service', async () => {
      const services = await connectStateServices(profile);
      const found = services.find((candidate) => candidate.folders.includes(folder));
      for (const other of services) if (other !== found) other.close();
      return found;
    });
  }, 60_000);

  afterAll(async () => {
    service?.close();
    await core?.close();
    if (home !== undefined) {
      for (const point of mountsBelow(home)) throw new Error(`${point} is still mounted`);
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('keeps a file on this device and frees it again, for real', async () => {
    const cache = readPairOnDemand(profile, folder)?.cache ?? '';
    expect(await stateOf('Photos/beach.jpg')).toBe('online-only');
    expect(await act('pin', 'Photos/beach.jpg')).toBe(
      'Photos/beach.jpg is kept on this computer: what is not here yet comes down now.',
    );
    await stateBecomes('Photos/beach.jpg', 'kept');
    await waitFor('the photo downloaded', () =>
      isPlaceholder(join(cache, 'Photos', 'beach.jpg')) ? undefined : true,
    );
    expect(await act('pin', 'Photos/beach.jpg')).toBe('Photos/beach.jpg is kept on this computer already.');
    expect(readPairOnDemand(profile, folder)?.pinned.map((pin) => pin.path)).toEqual(['Photos/beach.jpg']);

    const freed = await act('free', 'Photos/beach.jpg');
    expect(freed).toMatch(/^Photos\/beach\.jpg is no longer kept on this computer\.\nFreed 1 file \(/);
    expect(isPlaceholder(join(cache, 'Photos', 'beach.jpg'))).toBe(true);
    await stateBecomes('Photos/beach.jpg', 'online-only');
    expect(readPairOnDemand(profile, folder)?.pinned).toEqual([]);
    expect(await act('unpin', 'Photos')).toBe('Nothing there was kept on this computer; nothing changed.');
  });

  it('draws a link made or revoked in the window at once, not at the next look at the shares', async () => {
    const sharedNow = async (): Promise<boolean | undefined> => {
      const reply = await service?.request({ op: 'state', paths: [at('Photos')] });
      return reply?.type === 'answer' ? reply.states[0]?.shared : undefined;
    };
    expect(await sharedNow()).toBe(false);
    const link = await callCore(core!, 'shares:create', { paths: [at('Photos')], fresh: false });
    // Well inside the 20 s the service keeps the account's shares between looks.
    await waitFor('Photos shared', async () => ((await sharedNow()) === true ? true : undefined), 10_000);
    await callCore(core!, 'shares:revoke', { shareId: link.shareId });
    await waitFor(
      'Photos no longer shared',
      async () => ((await sharedNow()) === false ? true : undefined),
      10_000,
    );
  });

  it('says there is no window to show when its host gave none', async () => {
    await expect(service?.request({ op: 'act', action: 'why', paths: [at('Photos')] })).rejects.toMatchObject(
      {
        code: 'STATE_NO_WINDOW',
      },
    );
  });
});
