// The desktop share action over a real UiCore and the real device: signed out, outside every folder, a link copied (and the same again), a paused folder, a file synced first, a refusing clipboard, the device gone.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvokeName, InvokeRequest, InvokeResponse, ShareView } from '../../../../common/contract.ts';
import { ShareAction, type ClipboardPort } from '../../../../app/desktop/share-action.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { callCore, openTestCore } from '../../../helpers/core-call.ts';

let device: TestDevice | undefined;
let home: string;
let folder: string;
let core: UiCore;
let pairId: string;
const copied: string[] = [];
const sharesEvents: ShareView[][] = [];
const clipboard: ClipboardPort = { writeText: (text) => void copied.push(text) };

const call = <N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> =>
  callCore(core, name, request);

async function upToDate(): Promise<void> {
  await waitFor('the pair up to date', async () => {
    const view = (await call('pairs:list', {})).find((pair) => pair.id === pairId);
    return view?.state === 'idle' && view.lastSyncAtMs !== null ? true : undefined;
  });
}

beforeAll(async () => {
  device = await startTestDevice();
  home = mkdtempSync(join(tmpdir(), 'mch-share-action-'));
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  folder = join(home, 'My Docs');
  mkdirSync(folder);
  writeFileSync(join(folder, 'plan ünï "q".txt'), 'the plan\n');
  writeFileSync(join(folder, 'budget.csv'), 'rent,100\n');
  core = await openTestCore(home);
  core.onEvent((name, payload) => {
    if (name === 'shares:changed') sharesEvents.push(payload as ShareView[]);
  });
}, 60_000);

afterAll(async () => {
  await core?.close();
  await device?.stop();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

describe('the desktop share action', () => {
  it('signed out: asks to sign in, copies nothing', async () => {
    const notice = await new ShareAction({ core, clipboard }).share([join(folder, 'budget.csv')]);
    expect(notice).toMatchObject({
      outcome: 'failed',
      code: 'SIGN_IN_REQUIRED',
      view: 'first-run',
      url: null,
    });
    expect(notice.body).toMatch(/sign in/i);
    expect(copied).toEqual([]);
  });

  it('signed in without a synced folder: says to add one', async () => {
    await call('account:signInPassword', {
      configUrl: device?.running.urls.config ?? '',
      username: 'alice',
      password: 'alice-password',
    });
    const notice = await new ShareAction({ core, clipboard }).share([join(folder, 'budget.csv')]);
    expect(notice).toMatchObject({ outcome: 'failed', code: 'NOT_IN_SYNCED_FOLDER', view: 'first-run' });
    expect(notice.body).not.toContain('`');
  });

  it('copies one link for several items and tells an open window', async () => {
    const root = await call('remote:listFolders', { folderId: null });
    await call('remote:createFolder', { parentId: root.folder.id, name: 'Docs' });
    pairId = (await call('pairs:add', { localRoot: folder, remoteFolder: '/Docs' })).id;
    await upToDate();
    const action = new ShareAction({ core, clipboard });
    const paths = [join(folder, 'plan ünï "q".txt'), join(folder, 'budget.csv')];
    const notice = await action.share(paths);
    expect(notice).toMatchObject({
      outcome: 'copied',
      title: 'Share link copied',
      body: 'Anyone with the link can open 2 items.',
      view: 'shares',
      code: null,
    });
    expect(copied).toEqual([notice.url]);
    expect((await fetch(notice.url ?? '')).status).toBe(200);
    await waitFor('shares:changed', () =>
      sharesEvents.some((shares) => shares.some((share) => share.url === notice.url)) ? true : undefined,
    );
    const again = await action.share([...paths].reverse());
    expect(again.url).toBe(notice.url);
    expect((await call('shares:list', {})).map((share) => share.url)).toEqual([notice.url]);
  });

  it('outside every synced folder: names the synced folders and opens settings', async () => {
    const outside = join(home, 'elsewhere.txt');
    writeFileSync(outside, 'x');
    const notice = await new ShareAction({ core, clipboard }).share([outside]);
    expect(notice).toMatchObject({ outcome: 'failed', code: 'NOT_IN_SYNCED_FOLDER', view: 'settings' });
    expect(notice.body).toContain(folder);
  });

  it('a new file in a paused folder: says it is not uploaded, in words for the window', async () => {
    await call('sync:pause', { pairId });
    writeFileSync(join(folder, 'late.txt'), 'late\n');
    const notice = await new ShareAction({ core, clipboard }).share([join(folder, 'late.txt')]);
    expect(notice).toMatchObject({ outcome: 'failed', code: 'NOT_UPLOADED_YET', view: 'status' });
    expect(notice.body).toBe(
      `Syncing of ${folder} is paused, so it cannot upload what you shared: resume it, then share again.`,
    );
  });

  it('a new file of a running folder: has it synced now, then copies its link', async () => {
    await call('sync:resume', { pairId });
    writeFileSync(join(folder, 'fresh.txt'), 'fresh\n');
    const notice = await new ShareAction({ core, clipboard }).share([join(folder, 'fresh.txt')]);
    expect(notice).toMatchObject({ outcome: 'copied', body: 'Anyone with the link can open "fresh.txt".' });
    expect(copied.at(-1)).toBe(notice.url);
    const page = await fetch(notice.url ?? '');
    expect(page.status).toBe(200);
  });

  it('a clipboard that refuses: the link is still in the notice', async () => {
    const refusing: ClipboardPort = {
      writeText: () => {
        throw new Error('no clipboard owner');
      },
    };
    const notice = await new ShareAction({ core, clipboard: refusing }).share([join(folder, 'budget.csv')]);
    expect(notice).toMatchObject({ outcome: 'not-copied', code: 'CLIPBOARD_UNAVAILABLE', view: 'shares' });
    expect(notice.url).not.toBeNull();
    expect(notice.body).toContain(notice.url ?? '');
  });

  it('the device gone: says it did not answer, copies nothing', async () => {
    await device?.stop();
    device = undefined;
    const before = copied.length;
    const notice = await new ShareAction({ core, clipboard }).share([join(folder, 'budget.csv')]);
    expect(notice).toMatchObject({
      outcome: 'failed',
      title: 'Device unreachable',
      view: 'status',
      url: null,
    });
    expect(['DEVICE_UNREACHABLE', 'NETWORK', 'TIMEOUT']).toContain(notice.code);
    expect(copied).toHaveLength(before);
  }, 120_000);
});
