// The event cleaner: editors' save patterns, moves, folder moves, skipped names and held deletions.
import { describe as group, expect, it } from 'vitest';
import { neverSyncedReason } from '../../../../app/watcher/watch-events.ts';
import {
  CleanerWorld,
  add,
  addDir,
  change,
  file,
  folder,
  unlink,
  unlinkDir,
  type Step,
} from './cleaner-world.ts';

const doc = [file('doc.txt', 1)];

group('editors saving a file are one modified', () => {
  const table: [string, Step[]][] = [
    [
      'VS Code (truncate, then write in place)',
      [change('doc.txt', 1, 0, 200n), change('doc.txt', 1, 9, 201n)],
    ],
    [
      'gedit (.goutputstream-X written, renamed over)',
      [
        add('.goutputstream-AB12', 7, 0, 200n),
        change('.goutputstream-AB12', 7, 9, 201n),
        unlink('.goutputstream-AB12'),
        change('doc.txt', 7, 9, 201n),
      ],
    ],
    ['gedit as chokidar reports it (one change, new inode)', [change('doc.txt', 7, 9, 201n)]],
    [
      'vim (4913 probe, backup by rename, new file, swap file)',
      [
        add('.doc.txt.swp', 8),
        add('4913', 9, 0, 150n),
        unlink('4913'),
        unlink('doc.txt'),
        add('doc.txt~', 1),
        add('doc.txt', 10, 0, 200n),
        change('doc.txt', 10, 9, 201n),
        unlink('doc.txt~'),
        unlink('.doc.txt.swp'),
      ],
    ],
    [
      'LibreOffice (lock file, lu*.tmp renamed over)',
      [
        add('.~lock.doc.txt#', 8),
        add('lu2291abc.tmp', 9, 0, 200n),
        change('lu2291abc.tmp', 9, 9, 201n),
        unlink('lu2291abc.tmp'),
        unlink('doc.txt'),
        add('doc.txt', 9, 9, 201n),
        unlink('.~lock.doc.txt#'),
      ],
    ],
    [
      'Word (~WRD temp file, original renamed to ~WRL, temp renamed in)',
      [
        add('~WRD0000.tmp', 9, 9, 201n),
        unlink('doc.txt'),
        add('~WRL0001.tmp', 1),
        unlink('~WRD0000.tmp'),
        add('doc.txt', 9, 9, 201n),
        unlink('~WRL0001.tmp'),
      ],
    ],
    [
      'Emacs (backup by rename, new file)',
      [
        add('.#doc.txt', 8),
        unlink('doc.txt'),
        add('doc.txt~', 1),
        add('doc.txt', 9, 9, 201n),
        unlink('.#doc.txt'),
      ],
    ],
    ['delete, then create', [unlink('doc.txt'), add('doc.txt', 9, 9, 201n)]],
  ];
  it.each(table)('%s', (_name, steps) => {
    expect(new CleanerWorld(doc).push(...steps).drain()).toEqual(['modified doc.txt']);
  });

  it('a chmod (change with the same size and mtime) is no change', () => {
    expect(new CleanerWorld(doc).push(change('doc.txt', 1)).drain()).toEqual([]);
  });

  it('a change of a file whose size and mtime were never seen is a modification', () => {
    const world = new CleanerWorld([], { knownItem: () => undefined });
    expect(world.push(change('doc.txt', 1)).drain()).toEqual(['modified doc.txt']);
  });
});

