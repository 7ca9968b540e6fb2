// When a batch leaves the watcher: a lone rename after a short quiet time, a storm, a folder move or a save after the long one.
import { describe as group, expect, it } from 'vitest';
import { Debouncer } from '../../../../app/watcher/debouncer.ts';
import { EventCleaner, SETTLED_MAX_EVENTS } from '../../../../app/watcher/watch-events.ts';
import type { LocalEntry } from '../../../../app/model/items.ts';
import { add, addDir, change, file, folder, show, unlink, unlinkDir, type Step } from './cleaner-world.ts';
import { ManualClock } from './manual-clock.ts';

interface Batch {
  atMs: number;
  changes: string[];
}

/**
 * The cleaner and the debouncer wired as `startLocalWatcher` wires them (300 ms, 50 ms when settled,
 * 2 s at most, a drain again when held deletions ripen), on a clock that moves only when told.
 */
class QuietWorld {
  readonly clock = new ManualClock();
  readonly cleaner: EventCleaner;
  readonly batches: Batch[] = [];
  readonly #debouncer: Debouncer;

  constructor(seed: LocalEntry[]) {
    this.cleaner = new EventCleaner();
    this.cleaner.seed(seed);
    const flush = (): void => {
      const batch = this.cleaner.drain(this.clock.now());
      if (batch.heldUntilMs !== undefined) this.clock.setTimeout(flush, batch.heldUntilMs - this.clock.now());
      if (batch.changes.length > 0) {
        this.batches.push({ atMs: this.clock.now(), changes: batch.changes.map(show) });
      }
    };
    this.#debouncer = new Debouncer({
      quietMs: 300,
      maxWaitMs: 2000,
      settledQuietMs: 50,
      isSettled: () => this.cleaner.settled,
      onFire: flush,
      clock: this.clock,
    });
  }

  /** At `atMs` (absolute), chokidar reports `steps`, each triggering the debouncer. */
  at(atMs: number, ...steps: Step[]): this {
    this.clock.advance(atMs - this.clock.now());
    for (const step of steps) {
      this.cleaner.push({ ...step, atMs });
      this.#debouncer.trigger();
    }
    return this;
  }

  /** Lets everything go out (past the move window and the longest wait). */
  end(): Batch[] {
    this.clock.advance(10_000);
    return this.batches;
  }
}

group('cleaner: settled', () => {
  const seed = [file('a', 1), file('b', 2), file('doc.txt', 3), folder('dir', 4), file('dir/x', 5)];
  const table: [string, Step[], boolean][] = [
    ['nothing pending', [], true],
    ['a rename (unlink, then add)', [unlink('a'), add('c', 1)], true],
    ['a rename (add, then unlink)', [add('c', 1), unlink('a')], true],
    ['a rename over a known file', [unlink('a'), change('b', 1)], true],
    ['a rename chain a -> c -> d', [unlink('a'), add('c', 1), unlink('c'), add('d', 1)], true],
    ['two renames', [unlink('a'), add('c', 1), unlink('b'), add('d', 2)], true],
    ['a chmod', [change('doc.txt', 3)], true],
    ['half a rename: the unlink', [unlink('a')], false],
    ['half a rename: the add', [add('c', 1)], false],
    ['a created file', [add('new', 9)], false],
    ['an edit', [change('doc.txt', 3, 9, 200n)], false],
    ['delete, then create of the same name', [unlink('doc.txt'), add('doc.txt', 9, 9, 201n)], false],
    ['a safe-save (temporary file renamed over)', [change('doc.txt', 9, 9, 201n)], false],
    ['a rename, then an edit', [unlink('a'), add('c', 1), change('c', 1, 9, 300n)], false],
    ['moved aside, a new file in its place', [unlink('a'), add('a.bak', 1), add('a', 9, 9, 201n)], false],
    ['a reused inode (not a move)', [unlink('a'), add('c', 1, 0, 999n)], false],
    ['a folder rename', [unlink('dir/x'), unlinkDir('dir'), addDir('dir2', 4), add('dir2/x', 5)], false],
    ['a new folder', [addDir('new', 9)], false],
  ];
  it.each(table)('%s', (_name, steps, settled) => {
    const cleaner = new EventCleaner();
    cleaner.seed(seed);
    steps.forEach((step, index) => cleaner.push({ ...step, atMs: index }));
    expect(cleaner.settled).toBe(settled);
  });

  it(`more than ${SETTLED_MAX_EVENTS} events are never settled, renames or not`, () => {
    const renames = SETTLED_MAX_EVENTS / 2 + 1;
    const cleaner = new EventCleaner();
    cleaner.seed(Array.from({ length: renames }, (_, index) => file(`f${index}`, 10 + index)));
    for (let index = 0; index < renames; index += 1) {
      cleaner.push({ ...unlink(`f${index}`), atMs: 0 });
      cleaner.push({ ...add(`g${index}`, 10 + index), atMs: 0 });
      expect(cleaner.settled).toBe(index < renames - 1);
    }
  });

  it('a held deletion of an earlier batch keeps a new rename unsettled', () => {
    const cleaner = new EventCleaner();
    cleaner.seed([file('a', 1), file('b', 2)]);
    cleaner.push({ ...unlink('a'), atMs: 0 });
    expect(cleaner.drain(300).changes).toEqual([]);
    cleaner.push({ ...unlink('b'), atMs: 400 });
    cleaner.push({ ...add('c', 2), atMs: 400 });
    expect(cleaner.settled).toBe(false);
  });
});

