// The window's core and a device that is full (issue #33): a pair's view carries the device's free space in
// words, and the upload that cannot fit is under Issues with its numbers while the rest syncs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type { InvokeName, InvokeRequest, InvokeResponse, PairView } from '../../../../common/contract.ts';
import { formatBytes } from '../../../../common/units.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { callCore, openTestCore, signInAlice } from '../../../helpers/core-call.ts';
import { waitFor } from '../../../helpers/live-pair.ts';

const CAPACITY = 4_000_000;
test.override({ deviceOptions: { capacityBytes: CAPACITY } });

let home: string;
let core: UiCore;
let folder: string;

function call<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> {
  return callCore(core, name, request);
}

test.beforeAll(async ({ device }) => {
  home = mkdtempSync(join(tmpdir(), 'mch-ui-core-space-'));
  folder = join(home, 'MyCloud');
  mkdirSync(folder);
  writeFileSync(join(folder, 'note.txt'), 'n'.repeat(2_000));
  writeFileSync(join(folder, 'film.mkv'), Buffer.alloc(5_000_000, 1));
  core = await openTestCore(home);
  // The shortest poll the settings allow: the pass after the first reads the space it left.
  await call('settings:update', { pollIntervalSeconds: 10 });
  await signInAlice(core, device);
}, 60_000);

afterAll(async () => {
  await core?.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

describe('the window and a device that is full', () => {
  it("shows the device's free space on the pair and the held upload under Issues with its numbers", async ({
    device,
  }) => {
    const pairId = (await call('pairs:add', { localRoot: folder, remoteFolder: '/MyCloud' })).id;
    const free = async (): Promise<number> =>
      ((await (await device.fetchAs('alice', '/sdk/v2/device/storage')).json()) as { freeBytes: number })
        .freeBytes;
    // Once note.txt is on the device, a later pass reads the space it left.
    const pair = await waitFor('the pair to show the space left after note.txt', async () => {
      const view = (await call('pairs:list', {})).find((candidate) => candidate.id === pairId);
      const now = await free();
      return view?.deviceSpace?.freeBytes === now && now < CAPACITY ? view : undefined;
    });
    const space = pair.deviceSpace as NonNullable<PairView['deviceSpace']>;
    expect(space.totalBytes).toBe(CAPACITY);
    expect(space.words).toBe(`${formatBytes(space.freeBytes)} free of 4.0 MB`);
    const issues = await call('issues:list', { pairId });
    const held = issues.filter((issue) => issue.code === 'DEVICE_FULL');
    expect(held.map((issue) => [issue.path, issue.group])).toEqual([['film.mkv', 'needs-you']]);
    expect(held[0]?.message).toMatch(
      /^film\.mkv \(5\.0 MB\) does not fit on the device: .+ free, .+ missing\./,
    );
  });
});
