// The real app under Playwright's _electron (run by `npm run test:electron`, not by `npm test`): the tray model of a synced pair, the window showing it, and a share from a second start with --share landing on the clipboard.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { _electron, type ElectronApplication, type Page } from 'playwright';
import { startTestDevice, type TestDevice } from '../helpers/device.ts';
import { waitFor } from '../helpers/live-pair.ts';
import { runMchSync } from '../helpers/mch-sync.ts';
import { signedInProfile, type SignedInProfile } from '../helpers/signed-in-profile.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const ELECTRON = process.env['MCH_ELECTRON'];

interface TrayShown {
  icon: string;
  tooltip: string;
  menu: string[];
}

if (ELECTRON === undefined) {
  console.log('app-e2e: NOT RUN: MCH_ELECTRON names no Electron binary (use `npm run test:electron`).');
} else {
  const electronPath = ELECTRON;
  let device: TestDevice;
  let profile: SignedInProfile;
  let folder: string;
  let app: ElectronApplication;
  let window: Page;

  const env = (): Record<string, string> => {
    const merged: Record<string, string> = {};
    for (const [key, value] of Object.entries({ ...profile.env, MCH_E2E_HOOKS: '1' })) {
      if (value !== undefined) merged[key] = value;
    }
    return merged;
  };
  const trayShown = (): Promise<TrayShown> =>
    app.evaluate(() => (globalThis as unknown as { mchTray: { shown: TrayShown } }).mchTray.shown);

  void describe('the desktop app', () => {
    before(async () => {
      device = await startTestDevice();
      profile = await signedInProfile(device, 'mch-electron-app-');
      folder = join(profile.home, 'Papers');
      mkdirSync(folder);
      writeFileSync(join(folder, 'report.txt'), 'the report\n');
      const added = await runMchSync(
        ['--profile', profile.profile, 'folders', 'add', '--folder', folder, '--remote-folder', '/Papers'],
        { env: profile.env },
      );
      assert.equal(added.code, 0, added.stderr);
      app = await _electron.launch({
        executablePath: electronPath,
        args: [ROOT, '--profile', profile.profile],
        env: env(),
        cwd: ROOT,
      });
      window = await app.firstWindow();
    });

    after(async () => {
      await app?.close();
      await device?.stop();
      profile?.remove();
    });

    void it('shows the pair up to date in the window, from the app origin', async () => {
      await window.getByText('Up to date').first().waitFor({ timeout: 60_000 });
      assert.match(window.url(), /^mch-app:\/\/ui\//);
    });

    void it('has the tray say so: icon, tooltip and the folder in the menu', async () => {
      const shown = await waitFor('the tray up to date', async () => {
        const now = await trayShown();
        return now.icon === 'tray-up-to-date' && now.menu.length > 0 ? now : undefined;
      });
      assert.match(shown.tooltip, /up to date/i);
      assert.ok(
        shown.menu.some((label) => label.includes('Papers')),
        shown.menu.join(' | '),
      );
    });

    void it('makes the link of a second start with --share and puts it on the clipboard', async () => {
      const second = spawn(
        electronPath,
        [ROOT, '--profile', profile.profile, '--share', join(folder, 'report.txt')],
        {
          env: env(),
          stdio: 'ignore',
        },
      );
      const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
      assert.equal(code, 0, 'the second start hands over and ends');
      const link = await waitFor('the link on the clipboard', async () => {
        const text = await app.evaluate(({ clipboard }) => clipboard.readText());
        return /\/s\/\S+/.test(text) ? text : undefined;
      });
      const page = await fetch(link);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /report\.txt/);
    });

    void it('keeps running when the window closes', async () => {
      await window.close({ runBeforeUnload: false });
      assert.equal(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length), 1);
    });
  });
}
