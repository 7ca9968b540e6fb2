// What mch-sync prints is safe and ends well: names with escapes or newlines stay inert, a closed pipe ends quietly, --port 0, --folder F alone.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { TestDevice } from '../../../helpers/device.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import { MCH_SYNC_BIN, runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';

/** Clears the screen, then prints a fake green line: what a hostile name on the device could hold. */
const ESCAPES = 'evil\u001b[2J\u001b[32mSynced: all fine\u001b[0m.txt';
const ESCAPES_SHOWN = 'evil\\u001b[2J\\u001b[32mSynced: all fine\\u001b[0m.txt';
const NEWLINE = 'two\nlines.txt';
const NEWLINE_SHOWN = 'two\\u000alines.txt';

/** Any control character but the line breaks of the output itself. */
// eslint-disable-next-line no-control-regex -- control characters are what must not be printed
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function mch(profile: SignedInProfile, args: readonly string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 60_000 });
}

function localFolder(profile: SignedInProfile, name: string): string {
  const folder = join(profile.home, name);
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** Makes `/<folder>` on the device with files of hostile names, as another client could. */
async function hostileRemoteFolder(device: TestDevice, folder: string): Promise<void> {
  const api = clientFor(device).device;
  const made = await api.createFolder({ parentId: 'root', name: folder });
  for (const name of [ESCAPES, NEWLINE]) {
    await api.create({ parentId: made.id, name, content: Buffer.from(name) });
  }
}

/** Runs mch-sync with its standard output closed before it writes anything (`mch-sync ... | true`). */
function runWithClosedOutput(
  profile: SignedInProfile,
  args: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile.profile, ...args], {
      env: profile.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mch-sync ${args.join(' ')} did not end with its output closed:\n${stderr}`));
    }, 30_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('names from the device on the terminal', () => {
  it('are shown escaped in the summary, status and --json: nothing drives the terminal, no line splits', async ({
    device,
    profile,
  }) => {
    const folder = localFolder(profile, 'Hostile');
    await hostileRemoteFolder(device, 'Hostile');
    const first = await mch(profile, ['run', '--folder', folder, '--once', '--verbose']);
    expect(first.code).toBe(0);
    expect(`${first.stdout}${first.stderr}`).not.toMatch(RAW_CONTROL);
    // Now on disk, the scan warns about the names: the summary names them.
    const result = await mch(profile, ['run', '--folder', folder, '--once', '--verbose']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stdout).toContain(`  ${ESCAPES_SHOWN}: the name contains a character Windows`);
    expect(result.stdout).toContain(`  ${NEWLINE_SHOWN}: the name contains a character Windows`);

    const status = await mch(profile, ['status', '--folder', folder]);
    expect(status.code).toBe(0);
    expect(status.stdout).not.toMatch(RAW_CONTROL);
    expect(status.stdout).toContain(`  warning:     ${ESCAPES_SHOWN}: `);

    // JSON stays JSON with the names as they are.
    const json = await mch(profile, ['run', '--folder', folder, '--once', '--json']);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    const paths = (JSON.parse(json.stdout) as { issues: Array<{ path: string }> }).issues.map((i) => i.path);
    expect(paths.sort()).toEqual([ESCAPES, NEWLINE].sort());
  });

  it('are shown escaped in the lines of a live run and of shares', async ({ device, profile }) => {
    const folder = localFolder(profile, 'HostileLive');
    await hostileRemoteFolder(device, 'HostileLive');
    const child = spawn(
      process.execPath,
      [MCH_SYNC_BIN, '--profile', profile.profile, 'run', '--folder', folder],
      {
        env: profile.env,
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (!(output.includes(ESCAPES_SHOWN) && output.includes(NEWLINE_SHOWN)) && Date.now() < deadline) {
      await sleep(50);
    }
    const stopped = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    expect(await stopped).toBe(0);
    expect(output).toMatch(new RegExp(`Z downloaded ${ESCAPES_SHOWN.replaceAll(/[\\[\]]/g, '\\$&')}$`, 'm'));
    expect(output).toContain(`downloaded ${NEWLINE_SHOWN}\n`);
    expect(output).not.toMatch(RAW_CONTROL);

    const shared = await mch(profile, ['share', join(folder, ESCAPES)]);
    expect(shared.code).toBe(0);
    const shares = await mch(profile, ['shares']);
    expect(shares.code).toBe(0);
    expect(shares.stdout).toContain(`  ${join(folder, ESCAPES_SHOWN)}\n`);
    expect(shares.stdout).not.toMatch(RAW_CONTROL);
  });
});

describe('a closed standard output', () => {
  it('ends the command quietly: no EPIPE, no stack trace, the command’s own exit code', async ({
    profile,
  }) => {
    const folder = localFolder(profile, 'Piped');
    for (let i = 0; i < 40; i += 1) writeFileSync(join(folder, `.~lock.${i}#`), 'lock');
    expect((await mch(profile, ['run', '--folder', folder, '--once'])).code).toBe(0);
    for (const args of [['--help'], ['run', '--folder', folder, '--once'], ['status', '--folder', folder]]) {
      const result = await runWithClosedOutput(profile, args);
      expect({ args, ...result }).toEqual({ args, code: 0, stderr: '' });
    }
  });
});

