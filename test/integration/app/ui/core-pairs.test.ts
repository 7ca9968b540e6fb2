// The desktop core's pairs under the overlap rule and the folder lock, against the real device: overlapping pairs of an older version are shown and not synced, a missing folder waits for its disk, "Add a folder" hears why before adding.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type { InvokeName, InvokeRequest, InvokeResponse, PairView } from '../../../../common/contract.ts';
import { lockSyncedFolder } from '../../../../app/profile/folder-lock.ts';
import { folderKey, indexFilePath } from '../../../../app/index/index-db.ts';
import { folderPairsDir } from '../../../../app/profile/folder-pairs.ts';
import { dispatch } from '../../../../app/ui/dispatch.ts';
import { callCore, openTestCore, signInAlice } from '../../../helpers/core-call.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { waitFor } from '../../../helpers/live-pair.ts';

let home: string;
let profile: string;
let core: UiCore;
let outer: string;
let inner: string;
let photos: string;
let music: string;

function call<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> {
  return callCore(core, name, request);
}

/** A pair file as an older version wrote it, overlaps and all. */
function recordAsOlderVersion(localRoot: string, remoteFolder: string): void {
  mkdirSync(folderPairsDir(profile), { recursive: true });
  writeFileSync(
    join(folderPairsDir(profile), `${folderKey(localRoot)}.json`),
    `${JSON.stringify({ version: 1, localRoot, remoteFolder, indexPath: indexFilePath(profile, localRoot) })}\n`,
  );
}

async function pairOf(localRoot: string): Promise<PairView> {
  const found = (await call('pairs:list', {})).find((pair) => pair.localRoot === localRoot);
  if (found === undefined) throw new Error(`no pair ${localRoot}`);
  return found;
}

test.beforeAll(async ({ device }) => {
  home = mkdtempSync(join(tmpdir(), 'mch-ui-core-pairs-'));
  profile = join(home, 'profile');
  outer = join(home, 'MyCloud');
  inner = join(outer, 'Notes');
  mkdirSync(inner, { recursive: true });
  writeFileSync(join(inner, 'n.txt'), 'a note');
  // Two disks that are not mounted yet.
  photos = join(home, 'media', 'disk', 'Photos');
  music = join(home, 'media', 'other', 'Music');
  recordAsOlderVersion(outer, '/MyCloud');
  recordAsOlderVersion(inner, '/MyCloud/Notes');
  recordAsOlderVersion(photos, '/Photos');
  recordAsOlderVersion(music, '/Music');
  core = await openTestCore(home);
  // The shortest poll the settings allow: a folder that appears is tried again within 10 s.
  await call('settings:update', { pollIntervalSeconds: 10 });
  await signInAlice(core, device);
}, 60_000);

afterAll(async () => {
  await core?.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

describe('pairs an older version recorded', () => {
  it('shows two overlapping pairs stopped, with the reason and the fix, and syncs neither', async ({
    device,
  }) => {
    const fix =
      `(mch-sync folders remove --folder ${inner} or mch-sync folders remove --folder ${outer}, ` +
      "or Remove in the window's settings), and the other syncs again.";
    expect(await pairOf(inner)).toMatchObject({
      state: 'error',
      detail: `Not synced: ${inner} is inside ${outer}, which is synced with /MyCloud. Folder pairs must not overlap: remove one of the two ${fix}`,
    });
    expect((await pairOf(outer)).detail).toContain(`Not synced: ${outer} holds ${inner}`);
    // Never started: no lock taken in the folder, no index, nothing on the device.
    expect(existsSync(join(outer, '.mch-sync'))).toBe(false);
    expect(existsSync(indexFilePath(profile, inner))).toBe(false);
    const found = await device.fetchAs('alice', '/sdk/v2/filesSearch/text?q=n.txt');
    expect(JSON.stringify(await found.json())).not.toContain('n.txt');
  });

  it('waits for a missing folder without making it, and syncs it under its lock once it is there', async () => {
    const waiting = await pairOf(photos);
    expect(waiting.state).toBe('error');
    expect(waiting.detail).toBe(
      `The folder ${photos} does not exist (a disk that is not mounted?): nothing is synced until it is back. ` +
        'It is tried again every 10 s, or at once with Sync now.',
    );
    expect(existsSync(join(home, 'media'))).toBe(false);
    mkdirSync(photos, { recursive: true });
    writeFileSync(join(photos, 'p.jpg'), 'not really a photo');
    await call('sync:now', { pairId: waiting.id });
    await waitFor('the pair synced', async () =>
      (await pairOf(photos)).state === 'idle' ? true : undefined,
    );
    // Any other process, of any profile, meets the folder's lock now.
    expect(() => lockSyncedFolder(join(home, 'another-profile'), photos)).toThrow(
      expect.objectContaining({ code: 'FOLDER_BUSY' }),
    );
  });

  it('tries a missing folder again by itself once it appears', async () => {
    expect((await pairOf(music)).state).toBe('error');
    mkdirSync(music, { recursive: true });
    await waitFor(
      'the pair started',
      async () => ((await pairOf(music)).state !== 'error' ? true : undefined),
      30_000,
    );
  });
});

describe('pairs:check', () => {
  it('offers /<name of the folder> for a new one, and says nothing is wrong', async () => {
    mkdirSync(join(home, 'Recipes'));
    expect(await call('pairs:check', { localRoot: join(home, 'Recipes'), remoteFolder: null })).toEqual({
      remoteFolder: '/Recipes',
      problem: null,
    });
  });

  it('offers a free name when /<name> is another pair’s', async () => {
    mkdirSync(join(home, 'elsewhere', 'Photos'), { recursive: true });
    expect(
      await call('pairs:check', { localRoot: join(home, 'elsewhere', 'Photos'), remoteFolder: null }),
    ).toEqual({ remoteFolder: '/Photos (2)', problem: null });
  });

  it('says why a folder inside a pair, or the device root, would be refused, as pairs:add does', async () => {
    mkdirSync(join(outer, 'Drafts'));
    const nested = await call('pairs:check', { localRoot: join(outer, 'Drafts'), remoteFolder: null });
    expect(nested.problem).toEqual({
      code: 'PAIR_OVERLAP',
      title: 'Folders overlap',
      message: `${join(outer, 'Drafts')} is inside ${outer}, which is synced with /MyCloud. Folder pairs must not overlap: choose another folder.`,
    });
    const added = await dispatch(core.handlers, 'pairs:add', {
      localRoot: join(outer, 'Drafts'),
      remoteFolder: '/Drafts',
    });
    expect(added).toEqual({ ok: false, error: nested.problem });
    const root = await call('pairs:check', { localRoot: join(home, 'Recipes'), remoteFolder: '/' });
    expect(root.problem?.message).toMatch(/^\/ \(the whole device\) on the device holds \//);
  });
});
