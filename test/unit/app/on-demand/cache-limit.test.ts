// The cache limit's choice: least recently used first, and only until the limit is met; open files passed over.
import { describe, expect, it } from 'vitest';
import { freeUntilUnder, leastRecentlyUsedFirst } from '../../../../app/on-demand/cache-limit.ts';
import type { FreeOutcome, WholeFile } from '../../../../app/on-demand/free-files.ts';

function file(path: string, size: number, atimeNs: bigint): WholeFile {
  return { path, size, mtimeNs: 1n, atimeNs, synced: true };
}

describe('leastRecentlyUsedFirst', () => {
  it('orders by access time, oldest first, with the path breaking a tie', () => {
    const order = leastRecentlyUsedFirst([
      file('c', 1, 30n),
      file('b', 1, 10n),
      file('a', 1, 10n),
      file('d', 1, 20n),
    ]);
    expect(order.map((found) => found.path)).toEqual(['a', 'b', 'd', 'c']);
  });
});

describe('freeUntilUnder', () => {
  const files = [file('new', 100, 300n), file('old', 100, 100n), file('mid', 100, 200n)];

  it('frees the least recently used until the rest fits the limit', async () => {
    const asked: string[] = [];
    const tally = await freeUntilUnder(files, 150, async (path) => {
      asked.push(path);
      return 'freed';
    });
    expect(asked).toEqual(['old', 'mid']);
    expect(tally).toMatchObject({ freed: 2, bytesFreed: 200, busy: [] });
  });

  it('frees nothing when under the limit', async () => {
    const tally = await freeUntilUnder(files, 300, async () => 'freed');
    expect(tally.freed).toBe(0);
  });

  it('passes over an open file for the next least recently used', async () => {
    const outcomes: Record<string, FreeOutcome> = { old: 'busy', mid: 'freed', new: 'freed' };
    const asked: string[] = [];
    const tally = await freeUntilUnder(files, 150, async (path) => {
      asked.push(path);
      return outcomes[path] ?? 'failed';
    });
    expect(asked).toEqual(['old', 'mid', 'new']);
    expect(tally).toMatchObject({ freed: 2, bytesFreed: 200, busy: ['old'] });
  });

  it('never frees a file changed since the index saw it', async () => {
    const asked: string[] = [];
    const tally = await freeUntilUnder([{ ...file('edited', 100, 1n), synced: false }], 0, async (path) => {
      asked.push(path);
      return 'freed';
    });
    expect(asked).toEqual([]);
    expect(tally.changed).toEqual(['edited']);
  });
});
