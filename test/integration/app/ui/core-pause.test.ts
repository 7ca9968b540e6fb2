// The window's core and pauses (#33): "Pause for 1 hour" shows its end on the pair, a bad length is refused, a metered network (a stand-in NetworkManager on a private bus) pauses the pair unless it is set to sync on one.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type { InvokeName, InvokeRequest, InvokeResponse, PairView } from '../../../../common/contract.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { pairFilePath } from '../../../../app/profile/folder-pairs.ts';
import { callCore, openTestCore, signInAlice } from '../../../helpers/core-call.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import {
  missingBus,
  startMockNetworkManager,
  startPrivateBus,
  type MockNetworkManager,
  type PrivateBus,
} from '../../../helpers/private-bus.ts';

let home: string;
let core: UiCore;
let bus: PrivateBus;
let nm: MockNetworkManager;
let pairId: string;

function call<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> {
  return callCore(core, name, request);
}

async function view(): Promise<PairView> {
  const found = (await call('pairs:list', {})).find((candidate) => candidate.id === pairId);
  if (found === undefined) throw new Error('the pair is not listed');
  return found;
}

describe.skipIf(missingBus() !== undefined)('the window core and pauses', () => {
  test.beforeAll(async ({ device }) => {
    bus = await startPrivateBus();
    nm = await startMockNetworkManager(bus.address);
    home = mkdtempSync(join(tmpdir(), 'mch-ui-core-pause-'));
    const folder = join(home, 'MyCloud');
    mkdirSync(folder);
    writeFileSync(join(folder, 'note.txt'), 'n');
    core = await openTestCore(home, {
      env: {
        HOME: home,
        XDG_DATA_HOME: join(home, '.local', 'share'),
        MCH_SECRET_STORE: 'file',
        MCH_NM_BUS_ADDRESS: bus.address,
      },
    });
    await signInAlice(core, device);
    pairId = (await call('pairs:add', { localRoot: folder, remoteFolder: '/MyCloud' })).id;
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    await nm?.stop();
    await bus?.stop();
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });

  it('pauses for 1 hour with its end in the words, and resumes early', async () => {
    const before = Date.now();
    const paused = (await call('sync:pause', { pairId, for: '1h' })).find(
      (candidate) => candidate.id === pairId,
    );
    expect(paused?.paused).toBe(true);
    expect(paused?.pause?.by).toBe('user');
    expect(paused?.pause?.untilMs).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(paused?.words).toMatch(/^Paused until (tomorrow )?\d\d:\d\d/);
    expect(
      (await call('sync:resume', { pairId })).find((candidate) => candidate.id === pairId)?.pause,
    ).toBeUndefined();
  });

  it('refuses a length the window does not offer, and changes nothing', async () => {
    await expect(
      call('sync:pause', { pairId, for: 'soon' } as unknown as InvokeRequest<'sync:pause'>),
    ).rejects.toMatchObject({ code: 'CONTRACT_BAD_REQUEST' });
    expect((await view()).paused).toBe(false);
  });

  it('pauses on a metered network and resumes when it is not', async () => {
    await nm.set('Metered', 1);
    const metered = await waitFor('the pair paused by the network', async () => {
      const now = await view();
      return now.pause?.by === 'metered' ? now : undefined;
    });
    expect(metered.words).toBe('Paused: metered network');
    await nm.set('Metered', 2);
    await waitFor('the pair syncing again', async () => ((await view()).paused ? undefined : true));
  });

  it('syncs on a metered network once the pair is set to, kept in its record; refuses an unknown choice', async () => {
    expect((await view()).onMetered).toBe('pause');
    await nm.set('Metered', 1);
    await waitFor('the pair paused by the network', async () =>
      (await view()).pause?.by === 'metered' ? true : undefined,
    );
    await expect(
      call('pairs:setMetered', {
        pairId,
        onMetered: 'always',
      } as unknown as InvokeRequest<'pairs:setMetered'>),
    ).rejects.toMatchObject({ code: 'CONTRACT_BAD_REQUEST' });
    expect((await view()).pause?.by).toBe('metered');
    const set = (await call('pairs:setMetered', { pairId, onMetered: 'sync' })).find(
      (one) => one.id === pairId,
    );
    expect(set?.onMetered).toBe('sync');
    expect(set?.paused).toBe(false);
    expect(
      JSON.parse(readFileSync(pairFilePath(join(home, 'profile'), join(home, 'MyCloud')), 'utf8')),
    ).toMatchObject({
      onMetered: 'sync',
    });
    const back = (await call('pairs:setMetered', { pairId, onMetered: 'pause' })).find(
      (one) => one.id === pairId,
    );
    expect(back?.pause?.by).toBe('metered');
    await nm.set('Metered', 4);
  });
});
