// The local watcher on a real folder with each of its sources (our own per-folder fs.watch, chokidar 6): what a rename, a folder move, a safe-save, own writes and new or replaced folders report.
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe as group, expect, it } from 'vitest';
import { openIndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import type { FolderEventSourceKind } from '../../../../app/watcher/folder-event-source.ts';
import { knownItemsFromIndex } from '../../../../app/watcher/index-known-items.ts';
import type { LocalChange } from '../../../../app/watcher/watch-events.ts';
import {
  startLocalWatcher,
  type LocalChangeBatch,
  type LocalWatcher,
  type LocalWatcherOptions,
} from '../../../../app/watcher/local-watcher.ts';

interface Harness {
  root: string;
  watcher: LocalWatcher;
  batches: LocalChangeBatch[];
  rescans: string[];
  /** Waits until everything done so far has been reported; returns the changes, sentinel left out. */
  settle(): Promise<LocalChange[]>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function show(change: LocalChange): string {
  const from = change.fromPath === undefined ? '' : `${change.fromPath} -> `;
  return `${change.kind} ${from}${change.path}`;
}

/** A temporary folder made by `prepare`, watched once ready. */
async function watchFolderWith(
  prepare: (root: string) => void,
  options: Pick<LocalWatcherOptions, 'debounceMs' | 'settledDebounceMs' | 'source' | 'knownItem'> = {},
): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'mch-live-'));
  cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
  prepare(root);
  // Deleting a sentinel is reported last: a deletion waits out the move window, and anything done
  // before it was seen by chokidar first, so once the sentinel is reported nothing earlier is pending.
  const sentinels = 5;
  for (let index = 0; index < sentinels; index += 1) writeFileSync(join(root, `sentinel-${index}`), '');
  const batches: LocalChangeBatch[] = [];
  const rescans: string[] = [];
  const watcher = startLocalWatcher({
    ...options,
    root,
    onBatch: (batch) => batches.push(batch),
    onRescanNeeded: (reason) => rescans.push(reason),
  });
  cleanups.push(() => watcher.close());
  await watcher.ready;
  let next = 0;
  let reported = 0;
  const settle = async (): Promise<LocalChange[]> => {
    const sentinel = `sentinel-${next++}`;
    unlinkSync(join(root, sentinel));
    const isSentinel = (change: LocalChange) => change.path === sentinel && change.kind === 'deleted';
    await waitFor(
      () => batches.some((batch) => batch.changes.some(isSentinel)),
      `${sentinel} to be reported`,
    );
    const changes = batches
      .slice(reported)
      .flatMap((batch) => batch.changes)
      .filter((change) => !isSentinel(change));
    reported = batches.length;
    return changes;
  };
  return { root, watcher, batches, rescans, settle };
}

function fillFolder(folder: string, count: number): void {
  mkdirSync(folder, { recursive: true });
  for (let index = 0; index < count; index += 1) writeFileSync(join(folder, `f${index}.txt`), `${index}`);
}

const SOURCES: FolderEventSourceKind[] = ['native', 'chokidar'];

