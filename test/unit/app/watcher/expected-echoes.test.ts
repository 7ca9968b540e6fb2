// Own writes: what the executor announces is swallowed once, and only until it expires.
import { describe as group, expect, it } from 'vitest';
import { ExpectedEchoes } from '../../../../app/watcher/expected-echoes.ts';
import { CleanerWorld, add, addDir, change, file, folder, unlink, unlinkDir } from './cleaner-world.ts';

function world(echoes: ExpectedEchoes, seed = [file('a', 1)]): CleanerWorld {
  return new CleanerWorld(seed, { echoes });
}

group('expected echoes', () => {
  it("a download renamed into place is not reported, another file's creation is", () => {
    const echoes = new ExpectedEchoes();
    echoes.expect('new.jpg', 'created', 60_000);
    const steps = [
      add('.new.jpg.7.mch-partial', 5),
      unlink('.new.jpg.7.mch-partial'),
      add('new.jpg', 5),
      add('mine.txt', 6),
    ];
    expect(
      world(echoes)
        .push(...steps)
        .drain(),
    ).toEqual(['created mine.txt']);
    expect(echoes.size).toBe(0);
  });

  it("a user's save right after a download, in the same batch, is not taken for the download's echo", () => {
    // What is on disk when the batch drains: the download (inode 5), or the user's save over it (9).
    let onDisk = { ino: 5n, size: 3n, mtimeNs: 100n };
    const echoes = new ExpectedEchoes((path) => (path === 'a.txt' ? onDisk : undefined));
    echoes.expect('a.txt', 'created', 60_000, undefined, { inode: '5', size: 3, mtimeNs: 100n });
    onDisk = { ino: 9n, size: 7n, mtimeNs: 200n };
    expect(
      world(echoes, [])
        .push(add('a.txt', 5), change('a.txt', 9, 7, 200n))
        .drain(),
    ).toEqual(['created a.txt']);
  });

  it('a download whose file is still as written is swallowed', () => {
    const echoes = new ExpectedEchoes(() => ({ ino: 5n, size: 3n, mtimeNs: 100n }));
    echoes.expect('a.txt', 'created', 60_000, undefined, { inode: '5', size: 3, mtimeNs: 100n });
    expect(world(echoes, []).push(add('a.txt', 5)).drain()).toEqual([]);
    expect(echoes.size).toBe(0);
  });

  it('an echo is swallowed once: the next edit of the same file is reported', () => {
    const echoes = new ExpectedEchoes();
    echoes.expect('a', 'modified', 60_000);
    const w = world(echoes);
    expect(w.push(change('a', 1, 9, 200n)).drain()).toEqual([]);
    expect(w.push(change('a', 1, 10, 300n)).drain()).toEqual(['modified a']);
  });

  it('a write expected as created matches a modification (a download over an existing file)', () => {
    const echoes = new ExpectedEchoes();
    echoes.expect('a', 'created', 60_000);
    expect(
      world(echoes)
        .push(unlink('a'), add('a', 7, 9, 9n))
        .drain(),
    ).toEqual([]);
  });

  it('a local move by the executor is not reported', () => {
    const echoes = new ExpectedEchoes();
    echoes.expect('dir2', 'moved', 60_000, 'dir');
    const w = world(echoes, [folder('dir', 1), file('dir/x', 2)]);
    expect(w.push(unlink('dir/x'), unlinkDir('dir'), addDir('dir2', 1), add('dir2/x', 2)).drain()).toEqual(
      [],
    );
  });

  it('a move seen as a deletion and a creation (inode never seen) is swallowed in both halves', () => {
    const echoes = new ExpectedEchoes();
    echoes.expect('b', 'moved', 60_000, 'a');
    const w = new CleanerWorld([], { echoes, knownItem: () => undefined });
    expect(w.push(unlink('a'), add('b', 1)).drain()).toEqual([]);
    expect(echoes.size).toBe(0);
  });

  it('a move to the trash is not reported', () => {
    const echoes = new ExpectedEchoes();
    echoes.expect('a', 'deleted', 60_000);
    expect(world(echoes).push(unlink('a'), add('.mch-sync/trash/1/a', 1)).drain()).toEqual([]);
  });

  it('an expectation of another kind does not swallow', () => {
    const echoes = new ExpectedEchoes();
    echoes.expect('a', 'deleted', 60_000);
    expect(
      world(echoes)
        .push(change('a', 1, 9, 9n))
        .drain(),
    ).toEqual(['modified a']);
  });

  it('an expired expectation swallows nothing', () => {
    const echoes = new ExpectedEchoes();
    echoes.expect('a', 'modified', 100);
    expect(
      world(echoes)
        .push(change('a', 1, 9, 9n))
        .drain(),
    ).toEqual(['modified a']);
    expect(echoes.size).toBe(0);
  });

  it('a withdrawn expectation swallows nothing', () => {
    const echoes = new ExpectedEchoes();
    const withdraw = echoes.expect('a', 'modified', 60_000);
    withdraw();
    expect(
      world(echoes)
        .push(change('a', 1, 9, 9n))
        .drain(),
    ).toEqual(['modified a']);
  });

  it('names compare in NFC: an expectation in NFD matches the name on disk in NFC', () => {
    const echoes = new ExpectedEchoes();
    echoes.expect('cafe\u0301.txt', 'created', 60_000);
    expect(world(echoes).push(add('caf\u00e9.txt', 4)).drain()).toEqual([]);
  });

  it("a folder made under the other spelling beside the one the executor made is the user's", () => {
    // Soak seed 74084: Linux keeps both spellings; each holds its own folder.
    const onDisk = new Map([
      ['re\u0301sume\u0301', { ino: 7n, size: 0n, mtimeNs: 1n }],
      ['r\u00e9sum\u00e9', { ino: 8n, size: 0n, mtimeNs: 2n }],
    ]);
    const echoes = new ExpectedEchoes((path) => onDisk.get(path));
    echoes.expect('re\u0301sume\u0301', 'created', 60_000);
    expect(world(echoes, []).push(addDir('r\u00e9sum\u00e9', 8)).drain()).toEqual([
      'created r\u00e9sum\u00e9/',
    ]);
  });

  it("an own move the index already records uses up its echo, so the user's next save is reported", () => {
    // The executor moved a → b and wrote the row at b before the events came.
    const knownItem = (path: string) => (path === 'b' ? { kind: 'file' as const, inode: '1' } : undefined);
    const echoes = new ExpectedEchoes();
    echoes.expect('b', 'moved', 60_000, 'a');
    const cleaner = new CleanerWorld([], { echoes, knownItem });
    expect(cleaner.push(unlink('a'), add('b', 1)).wait(2000).drain()).toEqual([]);
    expect(echoes.size).toBe(0);
    expect(cleaner.push(change('b', 1, 9, 999n)).drain()).toEqual(['modified b']);
  });

  it('an own folder the index already records uses up its echo', () => {
    const knownItem = (path: string) => (path === 'd' ? { kind: 'folder' as const, inode: '4' } : undefined);
    const echoes = new ExpectedEchoes();
    echoes.expect('d', 'created', 60_000);
    expect(new CleanerWorld([], { echoes, knownItem }).push(addDir('d', 4)).drain()).toEqual([]);
    expect(echoes.size).toBe(0);
  });

  it('one item answering to both spellings (a file system that normalises) is still the echo', () => {
    const item = { ino: 7n, size: 0n, mtimeNs: 1n };
    const echoes = new ExpectedEchoes(() => item);
    echoes.expect('re\u0301sume\u0301', 'created', 60_000);
    expect(world(echoes, []).push(addDir('r\u00e9sum\u00e9', 7)).drain()).toEqual([]);
  });
});
