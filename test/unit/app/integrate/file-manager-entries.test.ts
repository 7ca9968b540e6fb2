// The app's file-manager entries: installed with `<app> --share`, launched as the file managers launch them into parseLaunchArgs, taking over the command line's entries, removed when off.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_SHARE_WORDS, FileManagerEntries } from '../../../../app/integrate/file-manager-entries.ts';
import { parseLaunchArgs } from '../../../../app/desktop/launch-args.ts';
import { describeEntry } from '../../../../app/integrate/entry-description.ts';
import { installTarget, integrationTargets, targetState } from '../../../../app/integrate/install.ts';
import { HELPER_DIR, missingGi, runPython } from '../../../helpers/python-gi.ts';
import { pairFilePath } from '../../../../app/profile/folder-pairs.ts';
import { indexFilePath } from '../../../../app/index/index-db.ts';

const work = mkdtempSync(join(tmpdir(), 'mch-desktop-entries-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The app stands in as a recorder in a folder whose name needs quoting.
const appDir = join(work, `My Apps "MCH" it's`);
mkdirSync(appDir);
const app = join(appDir, 'mch-sync');
copyFileSync(join(HELPER_DIR, 'argv-recorder.py'), app);

const filesDir = join(work, 'Files ✓');
mkdirSync(filesDir);
const FILES = ['report "final".pdf', "it's $HOME.txt", 'Résumé 日本.odt', '--odd 100%.md'].map((name) =>
  join(filesDir, name),
);
for (const path of FILES) writeFileSync(path, 'x');

let homes = 0;
function entries(command: readonly string[] = [app, ...APP_SHARE_WORDS]): {
  home: string;
  switch: FileManagerEntries;
} {
  homes += 1;
  const home = join(work, `home-${homes}`);
  mkdirSync(home);
  const env = { XDG_CONFIG_DIRS: join(home, 'etc-xdg') };
  // A synced folder, so that the sidebar places (a GTK bookmark, a KDE place) have a file too.
  const localRoot = join(home, 'Cloud');
  mkdirSync(localRoot);
  const record = pairFilePath(join(home, 'profile'), localRoot);
  mkdirSync(dirname(record), { recursive: true });
  const indexPath = indexFilePath(join(home, 'profile'), localRoot);
  writeFileSync(record, JSON.stringify({ version: 1, localRoot, remoteFolder: '/Cloud', indexPath }));
  const created = new FileManagerEntries({
    command,
    profileDir: join(home, 'profile'),
    defaultProfile: true,
    env,
    home,
    log: () => {},
  });
  return { home, switch: created };
}

describe('the file-manager entries as a switch', () => {
  it('installs every entry with the host command, idempotently, and removes them all', async () => {
    const { switch: entriesSwitch } = entries();
    expect(await entriesSwitch.isEnabled()).toBe(false);
    await entriesSwitch.setEnabled(true);
    // The emblem icons are a folder (test/unit/app/integrate/emblem-icons.test.ts reads its files).
    const files = entriesSwitch.targets.filter((target) => target.kind !== 'emblem-icons');
    const contents = files.map((target) =>
      existsSync(target.path) ? readFileSync(target.path, 'utf8') : '',
    );
    await entriesSwitch.setEnabled(true);
    expect(files.map((target) => readFileSync(target.path, 'utf8'))).toEqual(contents);
    expect(
      await Promise.all(entriesSwitch.targets.map(async (target) => (await targetState(target)).state)),
    ).toEqual(Array(entriesSwitch.targets.length).fill('installed'));
    expect(await entriesSwitch.isEnabled()).toBe(true);
    const kde = entriesSwitch.targets.find((target) => target.id === 'kde-service-menu');
    expect(kde?.kind === 'own-file' ? kde.content : '').toContain('--share %F');
    await entriesSwitch.setEnabled(false);
    await entriesSwitch.setEnabled(false);
    expect(await entriesSwitch.isEnabled()).toBe(false);
    for (const target of entriesSwitch.targets) {
      if (target.kind === 'own-file') expect(existsSync(target.path)).toBe(false);
    }
  });

  it("takes over the command line's entries (the same files) instead of adding a second one", async () => {
    const { home, switch: entriesSwitch } = entries();
    const cli = describeEntry({
      baseCommand: ['/usr/bin/node', '/opt/mch-sync/bin/mch-sync.js'],
      profileDir: join(home, 'profile'),
      defaultProfile: true,
    });
    for (const target of integrationTargets(cli, { env: { XDG_CONFIG_DIRS: join(home, 'etc-xdg') }, home })) {
      await installTarget(target);
    }
    expect(await entriesSwitch.isEnabled()).toBe(true);
    await entriesSwitch.setEnabled(true);
    const thunar = entriesSwitch.targets.find((target) => target.id === 'thunar');
    const uca = readFileSync(thunar?.path ?? '', 'utf8');
    expect(uca.match(/<unique-id>/g)).toHaveLength(1);
    expect(uca).toContain('--share');
    expect(uca).not.toContain('--notify');
  });

  it.skipIf(missingGi() !== undefined)(
    `launched as KDE, Nemo and Thunar launch them, the app gets exactly the selected files (${missingGi() ?? 'gi found'})`,
    async () => {
      const { switch: entriesSwitch } = entries();
      await entriesSwitch.setEnabled(true);
      for (const [mode, id] of [
        ['kde', 'kde-service-menu'],
        ['nemo-desktop', 'nemo-action'],
        ['thunar', 'thunar'],
      ] as const) {
        const target = entriesSwitch.targets.find((candidate) => candidate.id === id);
        const recordTo = join(work, `record-${mode}.json`);
        const unique = target?.kind === 'thunar' ? target.uniqueId : 'none';
        const run = runPython([
          join(HELPER_DIR, 'entry-launcher.py'),
          mode,
          target?.path ?? '',
          recordTo,
          unique,
          ...FILES,
        ]);
        expect(run.status, run.stderr).toBe(0);
        const recorded = (JSON.parse(run.stdout) as { recorded: string[] }).recorded;
        expect(recorded).toEqual(['--share', ...FILES]);
        // The second start parses its own words: the app path and the option, then the files.
        expect(parseLaunchArgs([app, ...recorded], '/somewhere/else').share).toEqual(FILES);
      }
    },
  );
});