group.each(SOURCES)('local watcher (source %s)', (source) => {
  const watchFolder = (
    prepare: (root: string) => void,
    options: Pick<LocalWatcherOptions, 'debounceMs' | 'settledDebounceMs' | 'knownItem'> = {},
  ): Promise<Harness> => watchFolderWith(prepare, { ...options, source });

  it('with identities from the index and no scan, a rename of an item never seen is one move', async () => {
    const store = new IndexStore(openIndexDb(':memory:'));
    const harness = await watchFolder(
      (root) => {
        writeFileSync(join(root, 'a.txt'), 'hello');
        const stats = lstatSync(join(root, 'a.txt'), { bigint: true });
        store.upsert({
          remoteId: 'r-a',
          parentRemoteId: 'root',
          path: 'a.txt',
          name: 'a.txt',
          kind: 'file',
          eTag: '"1"',
          size: 5,
          mTimeMs: 1,
          inode: stats.ino.toString(),
          localSize: Number(stats.size),
          localMtimeNs: stats.mtimeNs,
          contentHash: null,
        });
      },
      { knownItem: knownItemsFromIndex(store) },
    );
    renameSync(join(harness.root, 'a.txt'), join(harness.root, 'b.txt'));
    await waitFor(() => harness.batches.length > 0, 'a batch');
    expect(harness.batches[0]?.changes).toEqual([
      { kind: 'moved', path: 'b.txt', fromPath: 'a.txt', itemKind: 'file' },
    ]);
  });

  it('a rename gives one batch with one move', async () => {
    const harness = await watchFolder((root) => writeFileSync(join(root, 'a.txt'), 'hello'));
    renameSync(join(harness.root, 'a.txt'), join(harness.root, 'b.txt'));
    await waitFor(() => harness.batches.length > 0, 'a batch');
    expect(harness.batches[0]).toEqual({
      changes: [{ kind: 'moved', path: 'b.txt', fromPath: 'a.txt', itemKind: 'file' }],
      affectedPaths: ['a.txt', 'b.txt'],
    });
    expect((await harness.settle()).map(show)).toEqual(['moved a.txt -> b.txt']);
  });

  it('a lone rename goes out after the settled quiet time, not the long one', async () => {
    // Ten minutes of quiet for anything else: only the settled quiet time can report it within the test.
    const harness = await watchFolder((root) => writeFileSync(join(root, 'a.txt'), 'hello'), {
      debounceMs: 600_000,
      settledDebounceMs: 50,
    });
    renameSync(join(harness.root, 'a.txt'), join(harness.root, 'b.txt'));
    await waitFor(() => harness.batches.length > 0, 'a batch');
    expect(harness.batches).toEqual([
      {
        changes: [{ kind: 'moved', path: 'b.txt', fromPath: 'a.txt', itemKind: 'file' }],
        affectedPaths: ['a.txt', 'b.txt'],
      },
    ]);
  });

  it('moving a folder of 200 files is one move', async () => {
    const harness = await watchFolder((root) => {
      fillFolder(join(root, 'album'), 150);
      fillFolder(join(root, 'album', 'raw'), 50);
    });
    renameSync(join(harness.root, 'album'), join(harness.root, 'album 2024'));
    expect((await harness.settle()).map(show)).toEqual(['moved album -> album 2024']);
  });

  it('a safe-save (temporary file written, renamed over) is one modification', async () => {
    const harness = await watchFolder((root) => writeFileSync(join(root, 'doc.txt'), 'v1'));
    writeFileSync(join(harness.root, 'doc.txt.tmp4821'), 'version two');
    renameSync(join(harness.root, 'doc.txt.tmp4821'), join(harness.root, 'doc.txt'));
    expect((await harness.settle()).map(show)).toEqual(['modified doc.txt']);
  });

  it('a delete then create of the same file is one modification', async () => {
    const harness = await watchFolder((root) => writeFileSync(join(root, 'doc.txt'), 'v1'));
    unlinkSync(join(harness.root, 'doc.txt'));
    writeFileSync(join(harness.root, 'doc.txt'), 'version two');
    expect((await harness.settle()).map(show)).toEqual(['modified doc.txt']);
  });

  it('a file replaced at once by a folder of its name is reported, and the folder is watched', async () => {
    // chokidar 6 itself says nothing here (soak seed 5059): the watcher reads its raw events.
    const harness = await watchFolder((root) => {
      writeFileSync(join(root, 'd'), 'a file');
      mkdirSync(join(root, 'sub'));
      writeFileSync(join(root, 'sub', 'e'), 'a file too');
    });
    unlinkSync(join(harness.root, 'd'));
    mkdirSync(join(harness.root, 'd'));
    unlinkSync(join(harness.root, 'sub', 'e'));
    mkdirSync(join(harness.root, 'sub', 'e'));
    expect((await harness.settle()).map(show).sort()).toEqual([
      'created d',
      'created sub/e',
      'deleted d',
      'deleted sub/e',
    ]);
    writeFileSync(join(harness.root, 'd', 'inside.txt'), 'new');
    writeFileSync(join(harness.root, 'sub', 'e', 'deeper.txt'), 'new');
    expect((await harness.settle()).map(show).sort()).toEqual([
      'created d/inside.txt',
      'created sub/e/deeper.txt',
    ]);
  });

  it('a symbolic link is never reported, a deleted file is', async () => {
    const harness = await watchFolder((root) => writeFileSync(join(root, 'a.txt'), 'hello'));
    symlinkSync(harness.root, join(harness.root, 'loop'));
    unlinkSync(join(harness.root, 'a.txt'));
    expect((await harness.settle()).map(show)).toEqual(['deleted a.txt']);
  });

  it('writing inside .mch-sync/ reports nothing', async () => {
    const harness = await watchFolder((root) => mkdirSync(join(root, '.mch-sync')));
    fillFolder(join(harness.root, '.mch-sync', 'trash', '1'), 5);
    writeFileSync(join(harness.root, '.mch-sync', 'state.json'), '{}');
    expect(await harness.settle()).toEqual([]);
  });

  it("the executor's own rename and download report nothing", async () => {
    const harness = await watchFolder((root) => writeFileSync(join(root, 'a.txt'), 'hello'));
    harness.watcher.expectEcho('b.txt', 'moved', { fromPath: 'a.txt' });
    renameSync(join(harness.root, 'a.txt'), join(harness.root, 'b.txt'));
    const partial = join(harness.root, '.new.jpg.1.mch-partial');
    writeFileSync(partial, 'jpeg bytes');
    harness.watcher.expectEcho('new.jpg', 'created');
    renameSync(partial, join(harness.root, 'new.jpg'));
    expect(await harness.settle()).toEqual([]);
  });

  it('a folder made with files in it at once is one creation, and is watched', async () => {
    const harness = await watchFolder(() => undefined);
    // No pause between the folder and its files: they exist before any watch of the folder can.
    fillFolder(join(harness.root, 'new'), 20);
    fillFolder(join(harness.root, 'new', 'inner'), 5);
    expect((await harness.settle()).map(show)).toEqual(['created new']);
    writeFileSync(join(harness.root, 'new', 'inner', 'later.txt'), 'later');
    expect((await harness.settle()).map(show)).toEqual(['created new/inner/later.txt']);
  });

  it('a folder copied in (cp -r) or moved in from outside is one creation, and is watched', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'mch-live-outside-'));
    cleanups.push(async () => rmSync(outside, { recursive: true, force: true }));
    fillFolder(join(outside, 'album', 'raw', 'deep'), 30);
    fillFolder(join(outside, 'moved', 'raw'), 30);
    const harness = await watchFolder(() => undefined);
    const copy = spawnSync('cp', ['-r', join(outside, 'album'), join(harness.root, 'album')]);
    expect(copy.status, copy.stderr.toString()).toBe(0);
    renameSync(join(outside, 'moved'), join(harness.root, 'moved'));
    expect((await harness.settle()).map(show).sort()).toEqual(['created album', 'created moved']);
    writeFileSync(join(harness.root, 'album', 'raw', 'deep', 'later.txt'), 'later');
    writeFileSync(join(harness.root, 'moved', 'raw', 'later.txt'), 'later');
    expect((await harness.settle()).map(show).sort()).toEqual([
      'created album/raw/deep/later.txt',
      'created moved/raw/later.txt',
    ]);
  });

  it('a deep new tree is one creation, watched to the bottom', async () => {
    const harness = await watchFolder(() => undefined);
    const bottom = join(harness.root, 'a', 'b', 'c', 'd', 'e', 'f');
    mkdirSync(bottom, { recursive: true });
    writeFileSync(join(bottom, 'leaf.txt'), 'leaf');
    expect((await harness.settle()).map(show)).toEqual(['created a']);
    writeFileSync(join(bottom, 'leaf 2.txt'), 'leaf');
    mkdirSync(join(bottom, 'g'));
    expect((await harness.settle()).map(show)).toEqual([
      'created a/b/c/d/e/f/g',
      'created a/b/c/d/e/f/leaf 2.txt',
    ]);
  });

  it('a deleted subtree is one deletion, and a folder made again at its place is watched', async () => {
    const harness = await watchFolder((root) => {
      fillFolder(join(root, 'tree', 'one', 'two'), 10);
      fillFolder(join(root, 'tree', 'three'), 10);
    });
    rmSync(join(harness.root, 'tree'), { recursive: true });
    expect((await harness.settle()).map(show)).toEqual(['deleted tree']);
    mkdirSync(join(harness.root, 'tree', 'one'), { recursive: true });
    expect((await harness.settle()).map(show)).toEqual(['created tree']);
    writeFileSync(join(harness.root, 'tree', 'one', 'back.txt'), 'back');
    expect((await harness.settle()).map(show)).toEqual(['created tree/one/back.txt']);
  });

  // chokidar 6 reports the folder's deletion and never the file that took its name (the converse of
  // soak seed 5059): our own source only.
  it.skipIf(source === 'chokidar')('a folder replaced by a file is a deletion and a creation', async () => {
    const harness = await watchFolder((root) => fillFolder(join(root, 'box', 'inner'), 5));
    rmSync(join(harness.root, 'box'), { recursive: true });
    writeFileSync(join(harness.root, 'box'), 'a file now');
    // The deletion of what was below may follow in a later batch, held for the move window (it might
    // have been half of a move), when the folder's own deletion and replacement went out already.
    const changes = (await harness.settle()).map(show);
    expect(changes).toEqual(expect.arrayContaining(['created box', 'deleted box']));
    expect(changes.filter((change) => !change.startsWith('deleted box/'))).toHaveLength(2);
    writeFileSync(join(harness.root, 'box'), 'a file, edited');
    expect((await harness.settle()).map(show)).toEqual(['modified box']);
  });

  it('a folder renamed over an empty folder is watched as the new one', async () => {
    const harness = await watchFolder((root) => {
      mkdirSync(join(root, 'target'));
      fillFolder(join(root, 'source', 'sub'), 3);
    });
    renameSync(join(harness.root, 'source'), join(harness.root, 'target'));
    // The empty folder it replaced goes with it: nothing to say about it.
    expect((await harness.settle()).map(show)).toEqual(['moved source -> target']);
    writeFileSync(join(harness.root, 'target', 'sub', 'new.txt'), 'new');
    expect((await harness.settle()).map(show)).toEqual(['created target/sub/new.txt']);
  });

  it('temporary names and partial downloads are never reported, in new folders neither', async () => {
    const harness = await watchFolder(() => undefined);
    writeFileSync(join(harness.root, '.~lock.report.odt#'), 'lock');
    writeFileSync(join(harness.root, 'report.odt~'), 'backup');
    writeFileSync(join(harness.root, '.photo.jpg.3.mch-partial'), 'partial');
    fillFolder(join(harness.root, '.mch-sync', 'trash'), 3);
    fillFolder(join(harness.root, 'fresh', '.mch-sync'), 3);
    writeFileSync(join(harness.root, 'fresh', '~$budget.xlsx'), 'lock');
    expect((await harness.settle()).map(show)).toEqual(['created fresh']);
    writeFileSync(join(harness.root, 'fresh', '.mch-sync', 'state.json'), '{}');
    unlinkSync(join(harness.root, 'fresh', '~$budget.xlsx'));
    expect(await harness.settle()).toEqual([]);
  });

  it('the synced folder itself vanishing asks for a rescan', async () => {
    const harness = await watchFolder((root) => writeFileSync(join(root, 'a.txt'), 'hello'));
    rmSync(harness.root, { recursive: true });
    await waitFor(() => harness.rescans.length > 0, 'a rescan request');
    expect(harness.rescans).toEqual(['root-changed']);
  });
});
