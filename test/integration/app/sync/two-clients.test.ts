// Two computers (two folders, two indexes) syncing one device folder converge after changes on both.
import { describe, expect } from 'vitest';
import { it, type NewPair } from '../../../helpers/fixtures.ts';
import { files, type SyncPair } from '../../../helpers/sync-pair.ts';

function computers(newPair: NewPair): [SyncPair, SyncPair] {
  const laptop = newPair({ engine: { now: () => new Date('2026-05-06T07:08:09Z') } });
  const desktop = newPair({
    remoteFolder: laptop.remoteFolder,
    engine: { now: () => new Date('2026-05-06T07:08:09Z') },
  });
  return [laptop, desktop];
}

async function settle(laptop: SyncPair, desktop: SyncPair): Promise<void> {
  for (const pair of [laptop, desktop, laptop]) {
    const report = await pair.sync();
    expect(report.issues.filter((issue) => issue.kind !== 'skipped')).toEqual([]);
  }
}

describe('two computers on one device folder', () => {
  it('converge after renames, edits, adds and deletes on both sides', async ({ newPair }) => {
    const [laptop, desktop] = computers(newPair);
    laptop.writeLocal('notes.txt', 'notes v1');
    laptop.writeLocal('docs/plan.txt', 'plan');
    laptop.writeLocal('docs/old.txt', 'old');
    laptop.writeLocal('photos/p1.jpg', 'photo 1');
    await settle(laptop, desktop);
    expect(desktop.localTree()).toEqual(laptop.localTree());

    laptop.writeLocal('notes.txt', 'notes v2 from the laptop', Date.parse('2026-04-01T00:00:00Z'));
    laptop.renameLocal('docs/plan.txt', 'docs/plan-final.txt');
    laptop.writeLocal('laptop-only.txt', 'new on the laptop');
    desktop.removeLocal('docs/old.txt');
    desktop.renameLocal('photos', 'pictures');
    desktop.writeLocal('pictures/p2.jpg', 'photo 2');
    await settle(laptop, desktop);
    await desktop.sync();

    const expected = files({
      'notes.txt': 'notes v2 from the laptop',
      'docs/plan-final.txt': 'plan',
      'laptop-only.txt': 'new on the laptop',
      'pictures/p1.jpg': 'photo 1',
      'pictures/p2.jpg': 'photo 2',
    });
    expect(laptop.localTree()).toEqual(expected);
    expect(desktop.localTree()).toEqual(expected);
    expect(await laptop.remoteTree()).toEqual(expected);
    for (const pair of [laptop, desktop]) expect((await pair.syncCounting()).writes).toEqual([]);
  });

  it('keep both versions of a file both edited, and agree on the result', async ({ newPair }) => {
    const [laptop, desktop] = computers(newPair);
    laptop.writeLocal('shared.txt', 'v1');
    await settle(laptop, desktop);
    laptop.writeLocal('shared.txt', 'laptop edit', Date.parse('2026-04-01T00:00:00Z'));
    desktop.writeLocal('shared.txt', 'desktop edit!', Date.parse('2026-04-02T00:00:00Z'));
    await settle(laptop, desktop);
    await desktop.sync();
    const tree = laptop.localTree();
    expect(desktop.localTree()).toEqual(tree);
    expect(await laptop.remoteTree()).toEqual(tree);
    const texts = Object.values(tree).map((item) => (item.kind === 'file' ? item.text : '/'));
    expect(texts.sort()).toEqual(['desktop edit!', 'laptop edit']);
    expect(tree['shared.txt']).toEqual({ kind: 'file', text: 'laptop edit' });
  });
});
