// The window as a new user meets it: `mch-sync ui` (the real core and headless host) in Chromium against
// the real device: sign in, choose the folders, watch it sync, see a new file in Activity, errors in words,
// what survives a restart of the pairs, then stop cleanly.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { it } from '../helpers/fixtures.ts';
import { clientFor } from '../helpers/api-client.ts';
import { startUiHost } from '../helpers/ui-host-process.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';
import { jpegWithExif } from '../helpers/images.ts';
import type { TestDevice } from '../helpers/device.ts';
import { waitFor } from '../helpers/live-pair.ts';
import { cliEnv, MCH_SYNC_BIN, runMchSync } from '../helpers/mch-sync.ts';
import { signedInProfile, type SignedInProfile } from '../helpers/signed-in-profile.ts';
import { expectExit } from '../helpers/expect-cli.ts';

const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'ui-real');

let home: string;
let env: NodeJS.ProcessEnv;
let folder: string;
let ui: ChildProcessWithoutNullStreams;
/** What the host printed (its address line, its `Stopped.`). */
let hostOutput: () => string = () => '';
let browser: TestBrowser;
let page: Page;
const problems: string[] = [];
/** Another profile, and its live run of a folder the window is asked to sync too. */
let other: SignedInProfile | undefined;
let holder: ChildProcessWithoutNullStreams | undefined;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'mch-ui-window-'));
  mkdirSync(join(home, '.local', 'share'), { recursive: true });
  // No graphical session, whatever the machine has: opening a file fails the way it does on a server.
  env = cliEnv({
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    DISPLAY: '',
    WAYLAND_DISPLAY: '',
  });
  folder = join(home, 'Work');
  mkdirSync(folder);
  writeFileSync(join(folder, 'plan.txt'), 'the plan\n');
  // What the client never syncs, and no issue of the user's: Finder's file and an editor's backup.
  writeFileSync(join(folder, '.DS_Store'), 'finder');
  writeFileSync(join(folder, 'plan.txt~'), 'the plan, before\n');
  writeFileSync(
    join(folder, 'harbour.jpg'),
    jpegWithExif({
      width: 640,
      height: 480,
      exif: { make: 'Canon', model: 'Canon EOS R5', dateTimeOriginal: '2024:03:10 09:15:00' },
    }),
  );
  let address: string;
  ({ process: ui, address, output: hostOutput } = await startUiHost(join(home, 'profile'), env));
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(address);
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (ui !== undefined && ui.exitCode === null) ui.kill('SIGKILL');
  if (holder !== undefined && holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
  other?.remove();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

function view(name: string): Promise<void> {
  return page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: new RegExp(name) })
    .click();
}

/** The notifications of earlier steps would cover what a screenshot is for. */
async function dismissNotifications(): Promise<void> {
  const dismiss = page.getByRole('button', { name: /^Dismiss: / });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
}

/** Whether the device's root holds an item of this name. */
async function deviceHas(device: TestDevice, name: string): Promise<boolean> {
  return (await clientFor(device).device.findByName('root', name)) !== undefined;
}

