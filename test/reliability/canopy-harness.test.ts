// The randomized test's own harness: applying a scenario to real folders gives the trees its model predicts; what it reads of the versions store.
import { linkSync, lstatSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndexDb, type IndexDb } from '../../app/index/index-db.ts';
import { IndexStore } from '../../app/index/index-store.ts';
import { ensureRemoteFolder } from '../../app/sync/remote/remote-folder.ts';
import { clientFor } from '../helpers/api-client.ts';
import { startTestDevice, type TestDevice } from '../helpers/device.ts';
import {
  applyLocalChange,
  applyRemoteChange,
  buildLocalTree,
  buildRemoteTree,
  type LocalSide,
  type RemoteSide,
} from './canopy/apply.ts';
import {
  checkNoContentLost,
  checkTreesMatch,
  requiredContents,
  type PassState,
} from './canopy/invariants.ts';
import { Ledger } from './canopy/ledger.ts';
import { itemsOf } from './canopy/model.ts';
import { simulate } from './canopy/replay.ts';
import { generateScenario } from './canopy/scenario.ts';
import { generatorForThisMachine } from './canopy/run.ts';
import {
  readDeviceTree,
  readLocalTree,
  readTrashedContents,
  readVersionStore,
  VERSIONS_FOLDER,
} from './canopy/snapshot.ts';

let device: TestDevice;
let work: string;

beforeAll(async () => {
  device = await startTestDevice({ dataDir: mkdtempSync('/dev/shm/mch-canopy-device-') });
  work = mkdtempSync(join(tmpdir(), 'mch-canopy-harness-'));
});
afterAll(async () => {
  await device.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('applying scenarios without a sync engine', () => {
  // Both sides start from the initial tree and take their own changes: each must end as the model says.
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])(
    'seed %i: each side ends as the model predicts',
    async (seed) => {
      const scenario = generateScenario(seed, generatorForThisMachine());
      const expected = simulate(scenario);
      const local: LocalSide = { root: join(work, `local-${seed}`), scratch: join(work, `scratch-${seed}`) };
      mkdirSync(local.root);
      mkdirSync(local.scratch);
      const client = clientFor(device).device;
      const remote: RemoteSide = {
        client,
        device: device.running.context,
        folderId: (await ensureRemoteFolder(client, `/harness-${seed}`)).id,
      };
      buildLocalTree(local, scenario.initial);
      await buildRemoteTree(remote, scenario.initial);
      for (const change of scenario.local) applyLocalChange(local, change);
      for (const change of scenario.remote) await applyRemoteChange(remote, change);
      expect(
        checkTreesMatch(readLocalTree(local.root), itemsOf(expected.local.tree), ['local', 'model']),
      ).toEqual([]);
      const remoteTree = readDeviceTree(device.running.context, remote.folderId);
      expect(checkTreesMatch(remoteTree, itemsOf(expected.remote.tree), ['device', 'model'])).toEqual([]);
      // The NFC comparison above would not see a name respelled: the exact names must match too.
      expect(remoteTree.map((item) => item.path).sort()).toEqual([...expected.remote.tree.keys()].sort());
    },
  );

  it('reads every file below the trash folders, nested or not', () => {
    const trash = join(work, 'trash');
    const local: LocalSide = { root: trash, scratch: work };
    mkdirSync(trash);
    buildLocalTree(local, [
      { path: 'a', kind: 'file', content: 'one' },
      { path: 'd', kind: 'folder' },
      { path: 'd/b', kind: 'file', content: 'two' },
    ]);
    expect(readTrashedContents([trash, join(work, 'missing')]).sort()).toEqual(['one', 'two']);
  });
});

