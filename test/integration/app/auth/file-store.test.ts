// Where login keeps the tokens when there is no keychain: secrets.json, mode 0600, with a warning.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { runCli } from '../../../../app/cli/main.ts';
import type { CliDependencies } from '../../../../app/cli/terminal/cli-context.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import { MemoryKeychain, runMchSync } from '../../../helpers/mch-sync.ts';

const folders: string[] = [];

afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newProfile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mch-sync-file-store-'));
  folders.push(dir);
  return dir;
}

/** Runs the command in this process with the given keychain and environment. */
async function runInProcess(
  args: string[],
  keychain: MemoryKeychain,
  env: NodeJS.ProcessEnv = {},
  input = '',
) {
  let stdout = '';
  let stderr = '';
  const deps: CliDependencies = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from([input]),
    env,
    keychain,
    openBrowser: () => Promise.reject(new Error('no browser in this test')),
  };
  const code = await runCli(args, deps);
  return { code, stdout, stderr };
}

function passwordLogin(device: TestDevice, profile: string): string[] {
  return [
    '--profile',
    profile,
    'login',
    '--config-url',
    device.running.urls.config,
    '--username',
    'alice',
    '--password-stdin',
  ];
}

describe('the file secret store', () => {
  it('is used with MCH_SECRET_STORE=file, with mode 0600 and a warning that it is not encrypted', async ({
    device,
  }) => {
    const profile = newProfile();
    const run = await runMchSync(passwordLogin(device, profile), { input: 'alice-password' });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^mch-sync: warning: tokens will be kept in .*secrets\.json because MCH_SECRET_STORE=file: the file is readable only by you \(mode 0600\) but not encrypted/,
    );
    expect(run.stdout).toContain(`Tokens are kept in ${join(profile, 'secrets.json')}.`);
    expect(statSync(join(profile, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(statSync(profile).mode & 0o777).toBe(0o700);
    const secrets = readFileSync(join(profile, 'secrets.json'), 'utf8');
    expect(secrets).toContain('accessToken');
    // The warning is for the moment the choice is made, not for every command after it.
    const whoami = await runMchSync(['--profile', profile, 'whoami']);
    expect(whoami.code).toBe(0);
    expect(whoami.stderr).toBe('');
  });

  it('puts the mode back to 0600 when something widened it, and says so', async ({ device }) => {
    const profile = newProfile();
    expect((await runMchSync(passwordLogin(device, profile), { input: 'alice-password' })).code).toBe(0);
    chmodSync(join(profile, 'secrets.json'), 0o644);
    const run = await runMchSync(['--profile', profile, 'whoami']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('was readable by others (mode 0644); it is 0600 again');
    expect(statSync(join(profile, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('is the fallback when no keychain works, with a warning that names the reason', async ({ device }) => {
    const profile = newProfile();
    const keychain = new MemoryKeychain();
    keychain.failure = 'The name org.freedesktop.secrets was not provided by any .service files';
    const run = await runInProcess(passwordLogin(device, profile), keychain, {}, 'alice-password');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'mch-sync: warning: no system keychain works here (The name org.freedesktop.secrets was not provided by any .service files), so tokens will be kept in',
    );
    expect(statSync(join(profile, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('is not used when MCH_SECRET_STORE=keychain asks for a keychain that does not work', async ({
    device,
  }) => {
    const profile = newProfile();
    const keychain = new MemoryKeychain();
    keychain.failure = 'no D-Bus session';
    const run = await runInProcess(
      passwordLogin(device, profile),
      keychain,
      { MCH_SECRET_STORE: 'keychain' },
      'alice-password',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mch-sync: The system keychain does not work here \(no D-Bus session\), and MCH_SECRET_STORE=keychain asks for it: start or unlock it/,
    );
    expect(() => statSync(join(profile, 'secrets.json'))).toThrow();
  });
});
