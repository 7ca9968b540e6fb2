// Selective sync through the window's calls, against the real device: the tree with states and sizes, a folder left out with its copy removed or kept and taken back, a new folder waiting for its answer, a new pair made without some folders, and bad paths refused with nothing changed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type {
  InvokeName,
  InvokeRequest,
  InvokeResponse,
  PairView,
  UiError,
} from '../../../../common/contract.ts';
import { dispatch } from '../../../../app/ui/dispatch.ts';
import { callCore, openTestCore, signInAlice } from '../../../helpers/core-call.ts';
import type { UiCore } from '../../../../app/ui/ui-core.ts';
import { readPairSelection } from '../../../../app/profile/pair-selection.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { waitFor } from '../../../helpers/live-pair.ts';

let home: string;
let profile: string;
let core: UiCore;
let folder: string;
let pairId: string;

function call<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> {
  return callCore(core, name, request);
}

async function failure(name: InvokeName, request: unknown): Promise<UiError> {
  const result = await dispatch(core.handlers, name, request);
  if (result.ok) throw new Error(`${name} succeeded`);
  return result.error;
}

async function pairBecomes(check: (pair: PairView) => boolean, what: string, id = pairId): Promise<PairView> {
  return waitFor(what, async () => {
    const pair = (await call('pairs:list', {})).find((candidate) => candidate.id === id);
    return pair !== undefined && check(pair) ? pair : undefined;
  });
}

/** Waits until the pair has no pass running or queued and is idle. */
function settled(what: string, id = pairId): Promise<PairView> {
  return pairBecomes((pair) => pair.state === 'idle' && pair.progress === null, what, id);
}

function write(path: string, text: string): void {
  mkdirSync(join(folder, path, '..'), { recursive: true });
  writeFileSync(join(folder, path), text);
}

/** Writes a file on the device below /MyCloud, making its folders, as another computer would. */
async function writeOnDevice(device: TestDevice, path: string, text: string): Promise<void> {
  const client = clientFor(device).device;
  let parentId = (await client.findByName('root', 'MyCloud'))?.id ?? '';
  const names = path.split('/');
  for (const name of names.slice(0, -1)) {
    parentId =
      (await client.findByName(parentId, name))?.id ?? (await client.createFolder({ parentId, name })).id;
  }
  await client.create({ parentId, name: names.at(-1) ?? path, content: Buffer.from(text) });
}

test.beforeAll(async ({ device }) => {
  home = mkdtempSync(join(tmpdir(), 'mch-ui-selection-'));
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  profile = join(home, 'profile');
  folder = join(home, 'MyCloud');
  write('Docs/plan.txt', 'the plan\n');
  write('Photos/2019/old.jpg', 'an old photo');
  write('Photos/2024/new.jpg', 'a new photo, a bit longer');
  write('Photos/2024/beach.jpg', 'the beach');
  core = await openTestCore(home);
  await signInAlice(core, device);
  pairId = (await call('pairs:add', { localRoot: folder, remoteFolder: '/MyCloud' })).id;
  await pairBecomes((pair) => pair.state === 'idle' && pair.itemsSynced === 8, 'the first pass');
}, 60_000);

