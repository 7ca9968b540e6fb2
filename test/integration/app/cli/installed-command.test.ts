// The command `npm run install-cli` installs: the bundled compiled client on its own Node, without the sources: a pass, status, the entries, files on demand, the window, and removed again.
import { spawn, spawnSync } from 'node:child_process';
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { clientFor } from '../../../helpers/api-client.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { test } from '../../../helpers/fixtures.ts';
import { ROOT, runMchSync, runProcess, type CliRun } from '../../../helpers/mch-sync.ts';
import { liveSync, shown, waitFor } from '../../../helpers/on-demand-cli.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';

const run = promisify(execFile);

/** `npm run install-cli -- args` from the checkout, on the build `npm test` made first. */
function installCli(args: string[]): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'install-cli.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every file below `dir` whose name ends in `.ts` (declarations aside), outside node_modules. */
function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (path) => !path.split('/').includes('node_modules') && path.endsWith('.ts') && !path.endsWith('.d.ts'),
  );
}

// Quotes in the prefix: the installed script must pass its own paths on unchanged.
const work = mkdtempSync(join(tmpdir(), 'mch-installed-'));
const prefix = join(work, 'prefix with "quotes" and \'apostrophes\'');
const command = join(prefix, 'bin', 'mch-sync');
const lib = join(prefix, 'lib', 'mch-sync');

beforeAll(() => {
  const installed = installCli(['--prefix', prefix, '--no-build']);
  expect(installed.output).toContain('Installed');
  expect(installed.code).toBe(0);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A HOME of its own with a profile signed in through the installed command. */
async function installedProfile(config: string, name: string): Promise<SignedInProfile> {
  const home = join(work, name);
  mkdirSync(home);
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), MCH_SECRET_STORE: 'file' };
  const profile = { home, profile: join(home, 'profile'), env, remove: () => {} };
  const login = await installed(
    profile,
    ['login', '--config-url', config, '--username', 'alice', '--password-stdin'],
    'alice-password\n',
  );
  expectExit(login, 0);
  return profile;
}

function installed(profile: SignedInProfile, args: string[], input?: string): Promise<CliRun> {
  return runProcess(command, ['--profile', profile.profile, ...args], {
    env: profile.env,
    input,
    timeoutMs: 60_000,
  });
}

describe('the installed mch-sync command', () => {
  test('is the bundled build alone, and syncs, tells its status and installs entries that run it', async ({
    device,
  }) => {
    // Nothing of the sources: bin/mch-sync.js can only run the bundle.
    expect(typeScriptFiles(lib)).toEqual([]);
    expect(existsSync(join(lib, 'bundle', 'main.js'))).toBe(true);
    expect(existsSync(join(lib, 'app'))).toBe(false);

    const help = await runProcess(command, ['--help'], { env: process.env });
    expectExit(help, 0);
    expect(help.stdout).toContain('Usage: mch-sync');

    const profile = await installedProfile(device.running.urls.config, 'home');
    const folder = join(profile.home, 'Installed');
    mkdirSync(folder);
    writeFileSync(join(folder, 'from the installed command.txt'), 'compiled\n');
    expectExit(
      await installed(profile, ['run', '--once', '--folder', folder, '--remote-folder', '/Installed']),
      0,
    );
    const status = await installed(profile, ['status', '--folder', folder, '--json']);
    expectExit(status, 0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      remoteFolder: '/Installed',
      itemsSynced: 1,
      issues: [],
    });

    // The checkout's own command, as a second computer, finds the file on the device.
    const second = join(profile.home, 'second profile');
    const checkout = (args: string[], input?: string): Promise<CliRun> =>
      runMchSync(['--profile', second, ...args], { env: profile.env, input, timeoutMs: 60_000 });
    expectExit(
      await checkout(
        ['login', '--config-url', device.running.urls.config, '--username', 'alice', '--password-stdin'],
        'alice-password\n',
      ),
      0,
    );
    const copy = join(profile.home, 'Copy');
    mkdirSync(copy);
    expectExit(await checkout(['run', '--once', '--folder', copy, '--remote-folder', '/Installed']), 0);
    expect(readFileSync(join(copy, 'from the installed command.txt'), 'utf8')).toBe('compiled\n');

    // The file managers' entries run the installed command (its Node and its bin), not the checkout.
    expectExit(await installed(profile, ['integrate', '--install']), 0);
    const menus = join(profile.home, 'data', 'kio', 'servicemenus');
    const [menu] = readdirSync(menus).filter((name) => name.startsWith('mch-sync-share'));
    const action = readFileSync(join(menus, menu ?? 'missing'), 'utf8');
    // The prefix's quotes are escaped in the Exec line; what follows them is not.
    expect(action).toContain(join('lib', 'mch-sync', 'bin', 'mch-sync.js'));
    expect(action).toContain(join('lib', 'mch-sync', 'node'));
    expect(action).not.toContain(ROOT);
  });

  test('mounts an on-demand folder through the installed mount process and fills a file when it is read', async ({
    device,
  }) => {
    const profile = await installedProfile(device.running.urls.config, 'home-on-demand');
    const root = await clientFor(device).device.createFolder({ parentId: 'root', name: 'OnDemand' });
    await clientFor(device).device.create({
      parentId: root.id,
      name: 'note.txt',
      content: Buffer.from('read me'),
    });
    const folder = join(profile.home, 'OnDemand');
    mkdirSync(folder);
    expectExit(await installed(profile, ['folders', 'add', '--folder', folder, '--on-demand']), 0);
    const live = await liveSync(profile, folder, { command: [command] });
    try {
      await waitFor('the placeholder', () => (shown(folder).includes('note.txt') ? true : undefined));
      expect((await run('cat', [join(folder, 'note.txt')])).stdout).toBe('read me');
    } finally {
      await live.stop();
    }
  });

  test('serves the window from its own copy of the renderer', async ({ device }) => {
    const profile = await installedProfile(device.running.urls.config, 'home-ui');
    const child = spawn(command, ['--profile', profile.profile, 'ui', '--no-open', '--port', '0'], {
      env: profile.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const address = await waitFor('the address', () => /http:\/\/127\.0\.0\.1:\d+\/\S+/.exec(output)?.[0]);
      // The secret in the address is traded for a cookie, then the page itself.
      const first = await fetch(address, { redirect: 'manual' });
      expect(first.status).toBe(303);
      const cookie = first.headers.get('set-cookie')?.split(';')[0] ?? '';
      const page = await fetch(new URL(first.headers.get('location') ?? '/', address), {
        headers: { cookie },
      });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>mch-sync</title>');
    } finally {
      child.kill('SIGINT');
    }
  });

  test('is taken out by --remove', () => {
    expect(installCli(['--prefix', prefix, '--remove']).code).toBe(0);
    expect(existsSync(command)).toBe(false);
    expect(existsSync(lib)).toBe(false);
  });
});
