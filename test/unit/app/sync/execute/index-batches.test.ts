// Downloads put in place a batch at a time: intents committed before any file lands, rows after, each file its own outcome.
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIndexDb, type IndexDb } from '../../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../../app/index/index-store.ts';
import { IndexWriter } from '../../../../../app/index/index-writes.ts';
import {
  CreatedRows,
  DownloadPlacements,
  PLACEMENT_BATCH,
  writeTemporary,
  type Placement,
} from '../../../../../app/sync/execute/index-batches.ts';
import { ReplanNeeded } from '../../../../../app/sync/execute/replan-needed.ts';
import { entryFromStats } from '../../../../../app/sync/local/local-paths.ts';
import type { LocalWrite } from '../../../../../app/sync/engine-events.ts';

let root: string;
let db: IndexDb;
let writer: IndexWriter;
let writes: LocalWrite[];
let placements: DownloadPlacements;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mch-placement-'));
  mkdirSync(join(root, 'docs'));
  db = openIndexDb(':memory:');
  writer = new IndexWriter(new IndexStore(db));
  writes = [];
  placements = new DownloadPlacements(writer, root, (write) => writes.push(write));
});
afterEach(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

/** A downloaded file `docs/<name>` in its temporary, as download() hands it over. */
async function fetched(name: string, content = `content of ${name}`): Promise<Placement> {
  const temporary = join(root, 'docs', `.mch-dl-${name}`);
  const stats = await writeTemporary(temporary, Buffer.from(content), 0o644, 1_700_000_000_000);
  const local = entryFromStats(`docs/${name}`, stats);
  if (local === undefined) throw new Error('no entry');
  return {
    temporary,
    local,
    row: {
      remoteId: `id-${name}`,
      parentRemoteId: 'root',
      path: `docs/${name}`,
      name,
      kind: 'file',
      eTag: '"1"',
      size: content.length,
      mTimeMs: 1_700_000_000_000,
      inode: local.inode,
      localSize: local.size,
      localMtimeNs: local.mtimeNs,
      contentHash: null,
    },
  };
}

describe('DownloadPlacements', () => {
  it('writes the temporary with the mode and the mtime asked for', async () => {
    const placement = await fetched('a.txt');
    const stats = lstatSync(placement.temporary, { bigint: true });
    expect(Number(stats.mode & 0o777n)).toBe(0o644 & ~process.umask());
    expect(stats.mtimeNs).toBe(1_700_000_000_000_000_000n);
    expect(readFileSync(placement.temporary, 'utf8')).toBe('content of a.txt');
  });

  it('waits for a flush, then puts each file in place with its row and no intent left', async () => {
    const done = [placements.place(await fetched('a.txt')), placements.place(await fetched('b.txt'))];
    expect(readdirSync(join(root, 'docs')).sort()).toEqual(['.mch-dl-a.txt', '.mch-dl-b.txt']);
    placements.flush();
    await Promise.all(done);
    expect(readdirSync(join(root, 'docs')).sort()).toEqual(['a.txt', 'b.txt']);
    expect(readFileSync(join(root, 'docs', 'b.txt'), 'utf8')).toBe('content of b.txt');
    expect(writer.store.byPath('docs/a.txt')?.remoteId).toBe('id-a.txt');
    expect(writer.store.pendingIntents()).toEqual([]);
    expect(writes.map((write) => write.path)).toEqual(['docs/a.txt', 'docs/b.txt']);
  });

  it('puts a full batch in place without waiting for a flush', async () => {
    const done: Array<Promise<void>> = [];
    for (let n = 0; n < PLACEMENT_BATCH; n += 1) done.push(placements.place(await fetched(`f${n}`)));
    await Promise.all(done);
    expect(writer.store.count()).toBe(PLACEMENT_BATCH);
  });

  it('records every intent of a batch before the first file lands (what recovery settles after a crash)', async () => {
    const a = await fetched('a.txt');
    const b = await fetched('b.txt');
    const seen: number[] = [];
    // Told before each link: by then the whole batch's intents are committed.
    placements = new DownloadPlacements(writer, root, () => seen.push(writer.store.pendingIntents().length));
    const done = [placements.place(a), placements.place(b)];
    placements.flush();
    await Promise.all(done);
    expect(seen).toEqual([2, 2]);
  });

  it('fails only the file whose place was taken meanwhile, and keeps what is there', async () => {
    const a = await fetched('a.txt');
    const b = await fetched('b.txt');
    writeFileSync(join(root, 'docs', 'a.txt'), 'made here meanwhile');
    const done = [placements.place(a), placements.place(b)];
    placements.flush();
    await expect(done[0]).rejects.toBeInstanceOf(ReplanNeeded);
    await done[1];
    expect(readFileSync(join(root, 'docs', 'a.txt'), 'utf8')).toBe('made here meanwhile');
    expect(readdirSync(join(root, 'docs')).sort()).toEqual(['a.txt', 'b.txt']);
    expect(writer.store.byPath('docs/a.txt')).toBeUndefined();
    expect(writer.store.byPath('docs/b.txt')?.remoteId).toBe('id-b.txt');
    expect(writer.store.pendingIntents()).toEqual([]);
  });

  it('gives each file its own outcome when the index refuses one row', async () => {
    const a = await fetched('a.txt');
    const b = await fetched('b.txt');
    // The row of `a` breaks a rule of the table (a kind SQLite refuses): the batch's commit fails.
    const broken = { ...a, row: { ...a.row, kind: 'neither' as 'file' } };
    const done = [placements.place(broken), placements.place(b)];
    placements.flush();
    await expect(done[0]).rejects.toThrow();
    await done[1];
    expect(writer.store.byPath('docs/b.txt')?.remoteId).toBe('id-b.txt');
    // The file of `a` landed and its intent stays for recovery, which writes its row if it still is that file.
    expect(writer.store.pendingIntents().map((intent) => intent.path)).toEqual(['docs/a.txt']);
  });

  it('leaves the intent to recovery when the file found at its place is the download itself', async () => {
    const a = await fetched('a.txt');
    linkSync(a.temporary, join(root, 'docs', 'a.txt'));
    const done = placements.place(a);
    placements.flush();
    await expect(done).rejects.toBeInstanceOf(ReplanNeeded);
    // The same inode is at its place: that is the download itself, so its intent is left for recovery.
    expect(writer.store.pendingIntents().map((intent) => intent.path)).toEqual(['docs/a.txt']);
  });
});

describe('CreatedRows', () => {
  const row = (name: string, kind = 'file'): Placement['row'] => ({
    remoteId: `id-${name}`,
    parentRemoteId: 'root',
    path: name,
    name,
    kind: kind as 'file',
    eTag: '"1"',
    size: 1,
    mTimeMs: 1,
    inode: null,
    localSize: null,
    localMtimeNs: null,
    contentHash: null,
  });

  /** The write of a create: its row, and its intent dropped, as recordCreated queues it. */
  function created(rows: CreatedRows, name: string, kind = 'file'): Promise<void> {
    const store = writer.store;
    const intent = store.recordIntent({
      action: 'upload',
      path: name,
      remoteId: null,
      parentRemoteId: 'root',
      detail: { name },
    });
    return rows.write(() => store.completeIntent(intent, () => writer.place(row(name, kind))));
  }

  it('keeps each intent until its batch is committed, then writes every row', async () => {
    const rows = new CreatedRows(writer.store);
    const done = [created(rows, 'a'), created(rows, 'b')];
    expect(writer.store.pendingIntents()).toHaveLength(2);
    expect(writer.store.count()).toBe(0);
    rows.flush();
    await Promise.all(done);
    expect(writer.store.pendingIntents()).toEqual([]);
    expect(writer.store.count()).toBe(2);
  });

  it('fails only the write the index refuses; its intent stays for recovery', async () => {
    const rows = new CreatedRows(writer.store);
    const done = [created(rows, 'a', 'neither'), created(rows, 'b')];
    rows.flush();
    await expect(done[0]).rejects.toThrow();
    await done[1];
    expect(writer.store.byPath('b')?.remoteId).toBe('id-b');
    expect(writer.store.pendingIntents().map((intent) => intent.path)).toEqual(['a']);
  });
});