group('moves', () => {
  it('mv a b is one move', () => {
    expect(new CleanerWorld([file('a', 1)]).push(unlink('a'), add('b', 1)).drain()).toEqual(['moved a -> b']);
  });

  it('mv a b is one move when the add comes first (chokidar with atomic on)', () => {
    expect(new CleanerWorld([file('a', 1)]).push(add('b', 1), unlink('a')).drain()).toEqual(['moved a -> b']);
  });

  it('mv dir dir2 is one move of the folder, its children implied', () => {
    const seed = [
      folder('dir', 1),
      file('dir/f0', 2),
      file('dir/f1', 3),
      folder('dir/sub', 4),
      file('dir/sub/deep', 5),
    ];
    const world = new CleanerWorld(seed).push(
      unlink('dir/f0'),
      unlink('dir/f1'),
      unlink('dir/sub/deep'),
      unlinkDir('dir/sub'),
      unlinkDir('dir'),
      addDir('dir2', 1),
      add('dir2/f0', 2),
      add('dir2/f1', 3),
      addDir('dir2/sub', 4),
      add('dir2/sub/deep', 5),
    );
    expect(world.drain()).toEqual(['moved dir/ -> dir2/']);
  });

  it('mv dir dir2 as our own watcher reports it (the folder, then what reading dir2 finds) is one move', () => {
    const seed = [folder('dir', 1), file('dir/f0', 2), folder('dir/sub', 4), file('dir/sub/deep', 5)];
    const world = new CleanerWorld(seed).push(
      unlinkDir('dir'),
      addDir('dir2', 1),
      add('dir2/f0', 2),
      addDir('dir2/sub', 4),
      // Not what was there: the same inode with other content, another inode.
      add('dir2/sub/deep', 5, 7, 300n),
      add('dir2/new', 9),
    );
    expect(world.drain()).toEqual(['moved dir/ -> dir2/', 'created dir2/new', 'created dir2/sub/deep']);
  });

  it('a folder move then a new file inside it: the move and the creation', () => {
    const world = new CleanerWorld([folder('dir', 1), file('dir/a', 2)]).push(
      unlink('dir/a'),
      unlinkDir('dir'),
      addDir('dir2', 1),
      add('dir2/a', 2),
      add('dir2/new', 9),
    );
    expect(world.drain()).toEqual(['moved dir/ -> dir2/', 'created dir2/new']);
  });

  it('a rename chain a -> b -> c in one batch is one move a -> c', () => {
    const world = new CleanerWorld([file('a', 1)]).push(unlink('a'), add('b', 1), unlink('b'), add('c', 1));
    expect(world.drain()).toEqual(['moved a -> c']);
  });

  it('a move, then an edit of the moved file: the move and the edit', () => {
    const world = new CleanerWorld([file('a', 1)]).push(unlink('a'), add('b', 1), change('b', 1, 9, 300n));
    expect(world.drain()).toEqual(['moved a -> b', 'modified b']);
  });

  it('an edit, then a move: the move and the edit', () => {
    const world = new CleanerWorld([file('a', 1)]).push(
      change('a', 1, 9, 300n),
      unlink('a'),
      add('b', 1, 9, 300n),
    );
    expect(world.drain()).toEqual(['moved a -> b', 'modified b']);
  });

  it('a file moved aside and a new one written at its place: a move and a creation', () => {
    const world = new CleanerWorld(doc).push(
      unlink('doc.txt'),
      add('doc.bak', 1),
      add('doc.txt', 9, 9, 201n),
    );
    expect(world.drain()).toEqual(['moved doc.txt -> doc.bak', 'created doc.txt']);
  });

  it('two files swapped through a temporary name are two moves', () => {
    const world = new CleanerWorld([file('a', 1), file('b', 2, 5, 200n)]).push(
      unlink('a'),
      add('tmp', 1),
      unlink('b'),
      add('a', 2, 5, 200n),
      unlink('tmp'),
      add('b', 1),
    );
    expect(world.drain()).toEqual(['moved b -> a', 'moved a -> b']);
  });

  it('a known item renamed over another one is a move onto it', () => {
    const world = new CleanerWorld([file('a', 1), file('b', 2)]).push(unlink('a'), change('b', 1));
    expect(world.drain()).toEqual(['moved a -> b']);
  });

  it('a reused inode with another size and mtime is a delete and a create, not a move', () => {
    const world = new CleanerWorld([file('a', 1)]).push(unlink('a'), add('b', 1, 0, 999n));
    expect(world.drain()).toEqual(['created b', 'deleted a']);
  });

  it('an unlink and an add of the same inode further apart than the window are not a move', () => {
    const world = new CleanerWorld([file('a', 1)], { moveWindowMs: 1000 }).push(unlink('a')).wait(1500);
    expect(world.push(add('b', 1)).drain()).toEqual(['created b', 'deleted a']);
  });

  it('the index names an item the cleaner never saw: its move is still paired', () => {
    const knownItem = (path: string) => (path === 'a' ? { kind: 'file' as const, inode: '1' } : undefined);
    const world = new CleanerWorld([], { knownItem }).push(unlink('a'), add('b', 1));
    expect(world.drain()).toEqual(['moved a -> b']);
  });

  it('the index names an item the cleaner never saw: a save over it, then a delete, is a delete', () => {
    // Soak seed 73131: the memory alone read the save as a new file, and the delete as its end.
    const knownItem = (path: string) => (path === 'a' ? { kind: 'file' as const, inode: '1' } : undefined);
    const world = new CleanerWorld([], { knownItem }).push(add('a', 2, 5, 999n), unlink('a')).wait(2000);
    expect(world.drain()).toEqual(['deleted a']);
  });

  it('the index names an item the cleaner never saw: a save over it is an edit', () => {
    const knownItem = (path: string) => (path === 'a' ? { kind: 'file' as const, inode: '1' } : undefined);
    const world = new CleanerWorld([], { knownItem }).push(add('a', 2, 5, 999n));
    expect(world.drain()).toEqual(['modified a']);
  });

  it('what a batch taught is remembered: a second rename in a later batch is a move', () => {
    const world = new CleanerWorld([file('a', 1)]);
    expect(world.push(unlink('a'), add('b', 1)).drain()).toEqual(['moved a -> b']);
    expect(world.push(unlink('b'), add('c', 1)).drain()).toEqual(['moved b -> c']);
  });

  it('children of a moved folder move with it in memory, events or not', () => {
    const world = new CleanerWorld([folder('dir', 1), file('dir/x', 2)]);
    expect(world.push(unlinkDir('dir'), addDir('dir2', 1)).drain()).toEqual(['moved dir/ -> dir2/']);
    expect(world.push(unlink('dir2/x'), add('dir2/y', 2)).drain()).toEqual(['moved dir2/x -> dir2/y']);
  });
});

