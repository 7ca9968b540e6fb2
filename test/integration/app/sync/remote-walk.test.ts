// The remote walk and --remote-folder resolution against the real local device, with the requests each costs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeviceClient, type ListingAnswer, type ListOptions } from '../../../../app/api/device-client.ts';
import { ensureRemoteFolder } from '../../../../app/sync/remote/remote-folder.ts';
import { walkRemote } from '../../../../app/sync/remote/remote-walk.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { createFile } from '../../../helpers/multipart.ts';

const LIST = 'GET /sdk/v2/filesSearch/parents';

let device: TestDevice;

beforeEach(async () => {
  device = await startTestDevice();
});
afterEach(async () => {
  await device.stop();
});

interface Tree {
  rootId: string;
  ids: Record<string, string>;
}

/** sync/ with a.txt, docs/{d1.txt, deep/{x.bin}}, photos/{p0..p6.jpg}, empty/. */
async function buildTree(api: DeviceClient): Promise<Tree> {
  const ids: Record<string, string> = {};
  const rootId = (await api.createFolder({ name: 'sync' })).id;
  const folder = async (path: string, parentId: string): Promise<string> => {
    const name = path.split('/').at(-1) ?? path;
    ids[path] = (await api.createFolder({ name, parentId })).id;
    return ids[path];
  };
  const file = async (path: string, parentId: string, content: string, mTimeMs?: number): Promise<void> => {
    const name = path.split('/').at(-1) ?? path;
    ids[path] = (
      await api.create({ name, parentId, content: Buffer.from(content), ...(mTimeMs ? { mTimeMs } : {}) })
    ).id;
  };
  await file('a.txt', rootId, 'hello', Date.parse('2026-01-02T03:04:05.678Z'));
  const docs = await folder('docs', rootId);
  await file('docs/d1.txt', docs, 'document');
  const deep = await folder('docs/deep', docs);
  await file('docs/deep/x.bin', deep, 'xyz');
  const photos = await folder('photos', rootId);
  for (let i = 0; i < 7; i += 1) await file(`photos/p${i}.jpg`, photos, `photo ${i}`);
  await folder('empty', rootId);
  return { rootId, ids };
}

function paths(entries: Map<string, { path: string }>): string[] {
  return [...entries.values()].map((entry) => entry.path).sort();
}

const ALL_PATHS = [
  'a.txt',
  'docs',
  'docs/d1.txt',
  'docs/deep',
  'docs/deep/x.bin',
  'empty',
  'photos',
  ...Array.from({ length: 7 }, (_, i) => `photos/p${i}.jpg`),
].sort();

