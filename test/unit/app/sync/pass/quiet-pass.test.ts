// The settled-pass record: read once and dropped, written with the folders' digests, and never trusted when odd.
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDb, type IndexDb } from '../../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../../app/index/index-store.ts';
import { FOLDER_DIGEST_VERSION } from '../../../../../app/model/folder-digest.ts';
import type { PassIssue } from '../../../../../app/sync/pass-report.ts';
import { META_SETTLED } from '../../../../../app/index/meta-keys.ts';
import { recordSettled, takeSettledRecord } from '../../../../../app/sync/pass/quiet-pass.ts';

const open: IndexDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function newIndex(): IndexStore {
  const db = openIndexDb(':memory:');
  open.push(db);
  return new IndexStore(db);
}

const issue = (code: string, path: string): PassIssue => ({ kind: 'skipped', path, code, message: code });

describe('the settled-pass record', () => {
  it('keeps the issues that did not come from the scan, with every folder digest, and is read only once', () => {
    const index = newIndex();
    index.upsert({
      remoteId: 'd',
      parentRemoteId: 'R',
      path: 'docs',
      name: 'docs',
      kind: 'folder',
      eTag: '"d"',
      size: 0,
      mTimeMs: 1,
      inode: '5',
      localSize: 0,
      localMtimeNs: 1n,
      contentHash: null,
    });
    const scanned = issue('SYMLINK', 'link');
    const remote = issue('NOT_SYNCED_NAME', 'docs/desktop.ini');
    recordSettled(index, 'R', { issues: [scanned, remote], fromScan: 1 });
    expect([...index.digests.all().keys()].sort()).toEqual(['R', 'd']);
    expect(takeSettledRecord(index)).toEqual({
      version: FOLDER_DIGEST_VERSION,
      remoteRootId: 'R',
      issues: [remote],
    });
    // Taken: the pass that read it may now change the index.
    expect(index.getMeta(META_SETTLED)).toBeUndefined();
    expect(takeSettledRecord(index)).toBeUndefined();
  });

  it('is not trusted when it is not what this version writes, and is dropped all the same', () => {
    const index = newIndex();
    for (const text of [
      '{',
      JSON.stringify({ version: FOLDER_DIGEST_VERSION + 1, remoteRootId: 'R', issues: [] }),
      JSON.stringify({ version: FOLDER_DIGEST_VERSION, remoteRootId: 7, issues: [] }),
      JSON.stringify({ version: FOLDER_DIGEST_VERSION, remoteRootId: 'R' }),
    ]) {
      index.setMeta(META_SETTLED, text);
      expect(takeSettledRecord(index), text).toBeUndefined();
      expect(index.getMeta(META_SETTLED)).toBeUndefined();
    }
  });
});
