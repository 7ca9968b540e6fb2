// Tokens in the keychain: never in a profile file; and the real Secret Service, through a fresh gnome-keyring.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import { KEYCHAIN_SERVICE } from '../../../../app/auth/secrets/keychain-store.ts';
import type { CliDependencies } from '../../../../app/cli/terminal/cli-context.ts';
import { runCli } from '../../../../app/cli/main.ts';
import {
  cliEnv,
  MCH_SYNC_BIN,
  MemoryKeychain,
  readAllFiles,
  ROOT,
  runProcess,
} from '../../../helpers/mch-sync.ts';

const folders: string[] = [];

test.override({ deviceOptions: { tokenTtlSeconds: 2 } });

afterAll(async () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mch-sync-keychain-'));
  folders.push(dir);
  return dir;
}

interface StoredSecret {
  accessToken: string;
  refreshToken: string;
}

/** Fails naming the file when any of `secrets` appears in any file under `dir`. */
function expectNoSecretIn(dir: string, secrets: readonly string[]): void {
  const files = readAllFiles(dir);
  expect(files.map((file) => file.path)).toContain(join(dir, 'settings.json'));
  const leaks = files.flatMap((file) =>
    secrets.filter((secret) => file.text.includes(secret)).map(() => file.path),
  );
  expect(leaks).toEqual([]);
}

function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('with a keychain', () => {
  it('keeps the tokens only in the keychain: no profile file holds one', async ({ device }) => {
    const profile = newFolder();
    const keychain = new MemoryKeychain();
    const run = async (args: string[], input = '') => {
      let stdout = '';
      let stderr = '';
      const deps: CliDependencies = {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        stdin: Readable.from([input]),
        env: {},
        keychain,
        openBrowser: () => Promise.reject(new Error('no browser in this test')),
      };
      return { code: await runCli(['--profile', profile, ...args], deps), stdout, stderr };
    };
    const login = await run(
      ['login', '--config-url', device.running.urls.config, '--username', 'alice', '--password-stdin'],
      'alice-password',
    );
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`Tokens are kept in the system keychain (service ${KEYCHAIN_SERVICE}).`);
    // The probe's throwaway entry is gone; the sign-in's entry is named by user and profile.
    const entries = [...keychain.entries.entries()];
    expect(entries.map(([key]) => key)).toEqual([
      `${KEYCHAIN_SERVICE}\n${device.running.context.users.byName('alice')?.id} ${profile}`,
    ]);
    const stored = JSON.parse(entries[0]?.[1] ?? '') as StoredSecret;
    expectNoSecretIn(profile, [stored.accessToken, stored.refreshToken]);

    const whoami = await run(['whoami', '--json']);
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({
      user: { name: 'alice' },
      secretStore: { kind: 'keychain' },
    });

    const logout = await run(['logout']);
    expect(logout.code).toBe(0);
    expect(keychain.entries.size).toBe(0);
  });

  it('says clearly when the keychain that holds the tokens cannot be reached any more', async ({
    device,
  }) => {
    const profile = newFolder();
    const keychain = new MemoryKeychain();
    const deps = (): CliDependencies => ({
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
      stdin: Readable.from(['alice-password']),
      env: {},
      keychain,
      openBrowser: () => Promise.reject(new Error('no browser in this test')),
    });
    let stderr = '';
    const args = ['--profile', profile, 'login', '--config-url', device.running.urls.config];
    expect(await runCli([...args, '--username', 'alice', '--password-stdin'], deps())).toBe(0);
    keychain.failure = 'Cannot autolaunch D-Bus without X11 $DISPLAY';
    expect(await runCli(['--profile', profile, 'whoami'], deps())).toBe(1);
    expect(stderr).toBe(
      "mch-sync: The system keychain holds this profile's tokens but cannot be reached now (Cannot autolaunch D-Bus " +
        'without X11 $DISPLAY): start or unlock it (on Linux: a Secret Service such as gnome-keyring on the session ' +
        'D-Bus) and try again, or run `mch-sync login` again to keep the tokens in a file instead.\n',
    );
  });

  const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((command) => !hasCommand(command));
  if (missing.length > 0) {
    it.skip(`uses the real Secret Service (skipped: ${missing.join(' and ')} missing; install the Debian packages dbus-daemon and gnome-keyring)`, () =>
      undefined);
    return;
  }

  it('uses the real Secret Service: login, whoami after a refresh, logout, with no token in the profile', async ({
    device,
  }) => {
    const work = newFolder();
    const profile = join(work, 'profile');
    const snapshot = join(work, 'snapshot');
    const node = JSON.stringify(process.execPath);
    const cli = `${node} ${JSON.stringify(MCH_SYNC_BIN)} --profile ${JSON.stringify(profile)}`;
    // Everything that needs the keyring runs in one D-Bus session: the keyring lives as long as it.
    const dump = `${node} --input-type=module -e "import { findCredentialsAsync } from '@napi-rs/keyring'; console.log('KEYCHAIN ' + JSON.stringify(await findCredentialsAsync('${KEYCHAIN_SERVICE}')))"`;
    const script = [
      'set -e',
      `printf %s alice-password | ${cli} login --config-url ${device.running.urls.config} --username alice --password-stdin`,
      dump,
      'sleep 2.5',
      `${cli} whoami --json`,
      dump,
      `cp -r ${JSON.stringify(profile)} ${JSON.stringify(snapshot)}`,
      `${cli} logout`,
      dump,
    ].join('\n');
    const run = await runProcess(
      'dbus-run-session',
      ['--', 'bash', join(ROOT, 'test', 'helpers', 'with-keyring.sh'), 'bash', '-c', script],
      // No MCH_SECRET_STORE: the keychain must be chosen because it works, not because it was forced.
      { env: cliEnv({ MCH_SECRET_STORE: '', MCH_KEYRING_DIR: join(work, 'keyring') }), timeoutMs: 60_000 },
    );
    expect(run.stderr).not.toContain('warning');
    expect(run.code).toBe(0);
    const dumps = [...run.stdout.matchAll(/^KEYCHAIN (.*)$/gm)].map(
      (match) => JSON.parse(match[1] ?? '') as Array<{ account: string; password: string }>,
    );
    expect(dumps).toHaveLength(3);
    const [afterLogin, afterWhoami, afterLogout] = dumps as [
      (typeof dumps)[0],
      (typeof dumps)[0],
      (typeof dumps)[0],
    ];
    expect(afterLogin.map((entry) => entry.account)).toEqual([
      `${device.running.context.users.byName('alice')?.id} ${profile}`,
    ]);
    const first = JSON.parse(afterLogin[0]?.password ?? '') as StoredSecret;
    const second = JSON.parse(afterWhoami[0]?.password ?? '') as StoredSecret;
    // whoami outlived the two-second token: the refreshed one went back into the keychain.
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).toBe(first.refreshToken);
    expect(run.stdout).toContain('"kind": "keychain"');
    expect(afterLogout).toEqual([]);
    expectNoSecretIn(snapshot, [first.accessToken, second.accessToken, first.refreshToken]);
  });
});
