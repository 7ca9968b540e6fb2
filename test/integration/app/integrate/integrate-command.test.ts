// `mch-sync integrate` as a user runs it, in a temporary home: install, status, install again, remove, usage errors.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, MCH_SYNC_BIN, runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { HELPER_DIR } from '../../../helpers/python-gi.ts';

let home: string;
let env: NodeJS.ProcessEnv;
let data: string;
let config: string;

const FOREIGN_UCA = `<?xml version="1.0" encoding="UTF-8"?>
<actions>
<action>
\t<icon>utilities-terminal</icon>
\t<name>Open Terminal Here</name>
\t<unique-id>1700000000000000-1</unique-id>
\t<command>exo-open --working-directory %f --launch TerminalEmulator</command>
\t<patterns>*</patterns>
\t<directories/>
</action>
</actions>
`;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'mch-integrate-cli-'));
  data = join(home, 'data');
  config = join(home, 'config');
  env = cliEnv({
    HOME: home,
    XDG_DATA_HOME: data,
    XDG_CONFIG_HOME: config,
    XDG_CONFIG_DIRS: join(home, 'etc-xdg'),
  });
  mkdirSync(join(config, 'Thunar'), { recursive: true });
  writeFileSync(join(config, 'Thunar', 'uca.xml'), FOREIGN_UCA);
});

