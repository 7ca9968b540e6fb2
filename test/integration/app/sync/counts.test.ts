// A pass's counts count items: a file sent twice in one pass is one upload, a deleted folder counts what it held.
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';

describe('counts of a pass', () => {
  it('counts a file edited again while the pass runs, and sent again by its next round, as one upload', async ({
    newPair,
  }) => {
    let edited = false;
    let sending = false;
    const pair = newPair({
      engine: {
        // One transfer at a time: b.txt is checked after a.txt went up.
        transferConcurrency: 1,
        events: {
          // When a.txt's transfer ends (its row is written with a batch later, so not its activity).
          onProgress: (progress) => {
            if (progress.transfers.some((transfer) => transfer.path === 'a.txt')) sending = true;
            else if (sending && !edited) {
              edited = true;
              // Saved again right after it went up, and b.txt too before it goes: the round plans again.
              pair.writeLocal('a.txt', 'a, second version');
              pair.writeLocal('b.txt', 'b, second version');
            }
          },
        },
      },
    });
    pair.writeLocal('a.txt', 'a');
    pair.writeLocal('b.txt', 'b');
    const report = await pair.sync();
    expect(edited).toBe(true);
    expectSynced(report);
    expect(report.rounds).toBeGreaterThan(1);
    expect(report.operations).toMatchObject({ upload: 2, 'upload-content': 1 });
    expect(report.counts.uploaded).toBe(2);
    expect(await pair.remoteTree()).toEqual({
      'a.txt': { kind: 'file', text: 'a, second version' },
      'b.txt': { kind: 'file', text: 'b, second version' },
    });
  });

  it('counts a folder deleted on the device with everything it held when it goes to the trash here', async ({
    newPair,
  }) => {
    const pair = newPair();
    for (const name of ['one', 'two', 'three']) pair.writeLocal(`album/${name}.jpg`, name);
    pair.writeLocal('keep.txt', 'keep');
    expectSynced(await pair.sync());
    await pair.removeRemote('album');
    const report = await pair.sync();
    expectSynced(report);
    expect(report.operations).toMatchObject({ 'local-trash': 1 });
    expect(report.counts.deleted).toBe(4);
  });
});