group('when the batch goes out', () => {
  it('a lone rename: 50 ms after its second half', () => {
    const world = new QuietWorld([file('a', 1)]).at(0, unlink('a')).at(3, add('b', 1));
    expect(world.end()).toEqual([{ atMs: 53, changes: ['moved a -> b'] }]);
  });

  it('an unlink alone waits the long quiet time, then the move window', () => {
    const world = new QuietWorld([file('a', 1)]).at(0, unlink('a'));
    expect(world.end()).toEqual([{ atMs: 1000, changes: ['deleted a'] }]);
  });

  it('a folder move as chokidar reports it (children after a pause) is one batch with one move', () => {
    const seed: LocalEntry[] = [folder('projects', 1), folder('archive', 2)];
    const gone: Step[] = [];
    const arrived: Step[] = [];
    for (let sub = 0; sub < 3; sub += 1) {
      seed.push(folder(`projects/f${sub}`, 10 + sub));
      for (let index = 0; index < 4; index += 1) {
        const inode = 100 + sub * 10 + index;
        seed.push(file(`projects/f${sub}/${index}.txt`, inode));
        gone.push(unlink(`projects/f${sub}/${index}.txt`));
        arrived.push(add(`archive/projects/f${sub}/${index}.txt`, inode));
      }
      gone.push(unlinkDir(`projects/f${sub}`));
    }
    gone.push(unlinkDir('projects'));
    const world = new QuietWorld(seed)
      .at(0, ...gone)
      .at(5, addDir('archive/projects', 1), addDir('archive/projects/f0', 10))
      .at(8, addDir('archive/projects/f1', 11), addDir('archive/projects/f2', 12))
      // The children's adds come after chokidar has read the new folders: a pause longer than 50 ms.
      .at(95, ...arrived);
    expect(world.end()).toEqual([{ atMs: 395, changes: ['moved projects/ -> archive/projects/'] }]);
  });

  it('a small folder rename waits for its file to show up again', () => {
    const world = new QuietWorld([folder('dir', 1), file('dir/x', 2)])
      .at(0, unlink('dir/x'), unlinkDir('dir'))
      .at(2, addDir('dir2', 1))
      .at(120, add('dir2/x', 2));
    expect(world.end()).toEqual([{ atMs: 420, changes: ['moved dir/ -> dir2/'] }]);
  });

  it('a burst of renames whose events pause after a few renames is one batch', () => {
    const count = 40;
    const world = new QuietWorld(Array.from({ length: count }, (_, index) => file(`f${index}`, 10 + index)));
    for (let index = 0; index < count; index += 1) {
      // Five renames at once, then 100 ms of nothing: longer than the settled quiet time.
      const atMs = index < 5 ? index : 100 + index;
      world.at(atMs, unlink(`f${index}`), add(`g${index}`, 10 + index));
    }
    const batches = world.end();
    expect(batches.map((batch) => [batch.atMs, batch.changes.length])).toEqual([
      [100 + count - 1 + 300, count],
    ]);
  });

  it('delete, then create and write of the same name is one modification after the long quiet time', () => {
    const world = new QuietWorld([file('doc.txt', 1)])
      .at(0, unlink('doc.txt'))
      .at(2, add('doc.txt', 9, 0, 200n))
      .at(150, change('doc.txt', 9, 9, 201n));
    expect(world.end()).toEqual([{ atMs: 450, changes: ['modified doc.txt'] }]);
  });

  it('a safe-save through a temporary file is one modification after the long quiet time', () => {
    const world = new QuietWorld([file('doc.txt', 1)])
      .at(0, add('doc.txt.tmp4821', 9, 0, 200n))
      .at(20, change('doc.txt.tmp4821', 9, 11, 201n))
      .at(100, unlink('doc.txt.tmp4821'), change('doc.txt', 9, 11, 201n));
    expect(world.end()).toEqual([{ atMs: 400, changes: ['modified doc.txt'] }]);
  });

  it('a file moved aside and a new one written in its place: a settled move, then the creation', () => {
    const world = new QuietWorld([file('doc.txt', 1)])
      .at(0, unlink('doc.txt'), add('doc.bak', 1))
      .at(80, add('doc.txt', 9, 9, 201n));
    expect(world.end()).toEqual([
      { atMs: 50, changes: ['moved doc.txt -> doc.bak'] },
      { atMs: 380, changes: ['created doc.txt'] },
    ]);
  });
});
