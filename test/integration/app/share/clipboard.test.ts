// `mch-sync share --copy --notify` on a real X display: the link on the clipboard (read back with xclip),
// and the notification it asks for (notify-send replaced by a recorder: no notification daemon runs here).
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { runMchSync, runProcess, type CliRun } from '../../../helpers/mch-sync.ts';
import { signedInProfile, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { hasXvfb, startXvfb, type TestDisplay } from '../../../helpers/xvfb.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';

const canRun = hasXvfb() && process.platform === 'linux';

let device: TestDevice;
let profile: SignedInProfile;
let display: TestDisplay;
let folder: string;
let tools: string;
let notices: string;

function mch(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], {
    env: { ...profile.env, PATH: `${tools}:${process.env['PATH'] ?? ''}`, ...env },
    timeoutMs: 60_000,
  });
}

/**
 * What the clipboard holds. `xclip -in` returns once it has read the text and leaves a forked child to
 * take the selection and serve it, so right after the command the clipboard may still have no owner
 * (seen under load as "target STRING not available"): ask until it has one.
 */
async function clipboard(): Promise<string> {
  const read = await waitFor(
    'a clipboard owner',
    async () => {
      const attempt = await runProcess('xclip', ['-o', '-selection', 'clipboard'], {
        env: { ...process.env, DISPLAY: display.display },
      });
      return attempt.code === 0 ? attempt : undefined;
    },
    10_000,
  );
  return read.stdout;
}

/** Each notify-send call the recorder saw, as its argument list. */
function notifications(): string[][] {
  let text: string;
  try {
    text = readFileSync(notices, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as string[]);
}

beforeAll(async () => {
  if (!canRun) return;
  device = await startTestDevice();
  profile = await signedInProfile(device, 'mch-share-copy-');
  display = await startXvfb();
  folder = join(profile.home, 'Docs');
  mkdirSync(folder);
  writeFileSync(join(folder, 'plan.txt'), 'the plan\n');
  tools = join(profile.home, 'tools');
  mkdirSync(tools);
  notices = join(profile.home, 'notices.jsonl');
  writeFileSync(
    join(tools, 'notify-send'),
    `#!/usr/bin/env node\nrequire('node:fs').appendFileSync(${JSON.stringify(notices)}, JSON.stringify(process.argv.slice(2)) + '\\n');\n`,
  );
  chmodSync(join(tools, 'notify-send'), 0o755);
  const run = await mch(['run', '--folder', folder, '--once']);
  expectExit(run, 0);
}, 60_000);

afterAll(async () => {
  await display?.stop();
  await device?.stop();
  profile?.remove();
});

describe.skipIf(!canRun)('share --copy --notify', () => {
  it('puts a working link on the clipboard and says so in a notification', async () => {
    const run = await mch(['share', '--copy', '--notify', join(folder, 'plan.txt')], {
      DISPLAY: display.display,
    });
    expectExit(run, 0);
    const url = run.stdout.trim();
    expect(run.stderr).toBe('mch-sync: the link of "plan.txt" is on the clipboard.\n');
    expect(await clipboard()).toBe(url);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('plan.txt');
    expect(notifications().at(-1)).toEqual([
      '--app-name=mch-sync',
      '--icon=emblem-shared',
      '--',
      'Share link copied',
      'Anyone with the link can open "plan.txt".',
    ]);
  });

  it('says in a notification why a share failed', async () => {
    writeFileSync(join(profile.home, 'outside.txt'), 'x');
    const run = await mch(['share', '--copy', '--notify', join(profile.home, 'outside.txt')], {
      DISPLAY: display.display,
    });
    expect(run.code).toBe(1);
    const last = notifications().at(-1) ?? [];
    expect(last[3]).toBe('Could not make a share link');
    expect(last[4]).toContain('is not in a synced folder');
  });

  it('prints the link and fails clearly where there is no clipboard', async () => {
    const run = await mch(['share', '--copy', join(folder, 'plan.txt')], {
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^http:\/\/\S+\n$/);
    expect(run.stderr).toContain('There is no graphical session here');
  });
});
