// The whole right-click path on Linux: `mch-sync integrate --install`, the installed nautilus-python extension
// loaded against Nautilus 4.0's introspection data, its "Copy share link" activated on `report 2024 "final".pdf`,
// the real `mch-sync share --copy --notify` it starts, and the link read back from the X clipboard and opened.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevice, type TestDevice } from '../helpers/device.ts';
import { runMchSync, runProcess } from '../helpers/mch-sync.ts';
import { HELPER_DIR, missingGi, SYSTEM_PYTHON } from '../helpers/python-gi.ts';
import { signedInProfile, type SignedInProfile } from '../helpers/signed-in-profile.ts';
import { hasXvfb, startXvfb, type TestDisplay } from '../helpers/xvfb.ts';
import { expectExit } from '../helpers/expect-cli.ts';

const NAME = 'report 2024 "final".pdf';
const skipReason =
  missingGi({ nautilus: true }) ?? (hasXvfb() ? undefined : 'Xvfb is not installed (Debian package xvfb)');

let device: TestDevice;
let profile: SignedInProfile;
let display: TestDisplay;
let folder: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  if (skipReason !== undefined) return;
  device = await startTestDevice();
  profile = await signedInProfile(device, 'mch-nautilus-link-');
  display = await startXvfb();
  env = { ...profile.env, DISPLAY: display.display, XDG_CONFIG_HOME: join(profile.home, '.config') };
  folder = join(profile.home, 'Reports');
  mkdirSync(folder);
  writeFileSync(join(folder, NAME), '%PDF-1.4 the final report\n');
  const run = await runMchSync(['--profile', profile.profile, 'run', '--folder', folder, '--once'], { env });
  expectExit(run, 0);
  const install = await runMchSync(['--profile', profile.profile, 'integrate', '--install'], { env });
  expectExit(install, 0);
}, 90_000);

afterAll(async () => {
  await display?.stop();
  await device?.stop();
  profile?.remove();
});

async function clipboardUrl(): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const read = await runProcess('xclip', ['-o', '-selection', 'clipboard'], { env });
    if (read.code === 0 && /^https?:\/\//.test(read.stdout)) return read.stdout;
    if (Date.now() > deadline) throw new Error(`no link on the clipboard: ${read.stdout} ${read.stderr}`);
    await sleep(100);
  }
}

describe.skipIf(skipReason !== undefined)(`Copy share link from Nautilus (${skipReason ?? 'runs'})`, () => {
  it('puts a working link of the file on the clipboard', async () => {
    const extensions = join(profile.home, '.local', 'share', 'nautilus-python', 'extensions');
    const [extension] = readdirSync(extensions).filter((name) => name.startsWith('mch-sync-share'));
    expect(extension).toBeDefined();
    const file = { path: join(folder, NAME) };
    const requests = [{ items: [file] }, { activate_only: [file] }].map((r) => JSON.stringify(r)).join('\n');
    const harness = spawnSync(
      SYSTEM_PYTHON,
      [join(HELPER_DIR, 'nautilus-harness.py'), join(extensions, extension ?? '')],
      {
        env,
        input: `${requests}\n`,
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(harness.status, harness.stderr).toBe(0);
    const [menu, activated] = harness.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(menu).toMatchObject({ items: [{ label: 'Copy share link' }] });
    expect(activated).toEqual({ activated: true });
    const url = await clipboardUrl();
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = (await page.text()).replaceAll('&#34;', '"');
    expect(html).toContain(`<td class="name">${NAME}</td>`);
  }, 90_000);
});
