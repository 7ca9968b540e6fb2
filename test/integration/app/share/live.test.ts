// `mch-sync share` of a file just made in a folder whose live sync runs: shared once uploaded, with the real service.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import type { ShareJson } from '../../../../app/cli/share-commands/share-command.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { MCH_SYNC_BIN, runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { serviceStatus } from '../../../helpers/on-demand-cli.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';

let folder: string;
let service: ChildProcess;

function mch(profile: SignedInProfile, args: string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 90_000 });
}

test.beforeAll(async ({ profile }) => {
  folder = join(profile.home, 'Live');
  mkdirSync(folder);
  writeFileSync(join(folder, 'first.txt'), 'first');
  service = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile.profile, 'run', '--folder', folder], {
    env: profile.env,
    stdio: 'ignore',
  });
  await waitFor(
    'the live sync to finish its first pass',
    // Asked over the service's control socket: a `status` command per poll would start a process each time.
    async () => {
      const status = await serviceStatus(profile, folder);
      return status !== undefined && status.pid !== null && status.state === 'idle' ? true : undefined;
    },
    60_000,
  );
}, 90_000);

afterAll(async () => {
  if (service !== undefined && service.exitCode === null) {
    const exited = new Promise((done) => service.once('exit', done));
    service.kill('SIGTERM');
    await exited;
  }
});

it('shares a file made a moment ago, once the running sync uploaded it', async ({ profile }) => {
  const path = join(folder, 'just made.txt');
  writeFileSync(path, 'fresh content');
  const run = await mch(profile, ['share', '--json', path]);
  expectExit(run, 0);
  const shared = JSON.parse(run.stdout) as ShareJson;
  expect(shared.items.map((item) => item.path)).toEqual([path]);
  const page = await fetch(shared.url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('just made.txt');
}, 90_000);

it('says that the sync is paused, and shares once it is resumed', async ({ profile }) => {
  expect((await mch(profile, ['pause', '--folder', folder])).code).toBe(0);
  const path = join(folder, 'while paused.txt');
  writeFileSync(path, 'made while paused');
  const refused = await mch(profile, ['share', path]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`the sync of ${folder} is paused: \`mch-sync resume --folder`);
  expect((await mch(profile, ['resume', '--folder', folder])).code).toBe(0);
  const run = await mch(profile, ['share', '--json', path]);
  expectExit(run, 0);
  const page = await fetch((JSON.parse(run.stdout) as ShareJson).url);
  expect(await page.text()).toContain('while paused.txt');
}, 90_000);
