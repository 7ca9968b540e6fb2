// The synced folders in the file managers' sidebars, as a user gets them: `mch-sync integrate --install|--status|--remove`, pairs added by `folders add` and `run`, taken out by `folders remove`, the user's other bookmarks and places byte for byte.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { signedInProfile, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';

let device: TestDevice;
let user: SignedInProfile;
let env: NodeJS.ProcessEnv;
let gtkFile: string;
let kdeFile: string;

// What the user had before: CRLF, a comment, a line that is not UTF-8, their own bookmark of a
// folder they sync later, and no final newline.
const folderOf = (name: string): string => join(user.home, name);
const gtkBefore = (): Buffer =>
  Buffer.concat([
    Buffer.from(`file:///srv/music Music\r\n# kept\r\n`),
    Buffer.from([0x66, 0x69, 0x6c, 0x65, 0x3a, 0x2f, 0x2f, 0x2f, 0xe9, 0x0a]),
    Buffer.from(`file://${folderOf('Mine')}/ My own name`),
  ]);
const KDE_BEFORE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE xbel>
<xbel xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks" xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info" xmlns:kdepriv="http://www.kde.org/kdepriv">
 <info>
  <metadata owner="http://www.kde.org">
   <kde_places_version>4</kde_places_version>
  </metadata>
 </info>
 <bookmark href="file:///srv/music">
  <title>Music</title>
  <info>
   <metadata owner="http://freedesktop.org">
    <bookmark:icon name="folder-music"/>
   </metadata>
   <metadata owner="http://www.kde.org">
    <ID>1700000000/3</ID>
   </metadata>
  </info>
 </bookmark>
</xbel>
`;

beforeAll(async () => {
  device = await startTestDevice();
  user = await signedInProfile(device, 'mch-sidebar-cli-');
  env = {
    ...user.env,
    XDG_CONFIG_HOME: join(user.home, 'config'),
    XDG_CONFIG_DIRS: join(user.home, 'etc-xdg'),
  };
  gtkFile = join(user.home, 'config', 'gtk-3.0', 'bookmarks');
  kdeFile = join(user.home, '.local', 'share', 'user-places.xbel');
  mkdirSync(join(user.home, 'config', 'gtk-3.0'), { recursive: true });
  writeFileSync(gtkFile, gtkBefore());
  writeFileSync(kdeFile, KDE_BEFORE);
  for (const name of ['Cloud', 'Photos', 'Mine', 'Work']) mkdirSync(folderOf(name));
});

afterAll(async () => {
  user?.remove();
  await device?.stop();
});

function mch(args: readonly string[], profile = user.profile): Promise<CliRun> {
  return runMchSync(['--profile', profile, ...args], { env });
}

async function ok(args: readonly string[], profile?: string): Promise<CliRun> {
  const result = await mch(args, profile);
  expect(result.code, `${args.join(' ')}:\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

const gtkText = (): string => readFileSync(gtkFile, 'latin1');
const kdeText = (): string => readFileSync(kdeFile, 'utf8');
const ours = (name: string): string => `file://${folderOf(name)} ${name}`;
/** The sidebar targets' lines in `integrate`'s output. */
const sidebarLines = (stdout: string): string[] =>
  stdout.match(/^(gtk-bookmarks|kde-places) .*\n.*$/gm)?.map((block) => block.replace(/\s+/g, ' ')) ?? [];

describe('the synced folders in the sidebars', () => {
  it('--install adds each pair with its name, after every line of the user, once', async () => {
    await ok(['folders', 'add', '--folder', folderOf('Cloud')]);
    const install = await ok(['integrate', '--install']);
    expect(sidebarLines(install.stdout)).toEqual([
      `gtk-bookmarks ${gtkFile} written`,
      `kde-places ${kdeFile} written`,
    ]);
    expect(gtkText()).toBe(`${gtkBefore().toString('latin1')}\n${ours('Cloud')}`);
    expect(kdeText().startsWith(KDE_BEFORE.slice(0, KDE_BEFORE.indexOf('</xbel>')))).toBe(true);
    expect(kdeText()).toContain(`<bookmark href="file://${folderOf('Cloud')}">\n  <title>Cloud</title>`);
    const again = await ok(['integrate', '--install']);
    expect(sidebarLines(again.stdout)).toEqual([
      `gtk-bookmarks ${gtkFile} unchanged (already up to date)`,
      `kde-places ${kdeFile} unchanged (already up to date)`,
    ]);
  });

  it('a pair added by `run` or `folders add` gets its place; a folder the user bookmarked is not doubled', async () => {
    const run = await mch(['run', '--folder', folderOf('Photos'), '--once']);
    expect(run.code, run.stderr).toBe(0);
    await ok(['folders', 'add', '--folder', folderOf('Mine')]);
    expect(gtkText()).toBe(`${gtkBefore().toString('latin1')}\n${ours('Cloud')}\n${ours('Photos')}`);
    // Each file is judged by its own entries: KDE had no place of Mine.
    expect(kdeText().match(/<bookmark href/g)).toHaveLength(4);
    expect(kdeText()).toContain(`<bookmark href="file://${folderOf('Mine')}">`);
  });

  it('`folders remove` takes its place out and leaves the others', async () => {
    await ok(['folders', 'remove', '--folder', folderOf('Cloud')]);
    expect(gtkText()).toBe(`${gtkBefore().toString('latin1')}\n${ours('Photos')}`);
    expect(kdeText()).not.toContain(`file://${folderOf('Cloud')}"`);
    expect(kdeText()).toContain(`file://${folderOf('Photos')}"`);
    const status = await ok(['integrate', '--status']);
    // Whether nautilus and dolphin are found depends on the machine.
    expect(sidebarLines(status.stdout).map((line) => line.replace(/ \(\w+ (not )?found\)$/, ''))).toEqual([
      `gtk-bookmarks ${gtkFile} installed, up to date`,
      `kde-places ${kdeFile} installed, up to date`,
    ]);
  });

  it("--remove leaves another profile's places, and every byte of the user's", async () => {
    const other = join(user.home, 'other profile');
    await ok(['folders', 'add', '--folder', folderOf('Work')], other);
    await ok(['integrate', '--install'], other);
    expect(gtkText().endsWith(`\n${ours('Photos')}\n${ours('Work')}`)).toBe(true);
    const removed = await ok(['integrate', '--remove']);
    expect(sidebarLines(removed.stdout)).toEqual([
      `gtk-bookmarks ${gtkFile} removed`,
      `kde-places ${kdeFile} removed`,
    ]);
    expect(gtkText()).toBe(`${gtkBefore().toString('latin1')}\n${ours('Work')}`);
    expect(kdeText()).toContain(`file://${folderOf('Work')}"`);
    await ok(['integrate', '--remove'], other);
    expect(readFileSync(gtkFile)).toEqual(gtkBefore());
    expect(kdeText()).toBe(KDE_BEFORE);
    // Off now: a pair added later gets no place.
    await ok(['folders', 'add', '--folder', folderOf('Cloud')]);
    expect(readFileSync(gtkFile)).toEqual(gtkBefore());
  });
});