group('creations and deletions', () => {
  it('a folder copied in with its files is one created folder', () => {
    const steps = [addDir('new', 1), ...Array.from({ length: 200 }, (_, i) => add(`new/f${i}`, 10 + i))];
    const world = new CleanerWorld().push(...steps);
    expect(world.cleaner.drain(world.nowMs + 5000)).toMatchObject({
      changes: [{ kind: 'created', path: 'new', itemKind: 'folder' }],
      affectedPaths: ['new'],
    });
  });

  it('rm -r dir is one deleted folder', () => {
    const world = new CleanerWorld([
      folder('dir', 1),
      file('dir/a', 2),
      folder('dir/sub', 3),
      file('dir/sub/b', 4),
    ]);
    world.push(unlink('dir/a'), unlink('dir/sub/b'), unlinkDir('dir/sub'), unlinkDir('dir'));
    expect(world.drain()).toEqual(['deleted dir/']);
  });

  it('a file created and deleted within one batch is nothing', () => {
    expect(new CleanerWorld().push(add('tmp', 1), change('tmp', 1, 9, 9n), unlink('tmp')).drain()).toEqual(
      [],
    );
  });

  it('a file replaced by a folder is a deletion and a creation', () => {
    const world = new CleanerWorld([file('a', 1)]).push(unlink('a'), addDir('a', 2));
    expect(world.drain()).toEqual(['created a/', 'deleted a']);
  });

  it('a folder replaced by a file goes out with what vanished below it, nothing held', () => {
    const world = new CleanerWorld([folder('sub', 1), folder('sub/d', 2), file('sub/d/a', 3)], {
      moveWindowMs: 1000,
    });
    world.push(unlink('sub/d/a'), unlinkDir('sub/d'), unlinkDir('sub'), add('sub', 4));
    const batch = world.cleaner.drain(world.nowMs + 10);
    expect(batch.changes.map((c) => `${c.kind} ${c.path}`)).toEqual(['created sub', 'deleted sub']);
    expect(batch.heldUntilMs).toBeUndefined();
    expect(world.cleaner.pendingCount).toBe(0);
    // A folder made later that gets the freed inode number of sub/d is no move of it (soak seed 30088).
    world.wait(100).push(unlink('sub'), addDir('sub', 2));
    expect(world.drain(10)).toEqual(['created sub/', 'deleted sub']);
  });

  it('a deletion waits for the move window before it is reported', () => {
    const world = new CleanerWorld([file('a', 1)], { moveWindowMs: 1000 }).push(unlink('a'));
    const early = world.cleaner.drain(world.nowMs + 500);
    expect(early).toEqual({ changes: [], affectedPaths: [], heldUntilMs: world.nowMs + 1000 });
    expect(world.cleaner.pendingCount).toBe(1);
    expect(world.drain(1000).length).toBe(1);
  });

  it('a held deletion whose add arrives in the next batch is one move', () => {
    const world = new CleanerWorld([file('a', 1), file('x', 5)], { moveWindowMs: 1000 });
    world.push(unlink('a'), change('x', 5, 9, 9n));
    expect(world.cleaner.drain(world.nowMs + 300).changes.map((c) => c.path)).toEqual(['x']);
    world.wait(300).push(add('b', 1));
    expect(world.drain(300)).toEqual(['moved a -> b']);
  });

  it('deletions go out together: a ripe one waits for the younger ones (rm -rf a b c is one batch)', () => {
    const world = new CleanerWorld(
      [folder('a', 1), file('a/1', 2), folder('b', 3), file('b/1', 4), file('top', 5)],
      { moveWindowMs: 1000 },
    );
    world.push(unlink('a/1'), unlinkDir('a'));
    world.wait(600).push(unlink('b/1'), unlinkDir('b'));
    // a is ripe, b is not: neither goes out yet, and the cleaner asks to drain again when b ripens.
    const early = world.cleaner.drain(world.nowMs + 500);
    expect(early.changes).toEqual([]);
    // b/1 went a millisecond before b: it ripens first.
    expect(early.heldUntilMs).toBe(world.nowMs + 999);
    expect(world.drain(1000)).toEqual(['deleted a/', 'deleted b/']);
  });

  it('a storm of deletions longer than the group time lets out what is ripe', () => {
    const seed = Array.from({ length: 30 }, (_, n) => file(`f${n}`, n + 1));
    const world = new CleanerWorld(seed, { moveWindowMs: 1000, deletionGroupMs: 10_000 });
    const out: string[] = [];
    // One file every 500 ms for 15 s: at 10 s the ripe ones go, the young ones wait their window.
    for (let n = 0; n < 30; n++) {
      world.wait(500).push(unlink(`f${n}`));
      out.push(...world.cleaner.drain(world.nowMs).changes.map((c) => c.path));
    }
    expect(out.length).toBeGreaterThan(0);
    expect(out).not.toContain('f29');
    expect(world.drain(1000).length + out.length).toBe(30);
  });

  it('a deleted folder holds what vanished below it, and reports one deletion', () => {
    const world = new CleanerWorld([folder('dir', 1), file('dir/a', 2)], { moveWindowMs: 1000 });
    world.push(unlink('dir/a'), unlinkDir('dir'));
    expect(world.cleaner.drain(world.nowMs + 10).changes).toEqual([]);
    expect(world.drain(2000)).toEqual(['deleted dir/']);
  });
});

