// The mch-sync command line: help, usage errors with exit code 2, and where the profile is taken from.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliDependencies } from '../../../../app/cli/terminal/cli-context.ts';
import { runCli } from '../../../../app/cli/main.ts';

async function run(args: string[], env: NodeJS.ProcessEnv = {}, input = '') {
  let stdout = '';
  let stderr = '';
  const deps: CliDependencies = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from([input]),
    env,
    openBrowser: () => Promise.reject(new Error('no browser in unit tests')),
  };
  const code = await runCli(args, deps);
  return { code, stdout, stderr };
}

describe('mch-sync help', () => {
  it('prints the overview for --help and a command help for `<command> --help`', async () => {
    const overview = await run(['--help']);
    expect(overview.code).toBe(0);
    expect(overview.stdout).toContain('Usage: mch-sync [--profile DIR] <command> [options]');
    expect(overview.stdout).toContain(
      'Exit codes: 0 done, 1 failed (run: some items were not synced), 2 usage error.',
    );
    const login = await run(['login', '--help']);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('--password-stdin');
    expect((await run(['-h', 'whoami'])).stdout).toContain('Usage: mch-sync [--profile DIR] whoami [--json]');
  });
});

describe('stderr', () => {
  it('never carries a control character of a name: an error naming a hostile folder stays inert', async () => {
    const result = await run(['--profile', '/nonexistent-profile', 'status', '--folder', '/tmp/x\u001b[2Jy']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/tmp/x\\u001b[2Jy');
    expect(result.stderr).not.toContain('\u001b');
  });
});

describe('usage errors exit with 2 and show the usage', () => {
  it('for --profile without a folder', async () => {
    const result = await run(['--profile']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("mch-sync: Option '--profile <value>' argument missing");
  });

  it.each([
    [['--verbose', 'whoami'], "Unknown option '--verbose'"],
    [['whoami', 'alice'], 'Unexpected argument "alice".'],
    [['devices', '--json=yes'], "Option '--json' does not take an argument"],
    [
      ['login', '--password-stdin', '--config-url', 'https://c'],
      '--password-stdin goes with --username NAME.',
    ],
    [
      ['login', '--username', 'a', '--password-stdin', '--no-browser', '--config-url', 'https://c'],
      '--no-browser is for browser sign-in',
    ],
    [['login', '--config-url', 'ftp://c'], '--config-url must be an http or https URL, got "ftp://c".'],
    [
      ['login', '--username', 'a', '--password-stdin', '--config-url', 'https://c'],
      'stdin was empty: pipe the password in',
    ],
  ])('for %j', async (args, message) => {
    const result = await run(['--profile', '/nonexistent/mch-sync-unit', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`mch-sync: ${message}`);
    expect(result.stderr).toContain('Usage: mch-sync');
  });
});

describe('the profile folder', () => {
  it('comes from --profile before or after the command, else from MCH_PROFILE', async () => {
    const before = await run(['--profile', '/nonexistent/a', 'whoami']);
    expect(before.stderr).toContain('Not signed in (profile /nonexistent/a)');
    const after = await run(['logout', '--profile', '/nonexistent/b']);
    expect(after.stdout).toContain('Not signed in (profile /nonexistent/b): nothing to do.');
    const fromEnv = await run(['whoami'], { MCH_PROFILE: '/nonexistent/c' });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toBe(
      'mch-sync: Not signed in (profile /nonexistent/c): run `mch-sync login --config-url URL`.\n',
    );
  });
});
