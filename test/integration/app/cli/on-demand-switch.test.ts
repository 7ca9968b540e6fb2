// Switching a pair to files on demand and back, as a user types it: every file kept, nothing sent again.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { readPairOnDemand } from '../../../../app/profile/pair-on-demand.ts';
import { isPlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { liveSync, mch, shown } from '../../../helpers/on-demand-cli.ts';

const run = promisify(execFile);

describe('switching files on demand', () => {
  it('turns a synced folder on demand and back, keeping every file and sending nothing again', async ({
    profile,
  }) => {
    const folder = join(profile.home, 'Switched');
    mkdirSync(join(folder, 'Docs'), { recursive: true });
    writeFileSync(join(folder, 'Docs/a.txt'), 'alpha');
    writeFileSync(join(folder, 'b.txt'), 'beta');
    expectExit(await mch(profile, ['folders', 'add', '--folder', folder]), 0);
    expectExit(await mch(profile, ['run', '--once', '--folder', folder]), 0);
    const inode = statSync(join(folder, 'b.txt')).ino;

    // On: the files move (one rename) into the cache folder; the folder is the mount point.
    const on = await mch(profile, ['folders', 'set', '--folder', folder, '--on-demand']);
    expectExit(on, 0);
    expect(on.stdout).toContain('is on demand');
    const cache = readPairOnDemand(profile.profile, folder)?.cache ?? '';
    expect(shown(folder)).toEqual([]);
    expect(statSync(join(cache, 'b.txt')).ino).toBe(inode);
    const live = await liveSync(profile, folder);
    try {
      expect(shown(folder).sort()).toEqual(['Docs', 'b.txt']);
    } finally {
      await live.stop();
    }
    // One file given back to the device only.
    expectExit(await mch(profile, ['free', join(folder, 'b.txt')]), 0);
    expect(isPlaceholder(join(cache, 'b.txt'))).toBe(true);
    // A pass after it sends nothing: the placeholder is the synced file.
    const quiet = await mch(profile, ['run', '--once', '--folder', folder, '--json']);
    expectExit(quiet, 0);
    expect((JSON.parse(quiet.stdout) as { counts: { uploaded: number } }).counts.uploaded).toBe(0);

    // Off: what is only on the device comes down, then the files move back.
    const off = await mch(profile, ['folders', 'set', '--folder', folder, '--no-on-demand']);
    expectExit(off, 0);
    expect(off.stdout).toContain('holds every file again');
    expect(readPairOnDemand(profile.profile, folder)).toBeUndefined();
    expect(readFileSync(join(folder, 'b.txt'), 'utf8')).toBe('beta');
    expect(readFileSync(join(folder, 'Docs/a.txt'), 'utf8')).toBe('alpha');
    expect(isPlaceholder(join(folder, 'b.txt'))).toBe(false);
    expect(readdirSync(folder)).toContain('.mch-sync');
    const after = await mch(profile, ['run', '--once', '--folder', folder, '--json']);
    expectExit(after, 0);
    const counts = (JSON.parse(after.stdout) as { counts: Record<string, number> }).counts;
    expect([counts['uploaded'], counts['downloaded'], counts['deleted']]).toEqual([0, 0, 0]);
  }, 180_000);

  it('gives the whole files back to the folder when an on-demand pair is removed, and drops its placeholders', async ({
    profile,
  }) => {
    const folder = join(profile.home, 'Removed');
    mkdirSync(folder);
    writeFileSync(join(folder, 'kept.txt'), 'kept here');
    writeFileSync(join(folder, 'online.txt'), 'only on the device after free');
    expectExit(await mch(profile, ['folders', 'add', '--folder', folder, '--on-demand']), 0);
    expectExit(await mch(profile, ['run', '--once', '--folder', folder]), 0);
    expectExit(await mch(profile, ['free', join(folder, 'online.txt')]), 0);
    const cache = readPairOnDemand(profile.profile, folder)?.cache ?? '';
    expect(isPlaceholder(join(cache, 'online.txt'))).toBe(true);
    expectExit(await mch(profile, ['folders', 'remove', '--folder', folder]), 0);
    expect(shown(folder)).toEqual(['kept.txt']);
    expect(readFileSync(join(folder, 'kept.txt'), 'utf8')).toBe('kept here');
    expect(existsSync(cache)).toBe(false);
  }, 120_000);

  it('keeps the programs of the no-download list from downloading, and goes back to the defaults', async ({
    profile,
  }) => {
    const folder = join(profile.home, 'Guarded');
    mkdirSync(folder);
    writeFileSync(join(folder, 'report.txt'), 'the report');
    expectExit(await mch(profile, ['folders', 'add', '--folder', folder, '--on-demand']), 0);
    expectExit(await mch(profile, ['run', '--once', '--folder', folder]), 0);
    expectExit(await mch(profile, ['free', join(folder, 'report.txt')]), 0);
    const bad = await mch(profile, ['folders', 'set', '--folder', folder, '--no-download', 'cat,,x']);
    expectExit(bad, 2);
    expectExit(
      await mch(profile, ['folders', 'set', '--folder', folder, '--no-download', 'cat,*indexer*']),
      0,
    );
    expect(readPairOnDemand(profile.profile, folder)?.noDownload).toEqual(['cat', '*indexer*']);
    const live = await liveSync(profile, folder);
    try {
      // `cat` sees the file and its size, and gets "Permission denied"; `head` downloads it.
      const refused = await run('cat', [join(folder, 'report.txt')]).catch(
        (error: { stderr: string }) => error,
      );
      expect(refused.stderr).toContain('Permission denied');
      expect(statSync(join(folder, 'report.txt')).size).toBe('the report'.length);
      expect((await run('head', ['-c', '100', join(folder, 'report.txt')])).stdout).toBe('the report');
    } finally {
      await live.stop();
    }
    expectExit(await mch(profile, ['folders', 'set', '--folder', folder, '--no-download', 'default']), 0);
    expect(readPairOnDemand(profile.profile, folder)?.noDownload).toBeUndefined();
  }, 120_000);

  it('refuses a second switch the same way with plain words, and a pair not on demand to switch off', async ({
    profile,
  }) => {
    const folder = join(profile.home, 'Plain');
    mkdirSync(folder);
    expectExit(await mch(profile, ['folders', 'add', '--folder', folder]), 0);
    const off = await mch(profile, ['folders', 'set', '--folder', folder, '--no-on-demand']);
    expectExit(off, 0);
    expect(off.stdout).toContain('not on demand');
    const both = await mch(profile, ['folders', 'set', '--folder', folder, '--on-demand', '--no-on-demand']);
    expectExit(both, 2);
  }, 120_000);
});
