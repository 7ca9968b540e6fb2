// One process per real folder: a live `mch-sync run` keeps every other run of that folder out, from any profile and through any spelling of its path, until it ends.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { MCH_SYNC_BIN, runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { signedInProfile, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';

/** The profile whose live run holds the folder, and another one (another HOME, as another user setup). */
let first: SignedInProfile;
let second: SignedInProfile;
let folder: string;
let holder: ChildProcessWithoutNullStreams | undefined;
/** What the holder printed, so a holder that ended early fails the test with its own words. */
let holderOutput = '';

function mch(profile: SignedInProfile, args: string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 60_000 });
}

test.beforeAll(async ({ device }) => {
  first = await signedInProfile(device, 'mch-lock-first-');
  second = await signedInProfile(device, 'mch-lock-second-');
  folder = join(first.home, 'Shared');
  mkdirSync(folder);
  writeFileSync(join(folder, 'log.txt'), 'line 1\n');
  symlinkSync(folder, join(second.home, 'shared-link'));
  symlinkSync(folder, join(first.home, 'shared-link'));
}, 60_000);

afterAll(async () => {
  if (holder !== undefined && holder.exitCode === null && holder.signalCode === null) {
    const exited = once(holder, 'exit');
    holder.kill('SIGKILL');
    await exited;
  }
  first?.remove();
  second?.remove();
});

describe('a folder synced live by one process', () => {
  it('is held by that run once its first pass started', async () => {
    holder = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', first.profile, 'run', '--folder', folder], {
      env: first.env,
    });
    const started = holder;
    started.stdout.on('data', (chunk: Buffer) => (holderOutput += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (holderOutput += chunk.toString()));
    await waitFor('the live run', async () => {
      if (started.exitCode !== null || started.signalCode !== null) {
        throw new Error(`the live run ended (${started.exitCode ?? started.signalCode}):\n${holderOutput}`);
      }
      const status = await mch(first, ['status', '--folder', folder, '--json']);
      const parsed = status.code === 0 ? (JSON.parse(status.stdout) as { pid: number | null }) : undefined;
      return parsed?.pid === started.pid ? true : undefined;
    });
  }, 90_000);

  it.each([
    ['another profile', () => [second, folder] as const],
    ['another profile through a link', () => [second, join(second.home, 'shared-link')] as const],
    ['another profile with a trailing slash', () => [second, `${folder}/`] as const],
    ['another profile with `..`', () => [second, join(folder, '..', 'Shared')] as const],
  ])('refuses a run from %s, naming the holder', async (_name, which) => {
    const [profile, spelling] = which();
    const run = await mch(profile, ['run', '--folder', spelling, '--once', '--remote-folder', '/Shared']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^mch-sync: Another mch-sync run \\(process ${holder?.pid}, profile ${first.profile}, since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\) is syncing `,
      ),
    );
    expect(run.stderr).toContain(': wait for it to finish, or stop it.');
  });

  it('refuses a live run too, and says through which path the holder syncs it', async () => {
    const link = join(second.home, 'shared-link');
    const run = await mch(second, ['run', '--folder', link, '--remote-folder', '/Shared']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`is syncing ${link} (as ${folder}): wait for it to finish, or stop it.`);
  });

  it('refuses the same profile through a link: the same folder as its pair', async () => {
    const run = await mch(first, ['run', '--folder', join(first.home, 'shared-link'), '--once']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`is the same folder as ${folder}, which is synced with /Shared.`);
  });

  it('blocks nothing once its holder is killed', async ({ device }) => {
    const killed = holder;
    if (killed === undefined) throw new Error('no holder');
    if (killed.exitCode !== null || killed.signalCode !== null)
      throw new Error(`the holder ended early:\n${holderOutput}`);
    const exited = once(killed, 'exit');
    killed.kill('SIGKILL');
    await exited;
    writeFileSync(join(folder, 'log.txt'), 'line 1\nline 2\n');
    const run = await mch(second, [
      'run',
      '--folder',
      join(second.home, 'shared-link'),
      '--once',
      '--remote-folder',
      '/Shared',
    ]);
    expectExit(run, 0);
    const found = (await (await device.fetchAs('alice', '/sdk/v2/filesSearch/text?q=log.txt')).json()) as {
      matches: unknown[];
    };
    expect(found.matches).toHaveLength(1);
  }, 90_000);
});