describe('--port 0 and --folder alone', () => {
  it('serves the window on any free port with `ui --port 0`, and refuses a port past 65535', async ({
    profile,
  }) => {
    const child = spawn(
      process.execPath,
      [MCH_SYNC_BIN, '--profile', profile.profile, 'ui', '--port', '0', '--no-open'],
      { env: profile.env },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    while (!output.includes('The window is at') && Date.now() < deadline) await sleep(50);
    const stopped = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    expect(await stopped).toBe(0);
    expect(output).toMatch(/The window is at http:\/\/127\.0\.0\.1:[1-9]\d*\//);

    const refused = await mch(profile, ['ui', '--port', '65536', '--no-open']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--port takes a number from 0 to 65535 (0: any free port).');
  });

  it('runs the recorded pair of `--folder F`, whatever its device folder is called', async ({ profile }) => {
    const folder = localFolder(profile, 'Paired');
    writeFileSync(join(folder, 'a.txt'), 'a');
    expect(
      (await mch(profile, ['run', '--folder', folder, '--remote-folder', '/Elsewhere', '--once'])).code,
    ).toBe(0);
    const again = await mch(profile, ['run', '--folder', folder, '--once']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`Nothing to do: ${folder} and /Elsewhere on the device already match.\n`);
  });
});

describe('names of folders and devices', () => {
  it('shows a device name holding a newline and an escape sequence on one inert line: devices, whoami', async ({
    device,
    profile,
  }) => {
    const record = device.running.context.device;
    const before = record.name;
    record.name = 'Home\n\u001b[2JCloud';
    try {
      const devices = await mch(profile, ['devices']);
      expectExit(devices, 0);
      expect(devices.stdout).toMatch(/^\* Home\\u000a\\u001b\[2JCloud {2}/m);
      expect(devices.stdout).not.toMatch(RAW_CONTROL);
      // `devices` keeps the name it saw; whoami shows it.
      const whoami = await mch(profile, ['whoami']);
      expectExit(whoami, 0);
      expect(whoami.stdout).toMatch(/^device: +Home\\u000a\\u001b\[2JCloud \(/m);
      expect(whoami.stdout).not.toMatch(RAW_CONTROL);
    } finally {
      record.name = before;
      await mch(profile, ['devices']);
    }
  });

  it('shows a folder name holding them inert in folders add and list, and in the label of a live run', async ({
    profile,
  }) => {
    const folder = localFolder(profile, 'Odd\u001b[2J\nname');
    const shown = join(profile.home, 'Odd\\u001b[2J\\u000aname');
    const added = await mch(profile, ['folders', 'add', '--folder', folder, '--remote-folder', '/Odd']);
    expectExit(added, 0);
    expect(added.stdout).toBe(`${shown} is paired with /Odd; \`mch-sync run\` syncs it.\n`);
    const list = await mch(profile, ['folders', 'list']);
    expect(list.stdout).toContain(`${shown}  ↔  /Odd\n`);
    expect(list.stdout).not.toMatch(RAW_CONTROL);

    // Without --folder, every pair runs live, each line labelled with its folder's name.
    const child = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile.profile, 'run'], {
      env: profile.env,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const label = '[Odd\\u001b[2J\\u000aname] ';
    const deadline = Date.now() + 30_000;
    while (!output.includes(label) && Date.now() < deadline) await sleep(50);
    const stopped = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    expect(await stopped).toBe(0);
    expect(output.split('\n').some((line) => line.startsWith(label))).toBe(true);
    expect(output).not.toMatch(RAW_CONTROL);
    expect((await mch(profile, ['folders', 'remove', '--folder', folder])).code).toBe(0);
  });
});
