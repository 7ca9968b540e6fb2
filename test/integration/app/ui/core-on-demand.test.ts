// Files on demand turned off through the window's calls, against the real device and a real mount: a file that cannot come down leaves the pair on demand as it was (the user's pins too) and says why; then every file comes down, the cache folder moves back whole and the pair syncs whole files again.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type { InvokeName, InvokeRequest, InvokeResponse, PairView } from '../../../../common/contract.ts';
import { callCore, openTestCore, signInAlice } from '../../../helpers/core-call.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { onDemandUnavailable } from '../../../../app/on-demand/on-demand-pair.ts';
import { readPairOnDemand, updatePairOnDemand } from '../../../../app/profile/pair-on-demand.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { blobHolding, mountsBelow } from '../../../helpers/on-demand.ts';

let home: string | undefined;
let profile: string;
let core: UiCore | undefined;
let folder: string;
let pairId: string;

function call<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> {
  if (core === undefined) throw new Error('no core');
  return callCore(core, name, request);
}

function pairBecomes(check: (pair: PairView) => boolean, what: string): Promise<PairView> {
  return waitFor(
    what,
    async () => {
      const pair = (await call('pairs:list', {})).find((candidate) => candidate.id === pairId);
      return pair !== undefined && check(pair) ? pair : undefined;
    },
    30_000,
  );
}

async function onDevice(device: TestDevice, files: Record<string, string>): Promise<void> {
  const client = clientFor(device).device;
  for (const [path, text] of Object.entries(files)) {
    let parentId = 'root';
    const names = ['MyCloud', ...path.split('/')];
    for (const name of names.slice(0, -1)) {
      parentId =
        (await client.findByName(parentId, name))?.id ?? (await client.createFolder({ parentId, name })).id;
    }
    await client.create({ parentId, name: names.at(-1) ?? path, content: Buffer.from(text) });
  }
}

const BEACH = 'the beach, with the sea';

describe.skipIf(onDemandUnavailable() !== undefined)('onDemand:turnOff', () => {
  test.beforeAll(async ({ device }) => {
    await onDevice(device, { 'Docs/plan.txt': 'the plan\n', 'Photos/beach.jpg': BEACH });
    home = mkdtempSync(join(tmpdir(), 'mch-ui-on-demand-'));
    mkdirSync(join(home, '.local', 'share'), { recursive: true });
    profile = join(home, 'profile');
    folder = join(home, 'MyCloud');
    mkdirSync(folder);
    core = await openTestCore(home);
    await signInAlice(core, device);
    pairId = (await call('pairs:add', { localRoot: folder, remoteFolder: '/MyCloud', onDemand: true })).id;
    await pairBecomes(
      (pair) => pair.state === 'idle' && pair.itemsSynced === 4 && pair.onDemand?.mounted === true,
      'the first pass, mounted',
    );
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    if (home !== undefined) {
      for (const point of mountsBelow(home)) throw new Error(`${point} is still mounted`);
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('leaves the pair on demand as it was, the user’s pins too, when a file cannot come down', async ({
    device,
  }) => {
    const cache = readPairOnDemand(profile, folder)?.cache ?? '';
    expect(isPlaceholder(join(cache, 'Photos', 'beach.jpg'))).toBe(true);
    const pins = [{ path: 'Docs', id: 'id-of-docs' }];
    await updatePairOnDemand(profile, folder, (now) => (now === undefined ? now : { ...now, pinned: pins }));
    // The device cannot serve the photo's content: its blob is moved away for this test.
    const blob = blobHolding(device.dataDir, BEACH);
    renameSync(blob, `${blob}.away`);
    try {
      await expect(call('onDemand:turnOff', { pairId })).rejects.toMatchObject({
        code: 'ON_DEMAND_MOVE_FAILED',
        message: expect.stringMatching(
          /^Not every file could be downloaded \(Photos\/beach\.jpg is still only on the device\): nothing was changed\./,
        ) as unknown,
      });
    } finally {
      renameSync(`${blob}.away`, blob);
    }
    expect(readPairOnDemand(profile, folder)).toMatchObject({ cache, pinned: pins });
    expect(isPlaceholder(join(cache, 'Photos', 'beach.jpg'))).toBe(true);
    // Started again as it was: mounted over the folder.
    await pairBecomes((pair) => pair.onDemand?.mounted === true, 'the pair mounted again');
    expect(mountsBelow(folder)).toEqual([folder]);
    await updatePairOnDemand(profile, folder, (now) => (now === undefined ? now : { ...now, pinned: [] }));
  });

  it('downloads every file, moves them back into the folder and syncs whole files again', async () => {
    const cache = readPairOnDemand(profile, folder)?.cache ?? '';
    const view = await call('onDemand:turnOff', { pairId });
    expect(view.onDemand ?? null).toBeNull();
    expect(readPairOnDemand(profile, folder)).toBeUndefined();
    expect(mountsBelow(folder)).toEqual([]);
    expect(existsSync(cache)).toBe(false);
    // Whole files in the folder itself (no mount serves them).
    expect(readFileSync(join(folder, 'Docs', 'plan.txt'), 'utf8')).toBe('the plan\n');
    expect(readFileSync(join(folder, 'Photos', 'beach.jpg'), 'utf8')).toBe(BEACH);
    expect(isPlaceholder(join(folder, 'Photos', 'beach.jpg'))).toBe(false);
    expect(statSync(join(folder, '.mch-sync')).isDirectory()).toBe(true);
    const after = await pairBecomes((pair) => pair.state === 'idle', 'a pass of whole files');
    expect(after).toMatchObject({ itemsSynced: 4, issueCount: 0, conflictCount: 0 });
    // A second call (another window) finds it done.
    expect((await call('onDemand:turnOff', { pairId })).onDemand ?? null).toBeNull();
  });
});