group('names that are never synced', () => {
  it.each([
    '.mch-sync/trash/a.txt',
    'sub/.mch-sync/x',
    '.DS_Store',
    'a/Thumbs.db',
    '.a.txt.swp',
    'doc.txt~',
    '~$report.docx',
    '.photo.jpg.4f2a.mch-partial',
    'photo.jpg.mch-partial',
    'movie.mkv.part',
    '.~lock.doc.odt#',
  ])('%s is dropped', (path) => {
    expect(neverSyncedReason(path)).toBeDefined();
    expect(new CleanerWorld().push(add(path, 1), change(path, 1, 9, 9n)).drain()).toEqual([]);
  });

  it('a file moved into the state folder (the folder trash) is a deletion', () => {
    const world = new CleanerWorld([file('a', 1)]).push(unlink('a'), add('.mch-sync/trash/1/a', 1));
    expect(world.drain()).toEqual(['deleted a']);
  });

  it('a finished download renamed from its partial name is a creation', () => {
    const world = new CleanerWorld().push(
      add('.a.jpg.1.mch-partial', 1),
      unlink('.a.jpg.1.mch-partial'),
      add('a.jpg', 1),
    );
    expect(world.drain()).toEqual(['created a.jpg']);
  });

  it('paths the ignore rules exclude are dropped', () => {
    const world = new CleanerWorld([], {
      isIgnored: (path) => path.startsWith('build/') || path === 'build',
    });
    expect(world.push(addDir('build', 1), add('build/out.o', 2), add('src.c', 3)).drain()).toEqual([
      'created src.c',
    ]);
  });

  it('an ordinary name is synced', () => {
    expect(neverSyncedReason('notes/2024 plan.txt')).toBeUndefined();
  });
});
