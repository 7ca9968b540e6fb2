// Sharing an item the running live sync has not uploaded yet: a real control socket and a real index,
// with a service stand-in whose "upload" is the index row it writes, so each outcome is certain.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type { SyncStatus } from '../../../../common/sync-status.ts';
import { indexFilePath, openIndexDb, type IndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import type { FolderPair } from '../../../../app/profile/folder-pairs.ts';
import { startControlServer, type ControlServer } from '../../../../app/live-service/control-server.ts';
import { controlSocketPath } from '../../../../app/live-service/control-socket-path.ts';
import { placeLocalItems } from '../../../../app/share/shared-items.ts';
import { waitForUploads } from '../../../../app/share/upload-wait.ts';
import { META_REMOTE_ROOT } from '../../../../app/index/meta-keys.ts';

let home: string;
let pair: FolderPair;
let db: IndexDb;
let server: ControlServer | undefined;
let status: SyncStatus;

test.beforeEach(({ tempDir }) => {
  home = tempDir;
  const localRoot = join(home, 'Folder');
  mkdirSync(localRoot);
  writeFileSync(join(localRoot, 'new.txt'), 'new');
  const profileDir = join(home, 'profile');
  pair = { localRoot, remoteFolder: '/Folder', indexPath: indexFilePath(profileDir, localRoot) };
  db = openIndexDb(pair.indexPath);
  new IndexStore(db).setMeta(META_REMOTE_ROOT, 'root-id');
  status = {
    state: 'idle',
    detail: null,
    localRoot,
    remoteFolder: '/Folder',
    progress: null,
    lastSyncAtMs: null,
    activity: [],
    issues: [],
    pid: process.pid,
  };
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  db.close();
});

function profileDir(): string {
  return join(home, 'profile');
}

/** The live service stand-in: "sync now" uploads (writes the row) after `afterMs`, or never. */
async function serve(afterMs: number | undefined): Promise<string[]> {
  const asked: string[] = [];
  server = await startControlServer({
    socketPath: controlSocketPath(profileDir(), pair.localRoot),
    handler: {
      status: () => status,
      pause: () => {},
      resume: () => {},
      confirmDeletes: () => {},
      restore: () => {},
      syncNow: () => {
        asked.push('sync-now');
        if (afterMs === undefined) return;
        setTimeout(() => {
          new IndexStore(db).upsert({
            remoteId: 'uploaded-id',
            parentRemoteId: 'root-id',
            path: 'new.txt',
            name: 'new.txt',
            kind: 'file',
            eTag: '"1"',
            size: 3,
            mTimeMs: 0,
            inode: '1',
            localSize: 3,
            localMtimeNs: 0n,
            contentHash: null,
          });
        }, afterMs);
      },
    },
  });
  return asked;
}

function waitForNew(timeoutMs = 20_000): Promise<unknown> {
  const items = placeLocalItems([pair], [join(pair.localRoot, 'new.txt')]);
  const said: string[] = [];
  return waitForUploads(items, {
    profileDir: profileDir(),
    onWaiting: (m) => said.push(m),
    timeoutMs,
    pollMs: 20,
  }).then((synced) => ({ synced, said }));
}

describe('waitForUploads', () => {
  it('asks the running sync to sync now, says so, and returns the item once its row exists', async () => {
    const asked = await serve(300);
    const { synced, said } = (await waitForNew()) as { synced: Array<{ id: string }>; said: string[] };
    expect(asked).toEqual(['sync-now']);
    expect(synced.map((item) => item.id)).toEqual(['uploaded-id']);
    expect(said).toEqual([
      `Waiting for the running sync of ${pair.localRoot} to upload ${join(pair.localRoot, 'new.txt')} (up to a minute)…`,
    ]);
  });

  it('says how to sync when no live sync runs for the folder', async () => {
    await expect(waitForNew()).rejects.toThrow(/no live sync runs for .*mch-sync run --folder/);
  });

  it('stops at once when the sync is paused, and names the command that resumes it', async () => {
    status = { ...status, state: 'paused' };
    await serve(undefined);
    await expect(waitForNew()).rejects.toThrow(/is paused: `mch-sync resume --folder/);
  });

  it('stops when the sync reports the item skipped, with its reason', async () => {
    await serve(undefined);
    setTimeout(() => {
      status = {
        ...status,
        issues: [
          { kind: 'skipped', path: 'new.txt', code: 'INVALID_NAME', message: 'the device refuses this name' },
        ],
      };
    }, 100);
    await expect(waitForNew()).rejects.toThrow(
      /new\.txt cannot be uploaded, so it cannot be shared: the device refuses/,
    );
  });

  it('gives up after its time limit, saying where to look', async () => {
    await serve(undefined);
    await expect(waitForNew(600)).rejects.toThrow(
      /still not on the device after 1 s\. See `mch-sync status --folder/,
    );
  });
});