describe('walkRemote', () => {
  it('walks three levels below the root with paths, kinds, sizes, times and eTags', async () => {
    const { device: api } = clientFor(device);
    const tree = await buildTree(api);
    const walk = await walkRemote(api, tree.rootId);
    expect(paths(walk.entries)).toEqual(ALL_PATHS);
    expect(walk.entries.has(tree.rootId)).toBe(false);
    const a = walk.entries.get(tree.ids['a.txt'] ?? '');
    expect(a).toMatchObject({
      parentId: tree.rootId,
      name: 'a.txt',
      kind: 'file',
      size: 5,
      mTimeMs: Date.parse('2026-01-02T03:04:05.678Z'),
    });
    expect(a?.eTag).toMatch(/^".+"$/);
    expect(walk.entries.get(tree.ids['docs/deep'] ?? '')).toMatchObject({
      path: 'docs/deep',
      kind: 'folder',
      size: 0,
      parentId: tree.ids['docs'],
    });
    expect(walk.entries.get(tree.ids['docs/deep/x.bin'] ?? '')?.parentId).toBe(tree.ids['docs/deep']);
    // Parents come before their children.
    const order = [...walk.entries.values()].map((entry) => entry.path);
    expect(order.indexOf('docs')).toBeLessThan(order.indexOf('docs/deep'));
    expect(order.indexOf('docs/deep')).toBeLessThan(order.indexOf('docs/deep/x.bin'));
    expect(walk.rejected).toEqual([]);
    expect(walk.vanished).toEqual([]);
    expect(walk.unchanged.size).toBe(0);
  });

  it('follows listing pages: a folder of 7 with a page size of 3 costs three pages', async () => {
    const { device: api, requests } = clientFor(device);
    const tree = await buildTree(api);
    const before = requests().length;
    const walk = await walkRemote(api, tree.ids['photos'] ?? '', { pageSize: 3 });
    expect(paths(walk.entries)).toEqual(Array.from({ length: 7 }, (_, i) => `p${i}.jpg`));
    expect(requests().slice(before)).toEqual([LIST, LIST, LIST]);
  });

  it('walks a folder of more than 100 children with the device page size (two pages)', async () => {
    const { device: api, requests } = clientFor(device);
    const rootId = (await api.createFolder({ name: 'many' })).id;
    await Promise.all(
      Array.from({ length: 105 }, (_, i) =>
        api.create({ name: `f${i}.txt`, parentId: rootId, content: Buffer.from('x') }),
      ),
    );
    const before = requests().length;
    const walk = await walkRemote(api, rootId);
    expect(walk.entries.size).toBe(105);
    expect(requests().slice(before)).toEqual([LIST, LIST]);
  });

  it('a second walk with the cache costs one 304 per unchanged folder and gives the same entries', async () => {
    const { device: api, requests } = clientFor(device);
    const tree = await buildTree(api);
    const first = await walkRemote(api, tree.rootId, { pageSize: 3 });
    expect(first.stats).toEqual({ listed: 5, notModified: 0, trusted: 0 });
    const before = requests().length;
    const second = await walkRemote(api, tree.rootId, { pageSize: 3, cache: first.cache });
    // root, docs, docs/deep, photos, empty: one request each, photos' three pages became one 304.
    expect(requests().slice(before)).toEqual([LIST, LIST, LIST, LIST, LIST]);
    expect(second.stats).toEqual({ listed: 0, notModified: 5, trusted: 0 });
    expect(second.unchanged).toEqual(
      new Set([tree.rootId, tree.ids['docs'], tree.ids['docs/deep'], tree.ids['photos'], tree.ids['empty']]),
    );
    expect(second.entries).toEqual(first.entries);
    // Unchanged folders give the cached entries themselves: no copy of 100,000 unchanged items.
    for (const [id, entry] of second.entries) expect(entry).toBe(first.entries.get(id));
  });

  it('a cache made with another page size is not used', async () => {
    const { device: api } = clientFor(device);
    const tree = await buildTree(api);
    const first = await walkRemote(api, tree.rootId, { pageSize: 3 });
    const second = await walkRemote(api, tree.rootId, { cache: first.cache });
    expect(second.stats).toEqual({ listed: 5, notModified: 0, trusted: 0 });
  });

  it('a changed folder is listed again; its unchanged subfolders still answer 304 with new paths', async () => {
    const { device: api } = clientFor(device);
    const tree = await buildTree(api);
    const first = await walkRemote(api, tree.rootId);
    await api.patch(tree.ids['docs'] ?? '', { name: 'papers' });
    const second = await walkRemote(api, tree.rootId, { cache: first.cache });
    expect(second.unchanged).toEqual(
      new Set([tree.ids['docs'], tree.ids['docs/deep'], tree.ids['photos'], tree.ids['empty']]),
    );
    expect(second.stats).toEqual({ listed: 1, notModified: 4, trusted: 0 });
    expect(second.entries.get(tree.ids['docs/deep/x.bin'] ?? '')?.path).toBe('papers/deep/x.bin');
    // The first walk's entries are its own: the new paths are new entries.
    expect(first.entries.get(tree.ids['docs/deep/x.bin'] ?? '')?.path).toBe('docs/deep/x.bin');
    const third = await walkRemote(api, tree.rootId, { cache: second.cache });
    expect(third.stats).toEqual({ listed: 0, notModified: 5, trusted: 0 });
    expect(third.entries.get(tree.ids['docs/deep/x.bin'] ?? '')?.path).toBe('papers/deep/x.bin');
  });

  it('trusted folders come from the cache with no request; the others are asked for', async () => {
    const { device: api, requests } = clientFor(device);
    const tree = await buildTree(api);
    const first = await walkRemote(api, tree.rootId);
    await api.patch(tree.ids['docs/deep/x.bin'] ?? '', { name: 'renamed.bin' });
    const before = requests().length;
    const docsId = tree.ids['docs/deep'] ?? '';
    const second = await walkRemote(api, tree.rootId, {
      cache: first.cache,
      trust: (folderId) => folderId !== docsId,
    });
    expect(requests().slice(before)).toHaveLength(1);
    expect(second.stats).toEqual({ listed: 1, notModified: 0, trusted: 4 });
    expect(paths(second.entries)).toContain('docs/deep/renamed.bin');
    // Without trust, unchanged folders cost a 304 each; docs's listing changed with deep's eTag (a
    // direct child), which the trusted copy could not know, so docs is listed again.
    const third = await walkRemote(api, tree.rootId, { cache: second.cache });
    expect(third.stats).toEqual({ listed: 1, notModified: 4, trusted: 0 });
    expect(third.unchanged.has(tree.ids['docs'] ?? '')).toBe(false);
  });

  it('a folder deleted between walks is gone with its subtree, and dropped from the cache', async () => {
    const { device: api } = clientFor(device);
    const tree = await buildTree(api);
    const first = await walkRemote(api, tree.rootId);
    await api.delete(tree.ids['docs'] ?? '');
    const second = await walkRemote(api, tree.rootId, { cache: first.cache });
    expect(paths(second.entries)).toEqual(ALL_PATHS.filter((path) => !path.startsWith('docs')));
    expect(second.vanished).toEqual([]);
    expect(second.cache.folders.has(tree.ids['docs'] ?? '')).toBe(false);
    expect(second.unchanged.has(tree.rootId)).toBe(false);
  });

  it('a folder deleted mid-walk (404 on its own listing) is reported as vanished, its subtree unknown', async () => {
    const { device: api } = clientFor(device);
    const tree = await buildTree(api);
    const docsId = tree.ids['docs'] ?? '';
    // Deletes docs on the device right after its parent's listing named it, before docs is listed.
    class DeletingClient extends DeviceClient {
      override async listAll(
        folderId: string,
        options?: Omit<ListOptions, 'pageToken'>,
      ): Promise<ListingAnswer> {
        const answer = await super.listAll(folderId, options);
        if (folderId === tree.rootId) await super.delete(docsId);
        return answer;
      }
    }
    const racing = new DeletingClient({ deviceUrl: device.base, transport: api.transport });
    const walk = await walkRemote(racing, tree.rootId);
    expect(walk.vanished.map(({ id, path, error }) => ({ id, path, code: error.code }))).toEqual([
      { id: docsId, path: 'docs', code: 'NOT_FOUND' },
    ]);
    // The parent's listing said docs was there; nothing below it was seen.
    expect(walk.entries.get(docsId)?.path).toBe('docs');
    expect(paths(walk.entries).filter((path) => path.startsWith('docs/'))).toEqual([]);
    expect(walk.cache.folders.has(docsId)).toBe(false);
  });

  it('reports an item the API layer refused (a backslash name) with its folder, and walks the rest', async () => {
    const { device: api } = clientFor(device);
    const tree = await buildTree(api);
    const bad = await createFile(device, 'a\\b.txt', 'x', tree.ids['docs/deep']);
    const walk = await walkRemote(api, tree.rootId);
    expect(paths(walk.entries)).toEqual(ALL_PATHS);
    expect(
      walk.rejected.map(({ folderId, folderPath, id, name, error }) => ({
        folderId,
        folderPath,
        id,
        name,
        code: error.code,
      })),
    ).toEqual([
      {
        folderId: tree.ids['docs/deep'],
        folderPath: 'docs/deep',
        id: bad.id,
        name: 'a\\b.txt',
        code: 'INVALID_NAME',
      },
    ]);
  });

  it('an item or folder moved mid-walk into a folder listed later keeps its first place, walked once', async () => {
    const { device: api } = clientFor(device);
    const tree = await buildTree(api);
    const photos = tree.ids['photos'] ?? '';
    // Right after docs is listed, moves its file and its subfolder into photos, not listed yet.
    class MovingClient extends DeviceClient {
      override async listAll(
        folderId: string,
        options?: Omit<ListOptions, 'pageToken'>,
      ): Promise<ListingAnswer> {
        const answer = await super.listAll(folderId, options);
        if (folderId === tree.ids['docs']) {
          await super.patch(tree.ids['docs/d1.txt'] ?? '', { parentId: photos });
          await super.patch(tree.ids['docs/deep'] ?? '', { parentId: photos });
        }
        return answer;
      }
    }
    const moving = new MovingClient({ deviceUrl: device.base, transport: api.transport });
    const walk = await walkRemote(moving, tree.rootId, { concurrency: 1 });
    // Breadth first, one at a time: photos is listed after docs and holds both too. The first place
    // (docs) wins, and deep is listed only once.
    expect(paths(walk.entries)).toEqual(ALL_PATHS);
    expect(walk.entries.get(tree.ids['docs/deep/x.bin'] ?? '')?.path).toBe('docs/deep/x.bin');
    expect(walk.stats.listed).toBe(5);
    expect([...walk.entries.keys()].indexOf(tree.ids['docs/deep'] ?? '')).toBeLessThan(
      [...walk.entries.keys()].indexOf(tree.ids['docs/deep/x.bin'] ?? ''),
    );
  });

  it('lists at most `concurrency` folders at once', async () => {
    const { device: api } = clientFor(device);
    const rootId = (await api.createFolder({ name: 'wide' })).id;
    for (let i = 0; i < 8; i += 1) await api.createFolder({ name: `d${i}`, parentId: rootId });
    let active = 0;
    let peak = 0;
    class CountingClient extends DeviceClient {
      override async listAll(
        folderId: string,
        options?: Omit<ListOptions, 'pageToken'>,
      ): Promise<ListingAnswer> {
        active += 1;
        peak = Math.max(peak, active);
        try {
          return await super.listAll(folderId, options);
        } finally {
          active -= 1;
        }
      }
    }
    const counting = new CountingClient({ deviceUrl: device.base, transport: api.transport });
    const walk = await walkRemote(counting, rootId, { concurrency: 3 });
    expect(walk.stats.listed).toBe(9);
    expect(peak).toBe(3);
  });

  it('a missing root is a REMOTE_ROOT_MISSING error, never an empty tree', async () => {
    const { device: api } = clientFor(device);
    const gone = (await api.createFolder({ name: 'gone' })).id;
    await api.delete(gone);
    await expect(walkRemote(api, gone)).rejects.toMatchObject({ code: 'REMOTE_ROOT_MISSING' });
  });

  it('stops with ABORTED when the signal is aborted', async () => {
    const { device: api } = clientFor(device);
    const tree = await buildTree(api);
    const controller = new AbortController();
    controller.abort();
    await expect(walkRemote(api, tree.rootId, { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});

describe('ensureRemoteFolder', () => {
  it('creates a/b/c, then finds it again with lookups only', async () => {
    const { device: api, requests } = clientFor(device);
    const made = await ensureRemoteFolder(api, '/a/b/c');
    expect(made.created).toEqual(['a', 'a/b', 'a/b/c']);
    const file = await api.getFile(made.id);
    expect(file).toMatchObject({ name: 'c', isFolder: true });
    const before = requests().length;
    const again = await ensureRemoteFolder(api, 'a/b/c/');
    expect(again).toEqual({ id: made.id, created: [] });
    expect(requests().slice(before)).toEqual(Array(3).fill('GET /sdk/v2/filesSearch/parentAndName'));
  });

  it("'' and '/' are the device root", async () => {
    const { device: api } = clientFor(device);
    const root = await api.getFile('root');
    expect(await ensureRemoteFolder(api, '')).toEqual({ id: root.id, created: [] });
    expect(await ensureRemoteFolder(api, '/')).toEqual({ id: root.id, created: [] });
  });

  it('a folder created by someone else between the lookup and the create (409) is looked up again', async () => {
    const { device: api } = clientFor(device);
    const a = (await api.createFolder({ name: 'a' })).id;
    // The first lookup of "b" misses, as if another client created it right after.
    let stale = true;
    class StaleClient extends DeviceClient {
      override async findByName(parentId: string, name: string, options?: { signal?: AbortSignal }) {
        if (name === 'b' && stale) {
          stale = false;
          await super.createFolder({ parentId, name });
          return undefined;
        }
        return super.findByName(parentId, name, options);
      }
    }
    const racing = new StaleClient({ deviceUrl: device.base, transport: api.transport });
    const made = await ensureRemoteFolder(racing, 'a/b');
    expect(made.created).toEqual([]);
    expect((await api.findByName(a, 'b'))?.id).toBe(made.id);
  });

  it('refuses a path through a file, an empty segment, and a bad name', async () => {
    const { device: api } = clientFor(device);
    await api.create({ name: 'f.txt', content: Buffer.from('x') });
    await expect(ensureRemoteFolder(api, 'f.txt/sub')).rejects.toMatchObject({
      code: 'REMOTE_PATH_NOT_A_FOLDER',
    });
    await expect(ensureRemoteFolder(api, 'a//b')).rejects.toMatchObject({ code: 'REMOTE_PATH_INVALID' });
    await expect(ensureRemoteFolder(api, 'a/..')).rejects.toMatchObject({ code: 'INVALID_NAME' });
  });
});