afterAll(async () => {
  await core?.close();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

describe('the tree', () => {
  it('lists a device folder’s folders with their state and what this computer holds of them', async () => {
    expect(await call('selection:list', { pairId, path: '' })).toEqual([
      expect.objectContaining({ path: 'Docs', name: 'Docs', state: 'synced', bytes: 9, files: 1 }),
      expect.objectContaining({ path: 'Photos', name: 'Photos', state: 'synced', bytes: 46, files: 3 }),
    ]);
    const photos = await call('selection:list', { pairId, path: 'Photos' });
    expect(photos.map((entry) => [entry.path, entry.state, entry.files])).toEqual([
      ['Photos/2019', 'synced', 1],
      ['Photos/2024', 'synced', 2],
    ]);
    expect((await settled('the view')).selection).toEqual({
      excluded: 0,
      waiting: [],
      askOverBytes: 500_000_000,
    });
  });

  it('refuses a folder that is not on the device, or a file, with nothing changed', async () => {
    expect(await failure('selection:list', { pairId, path: 'Nowhere' })).toMatchObject({
      code: 'SELECTION_PATH_MISSING',
      message: '/MyCloud/Nowhere is not on the device.',
    });
    expect(
      await failure('selection:set', { pairId, path: 'Docs/plan.txt', include: false, localCopy: 'remove' }),
    ).toMatchObject({ code: 'SELECTION_NOT_A_FOLDER' });
    expect(await failure('selection:list', { pairId: 'no-such-pair', path: '' })).toMatchObject({
      code: 'PAIR_NOT_FOUND',
    });
    expect(readPairSelection(profile, folder).excluded).toEqual([]);
  });
});

describe('leaving a folder out and taking it back', () => {
  it('removes the copy here when asked, keeps it on the device, and says partly above it', async ({
    device,
  }) => {
    const view = await call('selection:set', {
      pairId,
      path: 'Photos/2019',
      include: false,
      localCopy: 'remove',
    });
    expect(view.selection?.excluded).toBe(1);
    // No poll interval waited for: the change asked for a pass.
    await waitFor('the copy removed', () => (existsSync(join(folder, 'Photos/2019')) ? undefined : true));
    await settled('the pass');
    expect(await call('selection:list', { pairId, path: '' })).toContainEqual(
      expect.objectContaining({ path: 'Photos', state: 'partly', files: 2 }),
    );
    expect(await call('selection:list', { pairId, path: 'Photos' })).toEqual([
      expect.objectContaining({ path: 'Photos/2019', state: 'excluded', bytes: null, files: null }),
      expect.objectContaining({ path: 'Photos/2024', state: 'synced' }),
    ]);
    const client = clientFor(device).device;
    const onDevice = await client.findByName(
      (await client.findByName('root', 'MyCloud'))?.id ?? '',
      'Photos',
    );
    expect(await client.findByName(onDevice?.id ?? '', '2019')).toBeDefined();
  });

  it('brings it back when checked again', async () => {
    await call('selection:set', { pairId, path: 'Photos/2019', include: true, localCopy: null });
    await waitFor('the copy back', () =>
      existsSync(join(folder, 'Photos/2019/old.jpg')) ? true : undefined,
    );
    expect(readFileSync(join(folder, 'Photos/2019/old.jpg'), 'utf8')).toBe('an old photo');
    expect((await settled('the pass')).selection?.excluded).toBe(0);
  });

  it('keeps the copy here, unsynced, when asked to', async () => {
    await call('selection:set', { pairId, path: 'Docs', include: false, localCopy: 'keep' });
    await settled('the pass');
    expect(await call('selection:list', { pairId, path: '' })).toContainEqual(
      expect.objectContaining({ path: 'Docs', state: 'excluded' }),
    );
    expect(readFileSync(join(folder, 'Docs/plan.txt'), 'utf8')).toBe('the plan\n');
    // Leaving out what is left out already changes nothing.
    const again = await call('selection:set', { pairId, path: 'Docs', include: false, localCopy: 'remove' });
    expect(readPairSelection(profile, folder).excluded).toEqual([
      expect.objectContaining({ path: 'Docs', localCopy: 'keep' }),
    ]);
    expect(again.selection?.excluded).toBe(1);
    await call('selection:set', { pairId, path: 'Docs', include: true, localCopy: null });
    await settled('Docs again');
  });
});

describe('a new device folder over the threshold', () => {
  it('waits for an answer, then comes down once answered "sync it"', async ({ device }) => {
    expect((await call('selection:askOver', { pairId, bytes: 10 })).selection?.askOverBytes).toBe(10);
    await writeOnDevice(device, 'Videos/clip.mp4', 'a clip longer than ten bytes');
    await call('sync:now', { pairId });
    const waiting = await pairBecomes(
      (pair) => (pair.selection?.waiting.length ?? 0) > 0 && pair.state === 'idle',
      'the folder waiting',
    );
    expect(waiting.selection?.waiting).toEqual([{ path: 'Videos', bytes: 28, files: 1 }]);
    expect(existsSync(join(folder, 'Videos'))).toBe(false);
    expect(await call('selection:list', { pairId, path: '' })).toContainEqual(
      expect.objectContaining({ path: 'Videos', state: 'waiting', bytes: 28, files: 1 }),
    );
    await call('selection:set', { pairId, path: 'Videos', include: true, localCopy: null });
    await waitFor('the clip', () => (existsSync(join(folder, 'Videos/clip.mp4')) ? true : undefined));
    expect((await settled('the pass')).selection?.waiting).toEqual([]);
  });

  it('stays on the device when answered "don’t sync", and the threshold turns off', async ({ device }) => {
    await writeOnDevice(device, 'Films/long.mkv', 'a film longer than ten bytes');
    await call('sync:now', { pairId });
    await pairBecomes((pair) => (pair.selection?.waiting.length ?? 0) > 0, 'the folder waiting');
    const answered = await call('selection:set', {
      pairId,
      path: 'Films',
      include: false,
      localCopy: 'keep',
    });
    expect(answered.selection).toMatchObject({ excluded: 1, waiting: [] });
    await settled('the pass');
    expect(existsSync(join(folder, 'Films'))).toBe(false);
    expect((await call('selection:askOver', { pairId, bytes: null })).selection?.askOverBytes).toBeNull();
  });
});

describe('a new pair', () => {
  it('previews the device folder with the folders left out, and is made without them', async () => {
    const preview = await call('selection:preview', {
      remoteFolder: '/MyCloud',
      excluded: ['Photos'],
      path: '',
    });
    expect(preview.map((entry) => [entry.path, entry.state, entry.bytes])).toEqual([
      ['Docs', 'synced', null],
      ['Films', 'synced', null],
      ['Photos', 'excluded', null],
      ['Videos', 'synced', null],
    ]);
    // One pair per device folder: the first one goes (its files stay) for this one.
    await call('pairs:remove', { pairId, keepLocalFiles: true });
    const second = join(home, 'Laptop');
    mkdirSync(second);
    const added = await call('pairs:add', {
      localRoot: second,
      remoteFolder: '/MyCloud',
      excluded: ['Photos', 'Photos/2019', 'Films'],
    });
    expect(added.selection?.excluded).toBe(2);
    await settled('the second pair’s first pass', added.id);
    expect(existsSync(join(second, 'Docs/plan.txt'))).toBe(true);
    expect(existsSync(join(second, 'Photos'))).toBe(false);
    expect(existsSync(join(second, 'Films'))).toBe(false);
  });

  it('says a device folder not made yet has nothing to choose', async () => {
    expect(
      await failure('selection:preview', { remoteFolder: '/Not made yet', excluded: [], path: '' }),
    ).toMatchObject({ code: 'SELECTION_PATH_MISSING', title: 'Not on the device yet' });
  });

  it('refuses to be made with a folder left out that is not on the device, recording nothing', async () => {
    const third = join(home, 'Third');
    mkdirSync(third);
    expect(
      await failure('pairs:add', { localRoot: third, remoteFolder: '/MyCloud', excluded: ['Nowhere'] }),
    ).toMatchObject({ code: 'SELECTION_PATH_MISSING' });
    expect((await call('pairs:list', {})).map((pair) => pair.localRoot)).not.toContain(third);
  });
});
