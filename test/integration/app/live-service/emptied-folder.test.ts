// Live sync of a folder emptied by hand: held with two choices (confirm the deletes, or restore), never undone silently.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it, type NewLivePair } from '../../../helpers/fixtures.ts';
import type { LivePair } from '../../../helpers/live-pair.ts';
import { digestTree, waitFor } from '../../../helpers/live-pair.ts';
import { files } from '../../../helpers/sync-pair.ts';

afterEach(async () => {});

const TEXTS = { 'a.txt': 'alpha', 'b.txt': 'beta', 'docs/c.txt': 'gamma' };

/** A live pair synced with `TEXTS`, then everything in its folder deleted while it watches. */
async function emptiedLivePair(newLivePair: NewLivePair): Promise<LivePair> {
  const live = newLivePair();
  for (const [path, text] of Object.entries(TEXTS)) live.pair.writeLocal(path, text);
  await live.start({ synced: true });
  for (const entry of readdirSync(live.pair.localRoot)) {
    if (entry !== '.mch-sync') rmSync(join(live.pair.localRoot, entry), { recursive: true });
  }
  await waitFor('the held state', () => (live.live.status().state === 'held' ? true : undefined));
  return live;
}

describe('a live folder emptied by hand', () => {
  it('is held with both choices named, and nothing changes on either side meanwhile', async ({
    newLivePair,
  }) => {
    const live = await emptiedLivePair(newLivePair);
    const mark = live.mark();
    const status = live.live.status();
    expect(status.detail).toContain('--confirm-deletes');
    expect(status.detail).toContain('--restore');
    // Polls later, still held, still nothing written anywhere. (A poll may be running when the state
    // is read: the passes' own reports say how each ended.)
    const passes = live.passes.length;
    await waitFor('another pass', () => (live.passes.length > passes + 1 ? true : undefined));
    for (const pass of live.passes.slice(passes)) {
      expect('report' in pass ? pass.report.hold?.reason : pass.error).toBe('emptied-root');
    }
    await waitFor('the held state', () => (live.live.status().state === 'held' ? true : undefined));
    expect(live.writesSince(mark)).toEqual([]);
    // The way out that works while the service runs, said once however many polls meet the hold.
    expect(status.detail).toContain(`mch-sync resume --folder ${live.pair.localRoot} --restore`);
    expect(live.pair.logLines.filter((line) => line.message.startsWith('waiting for you'))).toHaveLength(1);
    expect(await live.pair.remoteTree()).toEqual(files(TEXTS));
    expect(live.pair.localTree()).toEqual({});
  }, 120_000);

  it('restore brings everything back from the device', async ({ newLivePair }) => {
    const live = await emptiedLivePair(newLivePair);
    live.live.restore();
    expect(await live.waitUntilSynced()).toEqual(digestTree(files(TEXTS)));
  }, 120_000);

  it('confirm-deletes deletes everything on the device', async ({ newLivePair }) => {
    const live = await emptiedLivePair(newLivePair);
    live.live.confirmDeletes();
    expect(await live.waitUntilSynced()).toEqual({});
    expect(await live.pair.remoteTree()).toEqual({});
  }, 120_000);

  it('answers only the hold its user saw: another one, or none, is refused with nothing changed', async ({
    newLivePair,
  }) => {
    const live = await emptiedLivePair(newLivePair);
    const mark = live.mark();
    expect(() => live.live.confirmDeletes('folder-changed')).toThrow(
      expect.objectContaining({ code: 'HOLD_CHANGED' }),
    );
    const passes = live.passes.length;
    await waitFor('another pass', () => (live.passes.length > passes + 1 ? true : undefined));
    expect(live.live.hold()?.reason).toBe('emptied-root');
    expect(live.writesSince(mark)).toEqual([]);
    live.live.restore('emptied-root');
    expect(await live.waitUntilSynced()).toEqual(digestTree(files(TEXTS)));
    // Read before the hold ended, a confirm reaches no later pass.
    expect(() => live.live.confirmDeletes()).toThrow(expect.objectContaining({ code: 'NOT_HELD' }));
    expect(await live.pair.remoteTree()).toEqual(files(TEXTS));
  }, 120_000);
});