describe('the window of mch-sync ui', () => {
  it('says where a sign-in found nothing, in words, then signs in with the right address', async ({
    device,
  }) => {
    await page.getByLabel('User name').fill('alice');
    await page.getByLabel('Password').fill('alice-password');
    await page.getByText('Advanced').click();
    await page.getByLabel('Configuration URL').fill('http://127.0.0.1:9/config/v1/config');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Could not reach the sign-in service' });
    await refused
      .getByText('Nothing answered at 127.0.0.1:9.', { exact: false })
      .waitFor({ timeout: 30_000 });
    // The connection layer's own words are behind "Details", never in the message.
    expect(await refused.getByText(/ECONNREFUSED|will try again later/).isVisible()).toBe(false);
    await refused.getByText('Details').click();
    await page.setViewportSize({ width: 400, height: 700 });
    await page.screenshot({
      path: join(SHOTS, 'sign-in-unreachable-400.png'),
      fullPage: true,
      animations: 'disabled',
    });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByLabel('Configuration URL').fill(device.running.urls.config);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Choose the folders to keep in sync' }).waitFor();
  });

  it('pairs a local folder with a new device folder, made only once syncing starts, and shows it up to date', async ({
    device,
  }) => {
    await page.getByLabel('Folder on this computer').fill(folder);
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Name of the new folder').fill('Work');
    await page.getByRole('button', { name: 'Use this name' }).click();
    await page.getByText('/Work', { exact: true }).waitFor();
    await page.getByText('(new, made when syncing starts)').waitFor();
    expect(await deviceHas(device, 'Work')).toBe(false);
    await page.getByRole('button', { name: 'Start syncing' }).click();
    await page.getByText('Up to date').first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, 'status.png'), fullPage: true });
    expect(await deviceHas(device, 'Work')).toBe(true);
    const found = await device.fetchAs('alice', '/sdk/v2/filesSearch/text?q=plan');
    expect(JSON.stringify(await found.json())).toContain('"name":"plan.txt"');
  });

  it('keeps system and temporary files out of Issues, counted in Settings', async () => {
    await view('Issues');
    await page.getByText('Every item is synced.').waitFor();
    expect(await page.getByText('.DS_Store').count()).toBe(0);
    await view('Settings');
    await page
      .getByText(/Left out now, on purpose: 0 items matching ignore rules; 2 system or temporary files/)
      .waitFor();
    await view('Status');
    expect(
      await page.getByRole('article', { name: 'Work' }).getByText('Up to date', { exact: true }).count(),
    ).toBe(1);
  });

  it('shows a file dropped into the folder in Activity', async () => {
    writeFileSync(join(folder, 'dropped in.txt'), 'new');
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: /Activity/ })
      .click();
    await page.getByText('dropped in.txt').first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: join(SHOTS, 'activity.png'), fullPage: true });
  });

  it('leaves the status to the command line too, while it runs', async () => {
    const status = await runMchSync(
      ['--profile', join(home, 'profile'), 'status', '--folder', folder, '--json'],
      {
        env,
      },
    );
    expectExit(status, 0);
    expect(JSON.parse(status.stdout)).toMatchObject({ pid: ui.pid });
  });

  it('makes a link for two files from the Shares view that a stranger opens, then revokes it', async () => {
    await view('Shares');
    await page.getByRole('button', { name: 'Choose items' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose what to share' });
    await picker.getByRole('button', { name: `Open ${folder}` }).click();
    await picker.getByLabel('plan.txt', { exact: true }).check();
    await picker.getByLabel('dropped in.txt').check();
    await picker.getByRole('button', { name: 'Share 2 items' }).click();
    const created = page.getByRole('status').filter({ hasText: 'Link ready' });
    const url = (await created.locator('.share-url').innerText()).trim();
    await page.screenshot({ path: join(SHOTS, 'shares.png'), fullPage: true });
    // Someone without an account, in a browser of their own.
    const stranger = await launchBrowser();
    try {
      const their = await stranger.context.newPage();
      await their.goto(url);
      const names = await their.locator('tbody td.name').allInnerTexts();
      expect(names.sort()).toEqual(['dropped in.txt', 'plan.txt']);
      const [download] = await Promise.all([
        their.waitForEvent('download'),
        their.getByRole('link', { name: 'Download plan.txt' }).click(),
      ]);
      expect(readFileSync(await download.path(), 'utf8')).toBe('the plan\n');
    } finally {
      await stranger.close();
    }
    await page.getByRole('listitem').filter({ hasText: url }).getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this link?' });
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await fetch(url)).status).toBe(404);
  });

  it('finds a photo by its camera make, the match marked', async () => {
    await view('Search');
    await page.getByLabel('Search the device').fill('canon');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('harbour.jpg').first().waitFor();
    await page
      .locator('mark', { hasText: /^Canon$/ })
      .first()
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'search.png'), fullPage: true });
  });

  it('pauses and resumes from the status, and shows a conflict with both copies', async ({ device }) => {
    await view('Status');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    writeFileSync(join(folder, 'plan.txt'), 'changed here\n');
    const found = (await (await device.fetchAs('alice', '/sdk/v2/filesSearch/text?q=plan.txt')).json()) as {
      matches: Array<{ file: { id: string } }>;
    };
    const put = await device.fetchAs('alice', `/sdk/v2/files/${found.matches[0]?.file.id ?? ''}/content`, {
      method: 'PUT',
      body: 'changed on the device\n',
    });
    expect(put.status).toBe(204);
    // Resuming runs a full pass at once: "Sync now" has nothing to add meanwhile.
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await view('Issues');
    await page.getByText('Conflict', { exact: true }).first().waitFor({ timeout: 30_000 });
    // Both sides side by side, with the three answers (test/e2e/versions-window.test.ts settles them).
    await page.getByRole('button', { name: 'Keep the device’s' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'issues-conflict.png'), fullPage: true });
    // The card does not say "Up to date" alone beside a conflict.
    await view('Status');
    await page
      .getByRole('article', { name: 'Work' })
      .getByText('Up to date · 1 conflict')
      .waitFor({ timeout: 30_000 });
    await dismissNotifications();
    await page.screenshot({ path: join(SHOTS, 'status-conflict.png'), fullPage: true });
  });

  it('keeps Activity and the conflict when a setting is saved and the window reloaded', async () => {
    await view('Settings');
    const poll = page.getByLabel('Ask the device for changes every (seconds)');
    await poll.fill('5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Interval not saved' });
    await refused.getByText('Ask the device every 10 to 3,600 seconds (an hour)', { exact: false }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'poll-refused.png'), fullPage: true, animations: 'disabled' });
    await poll.fill('20');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await refused.waitFor({ state: 'detached' });
    // Saving it restarted every pair: what the window was told before is still there, even reloaded.
    await page.reload();
    await view('Activity');
    await page.getByText('dropped in.txt').first().waitFor();
    await view('Issues');
    await page.getByText('Conflict', { exact: true }).first().waitFor();
  });

  it('lets a settled conflict leave Issues as soon as its pass has seen it', async () => {
    const copy = readdirSync(folder).find((name) => name.includes('(conflicted copy'));
    expect(copy).toBeDefined();
    unlinkSync(join(folder, copy ?? ''));
    await view('Issues');
    await page.getByText('Every item is synced.').waitFor({ timeout: 15_000 });
    await view('Status');
    await page.getByRole('article', { name: 'Work' }).getByText('Up to date', { exact: true }).waitFor();
  });

  it('holds an emptied folder and brings the files back with "Restore them here"', async () => {
    const all = readdirSync(folder).filter((name) => name !== '.mch-sync');
    for (const name of all) unlinkSync(join(folder, name));
    // Finder's file and the editor's backup were never synced: nothing brings them back.
    const names = all.filter((name) => name !== '.DS_Store' && name !== 'plan.txt~');
    await view('Issues');
    const restore = page.getByRole('button', { name: 'Restore them here' });
    await restore.click({ timeout: 30_000 });
    // From the click: the answer under way, never the hold again with its buttons working.
    await restore.waitFor({ state: 'detached', timeout: 2_000 });
    await waitFor('the restored files', () =>
      names.every((name) => existsSync(join(folder, name))) ? true : undefined,
    );
  });

  // 90 s: its own wait for the hold may take 30 s on a loaded machine, and the merge comes after it.
  it('holds a folder replaced by another one, says so, and merges both with "Keep everything on both sides"', async ({
    device,
  }) => {
    const names = readdirSync(folder).filter((name) => name !== '.mch-sync');
    const aside = `${folder}.bak`;
    renameSync(folder, aside);
    mkdirSync(folder);
    writeFileSync(join(folder, 'new here.txt'), 'made in the new folder\n');
    try {
      await view('Issues');
      const card = page.locator('section.hold');
      await card
        .getByRole('heading', { name: 'Not the folder that was synced: Work' })
        .waitFor({ timeout: 30_000 });
      await card.getByText('no longer holds its sync marker').waitFor();
      await dismissNotifications();
      await page.screenshot({ path: join(SHOTS, 'hold-folder-changed.png'), fullPage: true });
      // The answer that deletes asks first, saying what it deletes; Cancel leaves everything as it was.
      await card.getByRole('button', { name: 'Sync it as it is now' }).click();
      await card.getByText('Make the device like this folder?').waitFor();
      await page.screenshot({ path: join(SHOTS, 'hold-folder-changed-asked.png'), fullPage: true });
      await card.getByRole('button', { name: 'Cancel' }).click();
      await card.getByRole('button', { name: 'Sync it as it is now' }).waitFor();
      await card.getByRole('button', { name: 'Keep everything on both sides' }).click();
      await waitFor('the merged folder', () =>
        names.every((name) => existsSync(join(folder, name))) ? true : undefined,
      );
      expect(readFileSync(join(folder, 'new here.txt'), 'utf8')).toBe('made in the new folder\n');
      const api = clientFor(device).device;
      const work = await api.findByName('root', 'Work');
      await waitFor('the new file on the device', async () =>
        work === undefined ? undefined : await api.findByName(work.id, 'new here.txt'),
      );
    } finally {
      rmSync(aside, { recursive: true, force: true });
    }
  }, 90_000);

  it('refuses a folder inside a synced one in "Add a folder", with the reason in the form', async () => {
    const inner = join(folder, 'Inner');
    mkdirSync(inner);
    await view('Settings');
    await page.getByRole('button', { name: 'Add a folder' }).click();
    const local = page.getByLabel('Folder on this computer');
    await local.fill(inner);
    await local.blur();
    const reason = `${inner} is inside ${folder}, which is synced with /Work. Folder pairs must not overlap: choose another folder.`;
    await page.getByRole('alert').filter({ hasText: 'Folders overlap' }).getByText(reason).waitFor();
    await page.getByRole('button', { name: 'Add and start syncing' }).click();
    await page.getByRole('alert').filter({ hasText: 'Folders overlap' }).getByText(reason).waitFor();
    await dismissNotifications();
    await page.screenshot({ path: join(SHOTS, 'add-refused.png'), fullPage: true });
    const pairs = await runMchSync(['--profile', join(home, 'profile'), 'folders', 'list', '--json'], {
      env,
    });
    expect((JSON.parse(pairs.stdout) as Array<{ localRoot: string }>).map((pair) => pair.localRoot)).toEqual([
      folder,
    ]);
  });

  it('offers /<name of the folder> as its device folder, never the whole device', async () => {
    const notes = join(home, 'Notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'todo.txt'), 'buy milk\n');
    const local = page.getByLabel('Folder on this computer');
    await local.fill(notes);
    await local.blur();
    await page.getByText('/Notes', { exact: true }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await dismissNotifications();
    await page.screenshot({ path: join(SHOTS, 'add-offered.png'), fullPage: true });
  });

  it('shows who holds a folder another process syncs, and syncs it once that process is gone', async ({
    device,
  }) => {
    const notes = join(home, 'Notes');
    // Another profile of this user syncs the folder live, as another `mch-sync run` would.
    other = await signedInProfile(device, 'mch-ui-window-other-');
    const otherProfile = other.profile;
    holder = spawn(
      process.execPath,
      [MCH_SYNC_BIN, '--profile', otherProfile, 'run', '--folder', notes, '--remote-folder', '/Notes'],
      { env: other.env },
    );
    const holderPid = holder.pid;
    await waitFor('the other live run', async () => {
      const status = await runMchSync(['--profile', otherProfile, 'status', '--folder', notes, '--json'], {
        env: other?.env ?? env,
      });
      return status.code === 0 && (JSON.parse(status.stdout) as { pid: number | null }).pid === holderPid
        ? true
        : undefined;
    });
    await page.getByRole('button', { name: 'Add and start syncing' }).click();
    await view('Status');
    const card = page.getByRole('article', { name: 'Notes' });
    await card
      .getByText(`Another mch-sync run (process ${holderPid}, profile ${otherProfile}, since `)
      .waitFor({ timeout: 30_000 });
    await card.getByText(`is syncing ${notes}: wait for it to finish, or stop it.`).waitFor();
    await card.getByText('Stopped').waitFor();
    await dismissNotifications();
    await page.screenshot({ path: join(SHOTS, 'pair-busy.png'), fullPage: true });
    const exited = new Promise((done) => holder?.once('exit', done));
    holder.kill('SIGKILL');
    await exited;
    await card.getByRole('button', { name: 'Sync now' }).click();
    await card.getByText('Up to date').waitFor({ timeout: 30_000 });
  });

  it('has a Cancel in "Add a folder" that leaves the device and the pairs as they were', async ({
    device,
  }) => {
    const other = join(home, 'Elsewhere');
    mkdirSync(other);
    await view('Settings');
    await page.getByRole('button', { name: 'Add a folder' }).click();
    await page.getByLabel('Folder on this computer').fill(other);
    await page.getByRole('button', { name: 'New folder' }).click();
    await page.getByLabel('Name of the new folder').fill('Elsewhere');
    await page.getByRole('button', { name: 'Use this name' }).click();
    await page.getByText('/Elsewhere', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Add a folder' }).waitFor();
    expect(await deviceHas(device, 'Elsewhere')).toBe(false);
    const pairs = await runMchSync(['--profile', join(home, 'profile'), 'folders', 'list', '--json'], {
      env,
    });
    expect(
      (JSON.parse(pairs.stdout) as Array<{ localRoot: string }>).map((pair) => pair.localRoot),
    ).not.toContain(other);
  });

  it('refuses an ignore rule it cannot read, naming the line, and keeps the rules as they were', async () => {
    const rules = page.getByLabel('Ignore rules');
    await rules.fill('*.log\nreport[2024.pdf');
    await page.getByRole('button', { name: 'Save rules' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Ignore rules not saved' });
    await refused
      .getByText('Line 2 ("report[2024.pdf") cannot be read: the "[" at character 7 is never closed', {
        exact: false,
      })
      .waitFor();
    await dismissNotifications();
    await page.screenshot({
      path: join(SHOTS, 'ignore-rule-refused.png'),
      fullPage: true,
      animations: 'disabled',
    });
    const settings = JSON.parse(readFileSync(join(home, 'profile', 'ui-settings.json'), 'utf8')) as {
      ignoreRules: string;
    };
    expect(settings.ignoreRules).toBe('');
  });

  it('says what to open by hand when nothing can open the folder, and logs it where Settings says', async () => {
    await view('Status');
    const card = page.getByRole('article', { name: 'Work' });
    await card.getByRole('button', { name: 'Open folder' }).click();
    const failed = card.getByRole('alert').filter({ hasText: 'Could not open it' });
    await failed.getByText(`No application opened ${folder}. Open it from your file manager.`).waitFor();
    expect(await failed.getByText(/INTERNAL|shell:openPath/).count()).toBe(0);
    await failed.getByText('Details').click();
    await failed.getByText('there is no graphical session', { exact: false }).waitFor();
    await dismissNotifications();
    await page.screenshot({ path: join(SHOTS, 'open-failed.png'), fullPage: true, animations: 'disabled' });
    await view('Settings');
    const logs = await page.locator('dt:has-text("Logs") + dd').innerText();
    expect(logs).toBe(join(home, 'profile', 'logs'));
    expect(readFileSync(join(logs, 'window.log'), 'utf8')).toContain(`${folder} was not opened`);
  });

  it('asks before signing out, saying what stops, then signs out', async () => {
    await view('Settings');
    await page.getByRole('button', { name: 'Sign out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out of mch-sync?' });
    await dialog
      .getByText('Syncing stops for Notes and Work until you sign in again.', { exact: false })
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'sign-out-asked.png'), animations: 'disabled' });
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('stops every pass cleanly on SIGTERM, having caused no console error', async () => {
    const before = problems.length;
    const exited = new Promise<number | null>((done) => ui.once('exit', done));
    ui.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(hostOutput()).toContain('Stopped.');
    // Once the host is gone, the page's event stream may try to reconnect before the test ends, and
    // Chromium logs that refusal: the only error the stop may cause (it raced the check: 1 run in 8).
    const afterStop = problems.slice(before).filter((text) => !text.includes('ERR_CONNECTION_REFUSED'));
    expect([...problems.slice(0, before), ...afterStop]).toEqual([]);
  });
});
