// The hydration journal: a placeholder a crash left half filled is put back (no bytes, its row's size and time); one whole, gone or replaced is left alone.
import { closeSync, openSync, statSync, utimesSync, writeSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';
import { HydrationJournal } from '../../../../app/on-demand/hydration-journal.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';

describe('HydrationJournal', () => {
  it('puts back a half-filled placeholder and nothing else', async ({ newPair }) => {
    const pair = newPair({ engine: { onDemand: { keepsContent: () => false } } });
    await pair.writeRemote('half.bin', 'x'.repeat(200_000));
    await pair.writeRemote('whole.txt', 'whole');
    expectSynced(await pair.sync());
    const journal = new HydrationJournal(pair.localRoot);
    const half = pair.local('half.bin');
    const inode = statSync(half).ino.toString();
    const row = pair.index.byPath('half.bin');
    await journal.begin(inode);
    // A crash half way: bytes written, the mtime moved, the mark still on.
    const fd = openSync(half, 'r+');
    writeSync(fd, 'y'.repeat(100_000), 0);
    closeSync(fd);
    utimesSync(half, new Date(), new Date());
    // One in the journal whose file is gone, too.
    await journal.begin('999999999');
    expect(await journal.tidy(pair.localRoot, pair.index)).toBe(1);
    const now = statSync(half, { bigint: true });
    expect(isPlaceholder(half)).toBe(true);
    expect(now.size).toBe(200_000n);
    expect(now.mtimeNs).toBe(row?.localMtimeNs);
    expect(now.blocks).toBeLessThan(16n);
    // Nothing left to do, and the pass that follows is quiet.
    expect(await journal.tidy(pair.localRoot, pair.index)).toBe(0);
    const { writes } = await pair.syncCounting();
    expect(writes).toEqual([]);
  });
});
