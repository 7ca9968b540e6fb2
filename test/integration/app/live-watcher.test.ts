// The local watcher on a real folder with real chokidar: what a rename, a folder move, a safe-save and own writes report.
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe as group, expect, it } from 'vitest';
import type { LocalChange } from '../../../app/live/watch-events.ts';
import {
  startLocalWatcher,
  type LocalChangeBatch,
  type LocalWatcher,
  type LocalWatcherOptions,
} from '../../../app/live/local-watcher.ts';

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
async function watchFolder(
  prepare: (root: string) => void,
  options: Pick<LocalWatcherOptions, 'debounceMs' | 'settledDebounceMs'> = {},
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

group('local watcher (real chokidar)', () => {
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

  it('the synced folder itself vanishing asks for a rescan', async () => {
    const harness = await watchFolder((root) => writeFileSync(join(root, 'a.txt'), 'hello'));
    rmSync(harness.root, { recursive: true });
    await waitFor(() => harness.rescans.length > 0, 'a rescan request');
    expect(harness.rescans).toEqual(['root-changed']);
  });
});
