// `mch-sync versions`, `restore`, `deleted`, `versions --clear` and the versions cap, as a user types them: a folder synced by `run --once` against the real device, changes made there by another client.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import type { CliRun } from '../../../helpers/mch-sync.ts';
import { mch } from '../../../helpers/on-demand-cli.ts';
import { moveToTrash } from '../../../../app/sync/trash/local-trash.ts';
import {
  deviceTexts,
  local,
  mchJson,
  readLocal,
  snapshot,
  syncedWorld,
  syncOnce,
  versionsOf,
  writeLocal,
} from '../../../helpers/versions-cli.ts';

/** Each test runs a dozen commands, on a machine that may be busy: no time is asserted. */
const SLOW = 300_000;

interface RestoreJson {
  restored: Array<{
    path: string;
    to: string;
    from: 'versions' | 'trash';
    version: number | null;
    size: number;
    replacedKept: boolean;
    syncsNow: boolean;
  }>;
  skipped: Array<{ path: string; reason: string }>;
}

interface DeletedJson {
  folder: string;
  path: string;
  from: 'versions' | 'trash';
  kind: 'file' | 'folder';
  reason: string;
  why: string;
  size: number;
  versions: number;
}

describe('mch-sync versions and restore', () => {
  it(
    "keeps a file the device's newer version replaced; restore puts the newest back (or --version N, or --to DEST), keeping what it replaces, and the next pass sends it up",
    async ({ profile, newPair, tempDir }) => {
      const world = await syncedWorld(profile, newPair, 'Reports', { 'report.txt': 'first draft\n' });
      await world.device.writeRemote('report.txt', 'second draft\n');
      await syncOnce(world);
      await world.device.writeRemote('report.txt', 'third draft\n');
      await syncOnce(world);
      expect(readLocal(world, 'report.txt')).toBe('third draft\n');

      const listed = await mch(profile, ['versions', local(world, 'report.txt')]);
      expectExit(listed, 0);
      expect(listed.stdout).toContain(`${local(world, 'report.txt')}: 2 versions kept, newest first:`);
      expect(listed.stdout).toMatch(
        /^ {2}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d +13 B {2}replaced by the device's version \(modified /m,
      );
      expect(await versionsOf(world, 'report.txt')).toEqual([
        expect.objectContaining({
          number: 1,
          size: 13,
          reason: 'replaced',
          why: "replaced by the device's version",
        }),
        expect.objectContaining({ number: 2, size: 12, reason: 'replaced' }),
      ]);

      // Version 2, the oldest: the file it replaces ("third draft") is kept first.
      const restored = await mch(profile, ['restore', local(world, 'report.txt'), '--version', '2']);
      expectExit(restored, 0);
      expect(restored.stdout).toContain(
        `Restored version 2 of ${local(world, 'report.txt')} (12 B); the file it replaced is kept as version 1`,
      );
      expect(restored.stdout).toContain(`It goes to the device at the next sync of ${world.folder}`);
      expect(readLocal(world, 'report.txt')).toBe('first draft\n');
      expect(await versionsOf(world, 'report.txt')).toEqual([
        expect.objectContaining({ number: 1, size: 12, reason: 'restored', why: 'replaced by a restore' }),
        expect.objectContaining({ number: 2, size: 13, reason: 'replaced' }),
      ]);
      await syncOnce(world);
      expect(await deviceTexts(world)).toEqual({ 'report.txt': 'first draft\n' });

      // Without --version: the newest ("third draft", which the restore replaced).
      const newest = await mchJson<RestoreJson>(profile, ['restore', local(world, 'report.txt')]);
      expect(newest).toEqual({
        restored: [
          {
            path: local(world, 'report.txt'),
            to: local(world, 'report.txt'),
            from: 'versions',
            version: 1,
            size: 12,
            replacedKept: true,
            syncsNow: false,
          },
        ],
        skipped: [],
      });
      expect(readLocal(world, 'report.txt')).toBe('third draft\n');

      // --to: the version goes elsewhere, the file stays; into the folder (synced) or outside it.
      const inside = local(world, 'old/second.txt');
      const aside = await mch(profile, [
        'restore',
        local(world, 'report.txt'),
        '--version',
        '2',
        '--to',
        inside,
      ]);
      expectExit(aside, 0);
      expect(aside.stdout).toContain(
        `Restored version 2 of ${local(world, 'report.txt')} to ${inside} (13 B).`,
      );
      expect(readFileSync(inside, 'utf8')).toBe('second draft\n');
      expect(readLocal(world, 'report.txt')).toBe('third draft\n');
      const outside = join(tempDir, 'first.txt');
      const away = await mch(profile, ['restore', local(world, 'report.txt'), '--to', outside]);
      expectExit(away, 0);
      expect(away.stdout).toContain(
        `${outside} is outside every synced folder: it stays on this computer only.`,
      );
      expect(readFileSync(outside, 'utf8')).toBe('first draft\n');
      expect(await versionsOf(world, 'report.txt')).toEqual([]);

      await syncOnce(world);
      expect(await deviceTexts(world)).toEqual({
        old: '',
        'old/second.txt': 'second draft\n',
        'report.txt': 'third draft\n',
      });
    },
    SLOW,
  );

  it(
    'keeps what the device deleted: deleted lists it (--folder, --since), restore --deleted puts a file and a folder back, and they go up again',
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'Letters', {
        'a.txt': 'letter a',
        'Old/x.txt': 'letter x',
        'Old/Deeper/y.txt': 'letter y',
        'keep.txt': 'stays',
      });
      await world.device.removeRemote('a.txt');
      await world.device.removeRemote('Old');
      await syncOnce(world);
      expect(existsSync(local(world, 'a.txt'))).toBe(false);
      expect(existsSync(local(world, 'Old'))).toBe(false);

      // Five readings of the same kept files: asked at once.
      const [every, inOld, lastHour, toCome, words] = await Promise.all([
        mchJson<DeletedJson[]>(profile, ['deleted']),
        mchJson<DeletedJson[]>(profile, ['deleted', '--folder', local(world, 'Old')]),
        mchJson<DeletedJson[]>(profile, ['deleted', '--folder', world.folder, '--since', '1h']),
        mchJson<DeletedJson[]>(profile, ['deleted', '--folder', world.folder, '--since', '2999-01-01']),
        mch(profile, ['deleted', '--folder', world.folder]),
      ]);
      const mine = every.filter((entry) => entry.folder === world.folder);
      expect(mine.map((entry) => entry.path).sort()).toEqual(
        [local(world, 'a.txt'), local(world, 'Old/Deeper/y.txt'), local(world, 'Old/x.txt')].sort(),
      );
      expect(mine.every((entry) => entry.reason === 'deleted' && entry.why === 'deleted on the device')).toBe(
        true,
      );
      expect(inOld.map((entry) => entry.path).sort()).toEqual(
        [local(world, 'Old/Deeper/y.txt'), local(world, 'Old/x.txt')].sort(),
      );
      expect(lastHour).toHaveLength(3);
      expect(toCome).toEqual([]);
      expectExit(words, 0);
      expect(words.stdout).toContain(`${local(world, 'a.txt')}  (deleted on the device)`);
      expect(words.stdout).toContain('3 deleted files can be restored: mch-sync restore --deleted PATH');

      const file = await mch(profile, ['restore', '--deleted', local(world, 'a.txt')]);
      expectExit(file, 0);
      expect(file.stdout).toContain(`Restored 1 file:\n  ${local(world, 'a.txt')}\n`);
      const folder = await mchJson<RestoreJson>(profile, ['restore', '--deleted', local(world, 'Old')]);
      expect(folder.restored.map((entry) => entry.path).sort()).toEqual(
        [local(world, 'Old/Deeper/y.txt'), local(world, 'Old/x.txt')].sort(),
      );
      expect(readLocal(world, 'Old/Deeper/y.txt')).toBe('letter y');
      expect(await mchJson<DeletedJson[]>(profile, ['deleted', '--folder', world.folder])).toEqual([]);

      await syncOnce(world);
      expect(await deviceTexts(world)).toEqual({
        'a.txt': 'letter a',
        'keep.txt': 'stays',
        Old: '',
        'Old/Deeper': '',
        'Old/Deeper/y.txt': 'letter y',
        'Old/x.txt': 'letter x',
      });
    },
    SLOW,
  );

  it(
    'lists a file deleted here that the trash still holds, and restore --deleted puts it back from there; the next pass sends it up again',
    async ({ profile, newPair }) => {
      // A file stays: a folder emptied is held, not synced.
      const world = await syncedWorld(profile, newPair, 'Binned', {
        'memo.txt': 'memo',
        'Sub/deep.txt': 'deep',
        'stays.txt': 'stays',
      });
      const env = { HOME: profile.env['HOME'], XDG_DATA_HOME: profile.env['XDG_DATA_HOME'] };
      await moveToTrash(local(world, 'memo.txt'), { syncRoot: world.folder, env });
      await moveToTrash(local(world, 'Sub'), { syncRoot: world.folder, env });
      await syncOnce(world);
      expect(await deviceTexts(world)).toEqual({ 'stays.txt': 'stays' });

      const listed = await mchJson<DeletedJson[]>(profile, ['deleted', '--folder', world.folder]);
      expect(listed.map((entry) => [entry.path, entry.from, entry.kind, entry.why]).sort()).toEqual([
        [local(world, 'Sub'), 'trash', 'folder', 'deleted here, in the trash'],
        [local(world, 'memo.txt'), 'trash', 'file', 'deleted here, in the trash'],
      ]);
      const memo = await mch(profile, ['restore', '--deleted', local(world, 'memo.txt')]);
      expectExit(memo, 0);
      expect(memo.stdout).toContain(`Restored 1 file:\n  ${local(world, 'memo.txt')} (from the trash)\n`);
      const rest = await mchJson<RestoreJson>(profile, [
        'restore',
        '--all-since',
        '1h',
        '--folder',
        world.folder,
      ]);
      expect(rest.restored.map((entry) => [entry.path, entry.from, entry.version])).toEqual([
        [local(world, 'Sub'), 'trash', null],
      ]);
      expect(readLocal(world, 'Sub/deep.txt')).toBe('deep');
      expect(await mchJson<DeletedJson[]>(profile, ['deleted', '--folder', world.folder])).toEqual([]);
      await syncOnce(world);
      expect(await deviceTexts(world)).toEqual({
        'memo.txt': 'memo',
        'stays.txt': 'stays',
        Sub: '',
        'Sub/deep.txt': 'deep',
      });
    },
    SLOW,
  );

  it(
    'restore --all-since puts back every file deleted since then; one whose place is taken again stays in the versions and is said (exit 1)',
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'Notes', { 'b.txt': 'note b', 'c.txt': 'note c' });
      await world.device.removeRemote('b.txt');
      await world.device.removeRemote('c.txt');
      await syncOnce(world);
      writeLocal(world, 'c.txt', 'a new note c');

      const run = await mch(profile, ['restore', '--all-since', '10min', '--folder', world.folder]);
      expectExit(run, 1);
      expect(run.stdout).toContain(`Restored 1 file:\n  ${local(world, 'b.txt')}\n`);
      expect(run.stdout).toContain(
        `Left where they are (1):\n  ${local(world, 'c.txt')}: something is at its place now`,
      );
      expect(readLocal(world, 'b.txt')).toBe('note b');
      expect(readLocal(world, 'c.txt')).toBe('a new note c');
      expect(await versionsOf(world, 'c.txt')).toEqual([
        expect.objectContaining({ reason: 'deleted', size: 6 }),
      ]);

      // Nothing deleted since a time to come: nothing to do, said, exit 1.
      const none = await mch(profile, ['restore', '--all-since', '2999-01-01', '--folder', world.folder]);
      expectExit(none, 1);
      expect(none.stderr).toBe(
        `mch-sync: No file deleted since 2999-01-01 00:00 in ${world.folder} is kept, as a version or in the trash.\n`,
      );
    },
    SLOW,
  );

  it(
    'refuses bad input with a clear message and changes nothing: a path outside every pair, a version that does not exist, a --to that exists, resolve on a file in no conflict',
    async ({ profile, newPair, tempDir }) => {
      const world = await syncedWorld(profile, newPair, 'Safe', { 'plan.txt': 'plan one' });
      await world.device.writeRemote('plan.txt', 'plan two');
      await syncOnce(world);
      writeFileSync(join(tempDir, 'taken.txt'), 'already here');
      mkdirSync(join(tempDir, 'outside'));
      writeFileSync(join(tempDir, 'outside', 'x.txt'), 'not synced');
      const before = snapshot(world.folder);
      const onDevice = await deviceTexts(world);
      const versions = await versionsOf(world, 'plan.txt');
      expect(versions).toHaveLength(1);

      const cases: Array<[string[], number, string]> = [
        [
          ['restore', join(tempDir, 'outside', 'x.txt')],
          2,
          `mch-sync: ${join(tempDir, 'outside', 'x.txt')} is not inside a synced folder of this profile (see \`mch-sync folders list\`).`,
        ],
        [['versions', join(tempDir, 'outside', 'x.txt')], 2, `is not inside a synced folder of this profile`],
        [
          ['restore', local(world, 'plan.txt'), '--version', '9'],
          1,
          'mch-sync: plan.txt has 1 kept version; there is no version 9.\n',
        ],
        [
          ['restore', local(world, 'plan.txt'), '--version', 'two'],
          2,
          '--version: "two" is not a version number',
        ],
        [
          ['restore', local(world, 'plan.txt'), '--to', join(tempDir, 'taken.txt')],
          1,
          `mch-sync: ${join(tempDir, 'taken.txt')} exists; choose a name that is free.\n`,
        ],
        [
          ['restore', local(world, 'plan.txt'), '--to', local(world, 'plan.txt')],
          1,
          `mch-sync: ${local(world, 'plan.txt')} exists; choose a name that is free.\n`,
        ],
        [
          ['resolve', local(world, 'plan.txt'), '--keep', 'this'],
          1,
          'mch-sync: plan.txt is not a conflict waiting to be settled.\n',
        ],
        [
          ['resolve', local(world, 'plan.txt')],
          2,
          'Say which side stays: --keep this, --keep device or --keep both.',
        ],
        [
          ['restore', '--deleted', local(world, 'plan.txt')],
          1,
          `mch-sync: Nothing deleted at or below ${local(world, 'plan.txt')} is kept, as a version or in the trash.\n`,
        ],
        [['deleted', '--since', 'yesterday'], 2, '--since: "yesterday" is not a time'],
        [
          ['restore', join(world.folder, '.mch-sync', 'folder-id')],
          2,
          "is in the client's own .mch-sync folder",
        ],
      ];
      // Each is refused and changes nothing; what they left is compared after all of them. Usage errors
      // (2) are refused before the pair's lock, so they run at once; the others take the lock to read the
      // versions (a second holder would be FOLDER_BUSY), so they run one after another beside them.
      const runs = new Map<string[], CliRun>();
      const ask = async (args: string[]): Promise<void> => void runs.set(args, await mch(profile, args));
      await Promise.all([
        ...cases.filter(([, code]) => code === 2).map(([args]) => ask(args)),
        (async () => {
          for (const [args, code] of cases) if (code !== 2) await ask(args);
        })(),
      ]);
      for (const [args, code, message] of cases) {
        const run = runs.get(args) ?? { code: null, stdout: '', stderr: '' };
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(code);
        expect(run.stderr, args.join(' ')).toContain(message);
        expect(run.stdout, args.join(' ')).toBe('');
      }
      expect(snapshot(world.folder)).toEqual(before);
      expect(readFileSync(join(tempDir, 'taken.txt'), 'utf8')).toBe('already here');
      expect(await versionsOf(world, 'plan.txt')).toEqual(versions);
      await syncOnce(world);
      expect(await deviceTexts(world)).toEqual(onDevice);
    },
    SLOW,
  );

  it(
    'versions --clear asks for --yes, then removes every version of the folder and leaves its files',
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'Clear', { 'one.txt': '1', 'two.txt': '2' });
      await world.device.writeRemote('one.txt', 'one again');
      await world.device.removeRemote('two.txt');
      await syncOnce(world);
      const before = snapshot(world.folder);

      const asked = await mch(profile, ['versions', '--clear', '--folder', world.folder]);
      expectExit(asked, 2);
      expect(asked.stderr).toContain(
        `This deletes the 2 versions (2 B) kept of ${world.folder}, for good; the folder's own files stay. Add --yes to go ahead.`,
      );
      expect(snapshot(world.folder)).toEqual(before);

      const cleared = await mchJson<{ folder: string; removed: number; bytes: number; running: boolean }>(
        profile,
        ['versions', '--clear', '--folder', world.folder, '--yes'],
      );
      expect(cleared).toEqual({ folder: world.folder, removed: 2, bytes: 2, running: false });
      expect(await versionsOf(world, 'one.txt')).toEqual([]);
      expect(await mchJson<DeletedJson[]>(profile, ['deleted', '--folder', world.folder])).toEqual([]);
      expect(Object.keys(snapshot(world.folder)).sort()).toEqual(['one.txt']);
      expect(readLocal(world, 'one.txt')).toBe('one again');
    },
    SLOW,
  );

  it(
    'folders set --versions-cap thins the oldest versions first once they pass it; folders list shows the policy and what is kept',
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'Capped', { 'log.txt': 'version 1\n' });
      const set = await mch(profile, [
        'folders',
        'set',
        '--folder',
        world.folder,
        '--versions-cap',
        '25B',
        '--keep-versions',
        '7',
      ]);
      expectExit(set, 0);
      expect(set.stdout).toContain(
        `${world.folder}: versions: 0 (0 B); each kept up to 7 days, at most 25 B in all;`,
      );
      for (const text of ['version 2\n', 'version 3\n', 'version 4\n']) {
        await world.device.writeRemote('log.txt', text);
        await syncOnce(world);
      }
      // Three versions of 10 B were kept; the third pass left the two newest: 20 B, within 25 B.
      expect(await versionsOf(world, 'log.txt')).toEqual([
        expect.objectContaining({ number: 1, size: 10, reason: 'replaced' }),
        expect.objectContaining({ number: 2, size: 10, reason: 'replaced' }),
      ]);
      const second = await mch(profile, [
        'restore',
        local(world, 'log.txt'),
        '--version',
        '2',
        '--to',
        local(world, 'v2.txt'),
      ]);
      expectExit(second, 0);
      expect(readLocal(world, 'v2.txt')).toBe('version 2\n');

      const [listed, words] = await Promise.all([
        mchJson<Array<{ localRoot: string; versions: unknown }>>(profile, ['folders', 'list']),
        mch(profile, ['folders', 'list']),
      ]);
      expect(listed.find((row) => row.localRoot === world.folder)?.versions).toEqual({
        keepDays: 7,
        capBytes: 25,
        capBytesNow: 25,
        conflicts: 'ask',
        kept: { count: 1, bytes: 10 },
      });
      expect(words.stdout).toContain(
        `  versions: 1 (10 B); each kept up to 7 days, at most 25 B in all; conflicts keep both and wait for you`,
      );
    },
    SLOW,
  );
});
