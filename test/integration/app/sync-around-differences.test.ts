// A whole pass that finds a few items differing plans only around them, ends as a whole pass would, and the next is quiet.
import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PassReport } from '../../../app/sync/pass-report.ts';
import { META_SETTLED } from '../../../app/sync/quiet-pass.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';
import { SyncPair } from '../../helpers/sync-pair.ts';

let device: TestDevice;
const pairs: SyncPair[] = [];

beforeAll(async () => {
  device = await startTestDevice();
});
afterAll(async () => {
  await device?.stop();
});
afterEach(() => {
  for (const pair of pairs.splice(0)) pair.close();
});

type Way = 'quiet' | 'around' | 'unchanged listings' | 'whole';

/** Which way the pass's first round went, by its log. */
function wayOf(pair: SyncPair): Way {
  const said = (text: string): boolean => pair.logLines.some((line) => line.message.includes(text));
  if (said('nothing changed on either side')) return 'quiet';
  if (said('planned around')) return 'around';
  if (said('the listings the device changed hold what the index has')) return 'unchanged listings';
  return 'whole';
}

/** One pass in a new engine on the same index (as `run --once` makes one). */
async function pass(pair: SyncPair): Promise<{ way: Way; report: PassReport; writes: string[] }> {
  pair.restart();
  pair.logLines.length = 0;
  const { report, writes } = await pair.syncCounting();
  return { way: wayOf(pair), report, writes };
}

/** A pair synced with a small tree, until a pass is quiet. */
async function syncedPair(): Promise<SyncPair> {
  const pair = new SyncPair(device, { indexFile: true });
  pairs.push(pair);
  pair.writeLocal('a.txt', 'alpha');
  pair.writeLocal('docs/b.txt', 'bravo');
  pair.writeLocal('docs/deep/c.txt', 'charlie');
  pair.writeLocal('photos/2024/p.jpg', 'jpeg');
  pair.mkdirLocal('empty');
  expect((await pair.sync()).status).toBe('synced');
  await quietAgain(pair);
  return pair;
}

/** After a change: the pass that only sees the folders it wrote into listed again, then a quiet one. */
async function quietAgain(pair: SyncPair): Promise<void> {
  const relisting = await pass(pair);
  expect(relisting.writes).toEqual([]);
  expect(relisting.report.status).toBe('synced');
  expect(['quiet', 'unchanged listings', 'whole']).toContain(relisting.way);
  expect((await pass(pair)).way).toBe('quiet');
}

describe('a whole pass that finds a few items differing', () => {
  it('plans only around each kind of change, on either side, with the same outcome', async () => {
    const pair = await syncedPair();
    const steps: Array<[string, () => void | Promise<unknown>]> = [
      ['an edit', () => pair.writeLocal('docs/deep/c.txt', 'CHARLIE')],
      ['a new file at the top', () => pair.writeLocal('new.txt', 'new')],
      ['a rename', () => pair.renameLocal('a.txt', 'a2.txt')],
      ['a move into another folder', () => pair.renameLocal('docs/b.txt', 'photos/2024/b.txt')],
      ['a folder renamed', () => pair.renameLocal('photos/2024', 'photos/2025')],
      ['a new folder with a file', () => pair.writeLocal('docs/fresh/f.txt', 'fresh')],
      ['a local delete', () => pair.removeLocal('new.txt')],
      ['a remote edit', () => pair.writeRemote('docs/deep/c.txt', 'from the device')],
      ['a remote move', () => pair.moveRemote('docs/deep/c.txt', 'empty/c.txt')],
      ['a remote folder made', () => pair.mkdirRemote('docs/deep/made')],
      ['a remote file added at the top', () => pair.writeRemote('top.txt', 'top')],
      ['a remote delete', () => pair.removeRemote('docs/fresh/f.txt')],
      [
        'changes on both sides at once',
        async () => {
          pair.writeLocal('a2.txt', 'edited here');
          await pair.writeRemote('photos/2025/p.jpg', 'edited there');
        },
      ],
    ];
    for (const [what, change] of steps) {
      await change();
      const { way, report } = await pass(pair);
      expect(way, what).toBe('around');
      expect(report.status, what).toBe('synced');
      expect(pair.localTree(), what).toEqual(await pair.remoteTree());
      // The round settled: its record is written for the next pass, which has nothing to plan.
      expect(pair.index.getMeta(META_SETTLED), what).toBeDefined();
      await quietAgain(pair);
    }
    expect(pair.readLocal('empty/c.txt')).toBe('from the device');
    expect(pair.readLocal('photos/2025/p.jpg')).toBe('edited there');
  });

  it('plans over everything for an ignore file changed, or an issue standing', async () => {
    const pair = await syncedPair();
    pair.writeLocal('docs/.mchignore', '*.log\n');
    expect((await pass(pair)).way).toBe('whole');
    await quietAgain(pair);
    writeFileSync(pair.local('docs/x.log'), 'ignored');
    // An ignored file is reported: with an issue standing, a change plans over everything.
    pair.writeLocal('a.txt', 'again');
    const { way, report } = await pass(pair);
    expect(way).toBe('whole');
    expect(report.issues.map((issue) => issue.path)).toContain('docs/x.log');
    expect(pair.localTree()).toMatchObject({ 'a.txt': { kind: 'file', text: 'again' } });
  });
});
