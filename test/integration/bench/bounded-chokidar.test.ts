// chokidar started by watchWithChokidar: its first walk never has more than the bound of fs calls in flight, the originals come back once every watcher is ready, and events flow as before.
import { mkdirSync, mkdtempSync, promises as fsPromises, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe as group, expect, it } from 'vitest';
import type { FSWatcher } from 'chokidar';
import { watchWithChokidar } from '../../../bench/lib/bounded-chokidar.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A tree of `folders` folders of `perFolder` empty files each. */
function tree(folders: number, perFolder: number): string {
  const root = mkdtempSync(join(tmpdir(), 'mch-chokidar-watch-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  for (let folder = 0; folder < folders; folder += 1) {
    mkdirSync(join(root, `d${folder}`));
    for (let file = 0; file < perFolder; file += 1) writeFileSync(join(root, `d${folder}`, `f${file}`), '');
  }
  return root;
}

/** Counts lstat calls in flight through the real function, as the bounded one sees it. */
function countLstat(): { max: () => number; calls: () => number } {
  const calls = fsPromises as unknown as { lstat: (...args: unknown[]) => Promise<unknown> };
  const original = calls.lstat;
  let running = 0;
  let max = 0;
  let count = 0;
  calls.lstat = async (...args) => {
    running += 1;
    count += 1;
    max = Math.max(max, running);
    try {
      return await original(...args);
    } finally {
      running -= 1;
    }
  };
  syncBuiltinESMExports();
  cleanups.push(() => {
    calls.lstat = original;
    syncBuiltinESMExports();
  });
  return { max: () => max, calls: () => count };
}

function ready(watcher: FSWatcher): Promise<void> {
  return new Promise((resolve) => watcher.once('ready', () => resolve()));
}

group('watchWithChokidar', () => {
  it('walks a tree of 1,200 files with at most the bound of lstat calls in flight', async () => {
    const root = tree(20, 60);
    const counted = countLstat();
    const watcher = watchWithChokidar(root, { walkConcurrency: 8 });
    cleanups.push(() => watcher.close());
    await ready(watcher);
    // Every file and folder was lstat'ed once by the walk, never more than 8 at a time.
    expect(counted.calls()).toBeGreaterThanOrEqual(1220);
    expect(counted.max()).toBeLessThanOrEqual(8);
    expect(Object.keys(watcher.getWatched())).toHaveLength(22);
  });

  it('puts the original fs functions back once the last of two watchers is ready', async () => {
    const before = fsPromises.lstat;
    const first = watchWithChokidar(tree(3, 3));
    const second = watchWithChokidar(tree(3, 3));
    cleanups.push(
      () => first.close(),
      () => second.close(),
    );
    expect(fsPromises.lstat).not.toBe(before);
    await Promise.all([ready(first), ready(second)]);
    expect(fsPromises.lstat).toBe(before);
    expect(fsPromises.readdir).not.toBe(undefined);
  });

  it('a watcher closed before it is ready puts them back too', async () => {
    const before = fsPromises.readdir;
    const watcher = watchWithChokidar(tree(5, 5));
    await watcher.close();
    expect(fsPromises.readdir).toBe(before);
  });

  it('reports changes after ready as chokidar with the service options does (relative to the root)', async () => {
    const root = tree(2, 2);
    const watcher = watchWithChokidar(root);
    cleanups.push(() => watcher.close());
    await ready(watcher);
    const added = new Promise<string>((resolve) => watcher.on('add', (path) => resolve(path)));
    writeFileSync(join(root, 'd1', 'new.txt'), 'x');
    expect(await added).toBe(join('d1', 'new.txt'));
  });
});
