// The executor's creates on the real device: a name held by an item the plan moves away later is freed first.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexFilePath, openIndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import { newExecutionContext } from '../../../../app/sync/execute/execution-context.ts';
import { executePlan } from '../../../../app/sync/execute/executor.ts';
import { IndexWriter } from '../../../../app/index/index-writes.ts';
import type { LocalEntry, RemoteEntry } from '../../../../app/model/items.ts';
import type { Operation } from '../../../../app/sync/plan/operations.ts';
import { emptyCounts } from '../../../../app/sync/pass-report.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';

let device: TestDevice;
const folders: string[] = [];
beforeEach(async () => {
  device = await startTestDevice();
});
afterEach(async () => {
  await device.stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function localEntry(root: string, path: string): LocalEntry {
  const stats = statSync(join(root, path), { bigint: true });
  return {
    path,
    kind: stats.isDirectory() ? 'folder' : 'file',
    inode: stats.ino.toString(),
    size: stats.isDirectory() ? 0 : Number(stats.size),
    mtimeNs: stats.mtimeNs,
  };
}

describe('a create whose name an item of the same plan still holds', () => {
  it('parks that item, creates, then moves it into place under its own name (seed 2070)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mch-execute-create-'));
    folders.push(root);
    // On disk: the new folder `notes` holds the file `notes` that used to be at the top.
    mkdirSync(join(root, 'notes'));
    writeFileSync(join(root, 'notes', 'notes'), 'content');
    const { device: api, requests } = clientFor(device);
    const rootId = (await api.createFolder({ name: 'sync' })).id;
    const file = await api.create({ name: 'notes', parentId: rootId, content: Buffer.from('content') });
    const eTag = file.eTag ?? '';
    const db = openIndexDb(indexFilePath(join(root, '.profile'), root));
    const store = new IndexStore(db);
    const remoteFile: RemoteEntry = {
      id: file.id,
      parentId: rootId,
      path: 'notes',
      name: 'notes',
      kind: 'file',
      eTag,
      size: 7,
      mTimeMs: 1,
    };
    const onDisk = localEntry(root, 'notes/notes');
    store.upsert({
      remoteId: file.id,
      parentRemoteId: rootId,
      path: 'notes',
      name: 'notes',
      kind: 'file',
      eTag,
      size: 7,
      mTimeMs: 1,
      inode: onDisk.inode,
      localSize: 7,
      localMtimeNs: onDisk.mtimeNs,
      contentHash: null,
    });
    const context = newExecutionContext(
      {
        client: api,
        writer: new IndexWriter(store),
        versionStore: undefined,
        localRoot: root,
        env: {},
        now: () => new Date(0),
      },
      {
        remote: new Map([[file.id, remoteFile]]),
        remoteRootId: rootId,
        report: { counts: emptyCounts(), issues: [], operations: {} },
        touchedFolders: new Set(),
        signal: undefined,
      },
    );
    const operations: Operation[] = [
      {
        op: 'remote-create-folder',
        path: 'notes',
        name: 'notes',
        parent: { kind: 'existing', remoteId: rootId },
        local: localEntry(root, 'notes'),
        replacesRemoteId: null,
        reason: 'sync',
      },
      {
        op: 'remote-move',
        remoteId: file.id,
        ifMatch: eTag,
        fromPath: 'notes',
        toPath: 'notes/notes',
        name: null,
        parent: { kind: 'planned', path: 'notes' },
        reason: 'sync',
      },
    ];
    const before = requests().length;

    const result = await executePlan(context, operations);

    expect(context.ledger.issues).toEqual([]);
    expect(result.replan).toBe(false);
    // The create is refused (409, not logged as an answer it can use), the holder found and parked,
    // the create sent again, and the parked file moved in under its own name.
    expect(requests().slice(before)).toEqual([
      'POST /sdk/v2/files',
      'GET /sdk/v2/filesSearch/parentAndName',
      'PATCH /sdk/v2/files/' + file.id,
      'POST /sdk/v2/files',
      'PATCH /sdk/v2/files/' + file.id,
    ]);
    const moved = await api.getFile(file.id);
    const folder = await api.findByName(rootId, 'notes');
    expect(folder?.isFolder).toBe(true);
    expect(moved.name).toBe('notes');
    expect(moved.parentID).toBe(folder?.id);
    expect(store.get(file.id)?.path).toBe('notes/notes');
    expect(store.byPath('notes')?.kind).toBe('folder');
    db.close();
  });
});