describe('the versions store (issue 31)', () => {
  const keep = (db: IndexDb, path: string, blob: string, size: number, state = 'kept'): void => {
    db.prepare(
      `INSERT INTO versions (path, blob, reason, size, m_time_ms, kept_at_ms, state)
       VALUES (?, ?, 'deleted', ?, 0, 0, ?)`,
    ).run(path, blob, size, state);
  };

  it('reads every file of the store with its row, and names each disagreement', () => {
    const root = join(work, 'versions-pair');
    const store = join(root, VERSIONS_FOLDER);
    mkdirSync(join(store, 'k2', 'd'), { recursive: true });
    writeFileSync(join(store, 'k1'), 'one');
    writeFileSync(join(store, 'k2', 'd', 'b'), 'two');
    writeFileSync(join(store, 'k3'), 'three');
    writeFileSync(join(root, 'live.txt'), 'four');
    linkSync(join(root, 'live.txt'), join(store, 'k4'));
    const db = openIndexDb(':memory:');
    keep(db, 'a.txt', 'k1', 3);
    keep(db, 'x/d/b', 'k2/d/b', 3);
    keep(db, 'live.txt', 'k4', 4);
    keep(db, 'gone.txt', 'k5', 1);
    keep(db, 'half.txt', 'k6', 0, 'pending');
    keep(db, 'big.txt', 'k7', 9);
    writeFileSync(join(store, 'k7'), 'seven');
    const seen = readVersionStore(root, db);
    db.close();
    expect(seen.files.map((file) => [file.content, file.path]).sort()).toEqual([
      ['four', 'live.txt'],
      ['one', 'a.txt'],
      ['seven', 'big.txt'],
      ['three', undefined],
      ['two', 'x/d/b'],
    ]);
    expect([...seen.disagreements].sort()).toEqual([
      'a keep of "half.txt" is still pending at quiet (k6)',
      `the kept row of "gone.txt" (deleted) names k5: no such file in the store`,
      `the store's k3: no kept row names it`,
      `the store's k4 ("live.txt", deleted) has 2 links: it is not a copy of its own`,
      `the store's k7 ("big.txt", deleted): its row says 9 bytes, the file holds 5`,
    ]);
  });

  it('opens an index file read-only, and an index without the table has no rows', () => {
    const root = join(work, 'versions-file');
    mkdirSync(join(root, VERSIONS_FOLDER), { recursive: true });
    writeFileSync(join(root, VERSIONS_FOLDER, 'k1'), 'one');
    const path = join(work, 'versions-index.db');
    const db = openIndexDb(path);
    keep(db, 'a.txt', 'k1', 3);
    db.close();
    expect(readVersionStore(root, path)).toEqual({
      files: [{ blob: 'k1', content: 'one', path: 'a.txt', reason: 'deleted' }],
      disagreements: [],
    });
    expect(readVersionStore(join(work, 'no-pair'), join(work, 'no-index.db'))).toEqual({
      files: [],
      disagreements: [],
    });
  });

  it('wants the copy a device edit replaced as a version, and a deleted one anywhere', () => {
    const state = (local: string[], versions: string[], skipped: string[] = []): PassState => ({
      local: local.map((content, at) => ({ path: `f${at}`, kind: 'file', content })),
      remote: [],
      index: [],
      trashed: [],
      versions: { files: versions.map((content) => ({ blob: content, content })), disagreements: [] },
      skipped,
    });
    const required = [{ content: 'old', why: 'replaced', in: 'versions' as const }];
    expect(checkNoContentLost(required, state([], ['old']))).toEqual([]);
    expect(checkNoContentLost(required, state(['old'], []))).toEqual([
      { code: 'content-lost', message: '"old" is not a version (replaced)' },
    ]);
    // Under a name the pass leaves out, nothing comes down over it.
    expect(checkNoContentLost(required, state(['old'], [], ['f0']))).toEqual([]);
    expect(checkNoContentLost([{ content: 'old', why: 'deleted' }], state(['old'], []))).toEqual([]);
    const initial = [{ path: 'a', kind: 'file' as const, content: 'old' }];
    const scenario = { seed: 1, caseInsensitive: false, initialSide: 'local' as const, initial, local: [] };
    const edited = { ...scenario, remote: [{ op: 'edit' as const, path: 'a', content: 'new' }] };
    expect(requiredContents(edited).find((version) => version.content === 'old')?.in).toBe('versions');
    const gone = { ...edited, remote: [...edited.remote, { op: 'delete' as const, path: 'a' }] };
    const deleted = requiredContents(gone).find((version) => version.content === 'old');
    expect(deleted?.in).toBeUndefined();
    expect(deleted?.why).toContain('belongs in the versions or the trash');
  });

  it("the ledger wants the synced copy here a device edit replaces as a version, not an unsynced one's", async () => {
    const local: LocalSide = { root: join(work, 'ledger-local'), scratch: join(work, 'ledger-scratch') };
    mkdirSync(local.root);
    mkdirSync(local.scratch);
    const client = clientFor(device).device;
    const remote: RemoteSide = {
      client,
      device: device.running.context,
      folderId: (await ensureRemoteFolder(client, '/harness-ledger')).id,
    };
    const items = [
      { path: 'synced.txt', kind: 'file' as const, content: 's1' },
      { path: 'edited.txt', kind: 'file' as const, content: 'e1' },
    ];
    buildLocalTree(local, items);
    await buildRemoteTree(remote, items);
    const index = new IndexStore(openIndexDb(':memory:'));
    for (const item of readDeviceTree(device.running.context, remote.folderId)) {
      const stats = lstatSync(join(local.root, item.path), { bigint: true });
      index.upsert({
        remoteId: item.id ?? '',
        parentRemoteId: remote.folderId,
        path: item.path,
        name: item.path,
        kind: 'file',
        eTag: item.eTag ?? '',
        size: item.size ?? 0,
        mTimeMs: item.mTimeMs ?? 0,
        inode: stats.ino.toString(),
        localSize: Number(stats.size),
        localMtimeNs: stats.mtimeNs,
        contentHash: null,
      });
    }
    const ledger = new Ledger(items, { local, index: () => index });
    // Written here since the engine saw it (the same bytes, another time): a conflict keeps it as it is.
    utimesSync(join(local.root, 'edited.txt'), new Date(2020, 1, 1), new Date(2020, 1, 1));
    await ledger.remote(remote, { op: 'edit', path: 'synced.txt', content: 's2' });
    await ledger.remote(remote, { op: 'edit', path: 'edited.txt', content: 'e3' });
    expect(ledger.required().filter((version) => version.in === 'versions')).toEqual([
      {
        content: 's1',
        why: 'synced here, overwritten on the device: belongs in the versions',
        in: 'versions',
      },
    ]);
    // Moved here since: it may go where nothing comes down (a kept copy), so anywhere will do.
    ledger.local(local, { op: 'move', from: 'synced.txt', to: 'moved.txt' });
    expect(ledger.required().filter((version) => version.in === 'versions')).toEqual([]);
    expect(ledger.required().map((version) => version.content)).toContain('s1');
  });
});
