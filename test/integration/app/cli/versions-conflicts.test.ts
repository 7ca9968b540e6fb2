// `mch-sync conflicts` and `resolve --keep this|device|both`, and the conflict policies of `folders set --conflicts`: conflicts made by `run --once` against the real device, the results checked on both sides.
import type { ConflictJson } from '../../../../app/cli/version-commands/conflicts-command.ts';
import { existsSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { mch } from '../../../helpers/on-demand-cli.ts';
import {
  conflictedCopyOf,
  deviceTexts,
  local,
  mchJson,
  readLocal,
  syncedWorld,
  syncOnce,
  versionsOf,
  writeLocal,
  type VersionsWorld,
} from '../../../helpers/versions-cli.ts';

const SLOW = 300_000;

/** Changes `path` here and on the device, then a pass: the device's version at the name, this computer's beside it. */
async function makeConflict(world: VersionsWorld, path: string, mine: string, theirs: string): Promise<void> {
  writeLocal(world, path, mine);
  await world.device.writeRemote(path, theirs);
  const run = await syncOnce(world);
  expect(run.stdout).toMatch(/^conflicts: +[1-9]/m);
}

async function conflictsOf(world: VersionsWorld): Promise<ConflictJson[]> {
  return mchJson<ConflictJson[]>(world.profile, ['conflicts', '--folder', world.folder]);
}

describe('mch-sync conflicts and resolve', () => {
  it(
    "lists each conflict with both sides; resolve --keep this puts this computer's version at the name and keeps the device's as a version; the device gets it, without the copy",
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'Drafts', { 'plan.txt': 'plan 0', 'other.txt': 'o' });
      await makeConflict(world, 'plan.txt', 'plan by me', 'plan by them');
      const copy = conflictedCopyOf(world, 'plan.txt');

      const listed = await conflictsOf(world);
      expect(listed).toEqual([
        {
          folder: world.folder,
          path: local(world, 'plan.txt'),
          copyPath: local(world, copy),
          madeAtMs: expect.any(Number) as number,
          madeHere: true,
          copy: {
            path: local(world, copy),
            size: 10,
            mTimeMs: expect.any(Number) as number,
            from: 'this computer',
          },
          original: {
            path: local(world, 'plan.txt'),
            size: 12,
            mTimeMs: expect.any(Number) as number,
            from: 'the device',
          },
        },
      ]);
      const words = await mch(profile, ['conflicts', '--folder', world.folder]);
      expectExit(words, 0);
      expect(words.stdout).toContain(`${local(world, 'plan.txt')}\n  this computer:`);
      expect(words.stdout).toContain(`${local(world, copy)}\n  the device:`);
      expect(words.stdout).toContain(
        '1 conflict waiting. Settle one: mch-sync resolve PATH --keep this|device|both',
      );

      const resolved = await mch(profile, ['resolve', local(world, 'plan.txt'), '--keep', 'this']);
      expectExit(resolved, 0);
      expect(resolved.stdout).toContain(
        `Kept this computer's version of ${local(world, 'plan.txt')}; the device's is kept as a version`,
      );
      expect(readLocal(world, 'plan.txt')).toBe('plan by me');
      expect(existsSync(local(world, copy))).toBe(false);
      // Both only read: asked at once.
      const [versions, left] = await Promise.all([versionsOf(world, 'plan.txt'), conflictsOf(world)]);
      expect(versions).toEqual([
        expect.objectContaining({ number: 1, size: 12, reason: 'conflict', why: 'conflict settled' }),
      ]);
      expect(left).toEqual([]);
      await syncOnce(world);
      expect(await deviceTexts(world)).toEqual({ 'other.txt': 'o', 'plan.txt': 'plan by me' });
    },
    SLOW,
  );

  it(
    "resolve --keep device (given the conflicted copy) keeps the device's version and the copy as a version; --keep both keeps both files and lists it no more",
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'Pairs', { 'a.txt': 'a 0', 'b.txt': 'b 0' });
      writeLocal(world, 'b.txt', 'b mine');
      await world.device.writeRemote('b.txt', 'b theirs');
      await makeConflict(world, 'a.txt', 'a mine', 'a theirs');
      const copyA = conflictedCopyOf(world, 'a.txt');
      const copyB = conflictedCopyOf(world, 'b.txt');
      expect((await conflictsOf(world)).map((conflict) => conflict.path).sort()).toEqual(
        [local(world, 'a.txt'), local(world, 'b.txt')].sort(),
      );

      const device = await mchJson<{ path: string; copyPath: string; kept: string; syncsNow: boolean }>(
        profile,
        ['resolve', local(world, copyA), '--keep', 'device'],
      );
      expect(device).toEqual({
        path: local(world, 'a.txt'),
        copyPath: local(world, copyA),
        kept: 'device',
        syncsNow: false,
      });
      expect(readLocal(world, 'a.txt')).toBe('a theirs');
      expect(existsSync(local(world, copyA))).toBe(false);
      expect(await versionsOf(world, copyA)).toEqual([
        expect.objectContaining({ reason: 'conflict', size: 6 }),
      ]);

      const both = await mch(profile, ['resolve', local(world, 'b.txt'), '--keep', 'both']);
      expectExit(both, 0);
      expect(both.stdout).toBe(
        `Kept both: ${local(world, 'b.txt')} and ${local(world, copyB)} stay as they are, and the conflict is no longer listed.\n`,
      );
      expect(readLocal(world, 'b.txt')).toBe('b theirs');
      expect(readLocal(world, copyB)).toBe('b mine');
      const [versions, left] = await Promise.all([versionsOf(world, 'b.txt'), conflictsOf(world)]);
      expect(versions).toEqual([]);
      expect(left).toEqual([]);

      await syncOnce(world);
      expect(await deviceTexts(world)).toEqual({
        'a.txt': 'a theirs',
        'b.txt': 'b theirs',
        [copyB]: 'b mine',
      });
      // Settled conflicts stay settled: a second resolve finds none.
      const again = await mch(profile, ['resolve', local(world, 'b.txt'), '--keep', 'this']);
      expectExit(again, 1);
      expect(again.stderr).toBe('mch-sync: b.txt is not a conflict waiting to be settled.\n');
    },
    SLOW,
  );

  it(
    'folders set --conflicts newer|this|device settles a conflict in the pass that finds it, the other side kept as a version',
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'Policies', {
        'newer-here.txt': '0',
        'newer-there.txt': '0',
        'this.txt': '0',
        'device.txt': '0',
      });
      const set = async (policy: string): Promise<void> => {
        const run = await mch(profile, ['folders', 'set', '--folder', world.folder, '--conflicts', policy]);
        expectExit(run, 0);
      };
      const hour = 3_600_000;

      await set('newer');
      // Here the local edit is the newer; there the device's (the local one is an hour old).
      writeLocal(world, 'newer-here.txt', 'mine, newer');
      await world.device.writeRemote('newer-here.txt', 'theirs, older', Date.now() - hour);
      writeLocal(world, 'newer-there.txt', 'mine, older', hour);
      await world.device.writeRemote('newer-there.txt', 'theirs, newer', Date.now());
      await syncOnce(world);
      expect(readLocal(world, 'newer-here.txt')).toBe('mine, newer');
      expect(readLocal(world, 'newer-there.txt')).toBe('theirs, newer');
      expect(await versionsOf(world, 'newer-here.txt')).toEqual([
        expect.objectContaining({ reason: 'conflict', size: 13 }),
      ]);

      await set('this');
      await makeConflictQuietly(world, 'this.txt', 'this mine', 'this theirs');
      expect(readLocal(world, 'this.txt')).toBe('this mine');
      expect(await versionsOf(world, 'this.txt')).toEqual([
        expect.objectContaining({ reason: 'conflict', size: 11 }),
      ]);

      await set('device');
      await makeConflictQuietly(world, 'device.txt', 'device mine', 'device theirs');
      expect(readLocal(world, 'device.txt')).toBe('device theirs');

      const [left, kept] = await Promise.all([
        conflictsOf(world),
        mchJson<Array<{ path: string; why: string }>>(profile, ['deleted', '--folder', world.folder]),
      ]);
      expect(left).toEqual([]);
      // The losing copies this computer made are kept as versions of their own names.
      expect(kept.map((entry) => [entry.path.includes('(conflicted copy'), entry.why])).toEqual([
        [true, 'conflict settled'],
        [true, 'conflict settled'],
      ]);
      expect(await deviceTexts(world)).toEqual({
        'device.txt': 'device theirs',
        'newer-here.txt': 'mine, newer',
        'newer-there.txt': 'theirs, newer',
        'this.txt': 'this mine',
      });
    },
    SLOW,
  );
});

/** A conflict made and settled by the pair's policy in the same pass: no copy is left. */
async function makeConflictQuietly(
  world: VersionsWorld,
  path: string,
  mine: string,
  theirs: string,
): Promise<void> {
  writeLocal(world, path, mine);
  await world.device.writeRemote(path, theirs);
  await syncOnce(world);
}
