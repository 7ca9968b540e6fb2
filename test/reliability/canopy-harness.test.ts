// The randomized test's own harness: applying a scenario to real folders gives the trees its model predicts.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { checkTreesMatch } from './canopy/invariants.ts';
import { itemsOf } from './canopy/model.ts';
import { simulate } from './canopy/replay.ts';
import { generateScenario } from './canopy/scenario.ts';
import { generatorForThisMachine } from './canopy/run.ts';
import { readDeviceTree, readLocalTree, readTrashedContents } from './canopy/snapshot.ts';

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
