// The command `npm run install-cli` installs: the compiled client on its own Node, without the sources, syncing, sharing its entries and removed again.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { test } from '../../../helpers/fixtures.ts';
import { ROOT, runMchSync, runProcess } from '../../../helpers/mch-sync.ts';

/** `npm run install-cli -- args` from the checkout, on the build `npm test` made first. */
function installCli(args: string[]): { code: number | null; output: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'install-cli.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Every file below `dir` whose name ends in `.ts` (declarations aside), outside node_modules. */
function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (path) => !path.split('/').includes('node_modules') && path.endsWith('.ts') && !path.endsWith('.d.ts'),
  );
}

describe('the installed mch-sync command', () => {
  test('runs the compiled client from its own folder: help, login, a pass, status, share entries', async ({
    device,
    tempDir,
  }) => {
    const prefix = join(tempDir, 'prefix with "quotes" and \'apostrophes\'');
    const installed = installCli(['--prefix', prefix, '--no-build']);
    expect(installed.output).toContain('Installed');
    expect(installed.code).toBe(0);
    const command = join(prefix, 'bin', 'mch-sync');
    const lib = join(prefix, 'lib', 'mch-sync');
    // Nothing of the sources: bin/mch-sync.js can only run dist/.
    expect(typeScriptFiles(lib)).toEqual([]);
    expect(existsSync(join(lib, 'dist', 'app', 'cli', 'main.js'))).toBe(true);
    expect(existsSync(join(lib, 'app'))).toBe(false);

    const home = join(tempDir, 'home');
    mkdirSync(home);
    const env = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), MCH_SECRET_STORE: 'file' };
    const profile = join(home, 'profile');
    const mch = (args: string[], input?: string): ReturnType<typeof runProcess> =>
      runProcess(command, ['--profile', profile, ...args], { env, input, timeoutMs: 60_000 });

    const help = await runProcess(command, ['--help'], { env });
    expectExit(help, 0);
    expect(help.stdout).toContain('Usage: mch-sync');

    const login = await mch(
      ['login', '--config-url', device.running.urls.config, '--username', 'alice', '--password-stdin'],
      'alice-password\n',
    );
    expectExit(login, 0);

    const folder = join(home, 'Installed');
    mkdirSync(folder);
    writeFileSync(join(folder, 'from the installed command.txt'), 'compiled\n');
    const pass = await mch(['run', '--once', '--folder', folder, '--remote-folder', '/Installed']);
    expectExit(pass, 0);
    const status = await mch(['status', '--folder', folder, '--json']);
    expectExit(status, 0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      remoteFolder: '/Installed',
      itemsSynced: 1,
      issues: [],
    });

    // The checkout's own command, as a second computer, finds the file on the device.
    const second = join(home, 'second profile');
    const checkout = (args: string[], input?: string): ReturnType<typeof runMchSync> =>
      runMchSync(['--profile', second, ...args], { env, input, timeoutMs: 60_000 });
    expectExit(
      await checkout(
        ['login', '--config-url', device.running.urls.config, '--username', 'alice', '--password-stdin'],
        'alice-password\n',
      ),
      0,
    );
    const copy = join(home, 'Copy');
    mkdirSync(copy);
    const down = await checkout(['run', '--once', '--folder', copy, '--remote-folder', '/Installed']);
    expectExit(down, 0);
    expect(readFileSync(join(copy, 'from the installed command.txt'), 'utf8')).toBe('compiled\n');

    // The file managers' entries run the installed command (its Node and its bin), not the checkout.
    const integrate = await mch(['integrate', '--install']);
    expectExit(integrate, 0);
    const menus = join(home, 'data', 'kio', 'servicemenus');
    const [menu] = readdirSync(menus).filter((name) => name.startsWith('mch-sync-share'));
    const action = readFileSync(join(menus, menu ?? 'missing'), 'utf8');
    // The prefix's quotes are escaped in the Exec line; what follows them is not.
    expect(action).toContain(join('lib', 'mch-sync', 'bin', 'mch-sync.js'));
    expect(action).toContain(join('lib', 'mch-sync', 'node'));
    expect(action).not.toContain(ROOT);

    const removed = installCli(['--prefix', prefix, '--remove']);
    expect(removed.code).toBe(0);
    expect(existsSync(command)).toBe(false);
    expect(existsSync(lib)).toBe(false);
  });
});