afterAll(() => {
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

/** `mch-sync integrate`; the sidebar places' lines are left out (sidebar-places.test.ts checks them). */
async function integrate(args: readonly string[]): Promise<CliRun> {
  const run = await runMchSync(['integrate', ...args], { env });
  return { ...run, stdout: run.stdout.replace(/^(gtk-bookmarks|kde-places) .*\n.*\n/gm, '') };
}

const entryFiles = (stem: string): string[] => [
  join(data, 'nautilus-python', 'extensions', `${stem}.py`),
  join(data, 'nemo-python', 'extensions', `${stem}.py`),
  join(data, 'caja-python', 'extensions', `${stem}.py`),
  join(data, 'nemo', 'actions', `${stem}.nemo_action`),
  join(data, 'kio', 'servicemenus', `${stem}.desktop`),
];
const emblems = (): string => join(data, 'icons', 'hicolor', 'scalable', 'emblems');
const ucaXml = (): string => readFileSync(join(config, 'Thunar', 'uca.xml'), 'utf8');
const count = (text: string, word: string): number => text.split(word).length - 1;

describe('mch-sync integrate with the default profile', () => {
  it('--install writes every entry, running this mch-sync, and keeps the foreign Thunar action', async () => {
    const result = await integrate(['--install']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Six menu entries and the emblem icons.
    expect(count(result.stdout, '\n                  written\n')).toBe(7);
    for (const path of entryFiles('mch-sync-share')) expect(existsSync(path), path).toBe(true);
    expect(readdirSync(emblems()).filter((name) => name.startsWith('emblem-mch-sync-'))).toContain(
      'emblem-mch-sync-up-to-date.svg',
    );
    const [nautilus, , , nemoAction, kde] = entryFiles('mch-sync-share') as [
      string,
      string,
      string,
      string,
      string,
    ];
    expect(statSync(kde).mode & 0o777).toBe(0o755);
    expect(statSync(nemoAction).mode & 0o777).toBe(0o644);
    // The extension runs this Node and this bin/mch-sync.js; the default profile needs no --profile.
    const extension = readFileSync(nautilus, 'utf8');
    expect(extension).toContain(
      `COMMAND = [\n    ${JSON.stringify(process.execPath)},\n    ${JSON.stringify(MCH_SYNC_BIN)},\n    "share",`,
    );
    expect(extension).toContain(`PROFILE_DIR = ${JSON.stringify(join(config, 'mch-sync'))}`);
    const uca = ucaXml();
    expect(uca.startsWith(FOREIGN_UCA.slice(0, FOREIGN_UCA.indexOf('</actions>')))).toBe(true);
    expect(count(uca, '<unique-id>mch-sync-share</unique-id>')).toBe(1);
  });

  it('--status says every entry is installed and up to date', async () => {
    const result = await integrate(['--status']);
    expect(result.code).toBe(0);
    expect(count(result.stdout, 'installed, up to date')).toBe(7);
    expect(result.stdout).toContain(
      `the entries would run: ${process.execPath} ${MCH_SYNC_BIN} share --copy --notify FILES...`,
    );
  });

  it('--install again changes nothing', async () => {
    const before = [...entryFiles('mch-sync-share'), join(config, 'Thunar', 'uca.xml')].map((path) => [
      readFileSync(path, 'utf8'),
      statSync(path).mtimeMs,
    ]);
    const result = await integrate(['--install']);
    expect(result.code).toBe(0);
    expect(count(result.stdout, 'unchanged (already up to date)')).toBe(7);
    const after = [...entryFiles('mch-sync-share'), join(config, 'Thunar', 'uca.xml')].map((path) => [
      readFileSync(path, 'utf8'),
      statSync(path).mtimeMs,
    ]);
    expect(after).toEqual(before);
  });

  it('--remove removes them and gives uca.xml back as it was', async () => {
    const result = await integrate(['--remove']);
    expect(result.code).toBe(0);
    expect(count(result.stdout, '\n                  removed\n')).toBe(7);
    for (const path of entryFiles('mch-sync-share')) expect(existsSync(path), path).toBe(false);
    const left = existsSync(emblems()) ? readdirSync(emblems()) : [];
    expect(left.filter((name) => name.startsWith('emblem-mch-sync-'))).toEqual([]);
    expect(ucaXml()).toBe(FOREIGN_UCA);
    expect(count((await integrate(['--status'])).stdout, 'not installed')).toBe(7);
  });
});

describe('mch-sync integrate with another profile and --command', () => {
  it('names the entries after the profile and passes --profile to the given program', async () => {
    const binDir = join(home, 'my "bin"');
    mkdirSync(binDir);
    const recorder = join(binDir, 'record argv');
    copyFileSync(join(HELPER_DIR, 'argv-recorder.py'), recorder);
    const profile = join(home, 'work profile');
    const result = await runMchSync(
      ['--profile', profile, 'integrate', '--install', '--command', `'${recorder}' --flag`],
      { env },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [nautilus] = readdirSync(join(data, 'nautilus-python', 'extensions'));
    expect(nautilus).toMatch(/^mch-sync-share-[0-9a-f]{8}\.py$/);
    const stem = (nautilus ?? '').replace(/\.py$/, '');
    for (const path of entryFiles(stem)) expect(existsSync(path), path).toBe(true);
    const extension = readFileSync(join(data, 'nautilus-python', 'extensions', nautilus ?? ''), 'utf8');
    const words = [recorder, '--flag', '--profile', profile, 'share', '--copy', '--notify'];
    expect(extension).toContain(
      `COMMAND = [\n${words.map((word) => `    ${JSON.stringify(word)},\n`).join('')}]`,
    );
    expect(count(ucaXml(), `<unique-id>${stem}</unique-id>`)).toBe(1);
    expect((await runMchSync(['--profile', profile, 'integrate', '--remove'], { env })).code).toBe(0);
    expect(ucaXml()).toBe(FOREIGN_UCA);
  });
});

describe('mch-sync integrate usage errors exit with 2', () => {
  it.each([
    [[], 'Give exactly one of --install, --remove or --status.'],
    [['--install', '--remove'], 'Give exactly one of --install, --remove or --status.'],
    [['--status', 'extra'], 'Unexpected argument "extra".'],
    [['--install', '--command', ''], '--command is empty'],
    [['--install', '--command', '$HOME/bin/mch-sync'], '"$" outside quotes would be interpreted by a shell'],
    [['--install', '--command', '/nonexistent/mch-sync'], '/nonexistent/mch-sync is not an executable file'],
    [['--install', '--command', 'no-such-program-here'], 'no program "no-such-program-here" in PATH'],
  ])('%j', async (args, message) => {
    const result = await integrate(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: mch-sync [--profile DIR] integrate');
    expect(existsSync(join(data, 'kio', 'servicemenus', 'mch-sync-share.desktop'))).toBe(false);
  });
});
