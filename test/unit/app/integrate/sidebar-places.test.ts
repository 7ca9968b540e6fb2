// The synced folders in the sidebars, in a temporary home: GTK bookmarks and KDE places installed, removed and kept with the pairs, every other byte of the files left as it was.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEntry } from '../../../../app/integrate/entry-description.ts';
import { integrationTargets } from '../../../../app/integrate/install.ts';
import {
  installSidebarPlaces,
  placePairInSidebars,
  removeSidebarPlaces,
  sidebarPlacesState,
  sidebarPlacesTargets,
  takePairFromSidebars,
  type SidebarPlacesTarget,
} from '../../../../app/integrate/sidebar-places.ts';
import { IntegrateError } from '../../../../app/integrate/integrate-errors.ts';
import { kdePlaceId } from '../../../../app/integrate/kde-places.ts';
import { forgetFolderPair, registerFolderPair } from '../../../../app/profile/folder-pairs.ts';

let home: string;
let profile: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mch-sidebar-'));
  profile = join(home, 'profile');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const gtkPath = (): string => join(home, 'config', 'gtk-3.0', 'bookmarks');
const kdePath = (): string => join(home, 'data', 'user-places.xbel');
const bytes = (path: string): Buffer => readFileSync(path);

function targets(profileDir = profile, defaultProfile = true): SidebarPlacesTarget[] {
  const description = describeEntry({ baseCommand: ['/usr/bin/mch'], profileDir, defaultProfile });
  return sidebarPlacesTargets(description, { data: join(home, 'data'), config: join(home, 'config') });
}
const gtk = (): SidebarPlacesTarget => targets()[0]!;
const kde = (): SidebarPlacesTarget => targets()[1]!;
const kdeFile = (): string => readFileSync(kdePath(), 'utf8');

async function pair(name: string, profileDir = profile): Promise<string> {
  const localRoot = join(home, name);
  mkdirSync(localRoot, { recursive: true });
  await registerFolderPair(profileDir, { localRoot, remoteFolder: `/${name}` });
  return localRoot;
}

function writeGtk(content: string | Buffer): Buffer {
  mkdirSync(join(home, 'config', 'gtk-3.0'), { recursive: true });
  writeFileSync(gtkPath(), content);
  return bytes(gtkPath());
}

const uri = (folder: string): string => `file://${folder.split('/').map(encodeURIComponent).join('/')}`;

describe('where the places go', () => {
  it('beside the entries: $XDG_CONFIG_HOME/gtk-3.0/bookmarks and $XDG_DATA_HOME/user-places.xbel', () => {
    const description = describeEntry({ baseCommand: ['/m'], profileDir: profile, defaultProfile: true });
    const env = { XDG_DATA_HOME: '/x/data', XDG_CONFIG_HOME: '/x/config' };
    const places = integrationTargets(description, { env, home }).filter(
      (each) => each.kind === 'sidebar-places',
    );
    expect(places.map((each) => [each.id, each.path])).toEqual([
      ['gtk-bookmarks', '/x/config/gtk-3.0/bookmarks'],
      ['kde-places', '/x/data/user-places.xbel'],
    ]);
  });
});

describe('GTK bookmarks', () => {
  it('adds each pair with its name to a file it creates, and deletes that file again on remove', async () => {
    const cloud = await pair('Cloud');
    const photos = await pair('Fotos é');
    expect(await sidebarPlacesState(gtk())).toEqual({ state: 'not-installed' });
    expect(await installSidebarPlaces(gtk())).toBe('written');
    expect(bytes(gtkPath()).toString('utf8')).toBe(`${uri(cloud)} Cloud\n${uri(photos)} Fotos é\n`);
    expect(await sidebarPlacesState(gtk())).toEqual({ state: 'installed' });
    const mtime = statSync(gtkPath()).mtimeMs;
    expect(await installSidebarPlaces(gtk())).toBe('unchanged');
    expect(statSync(gtkPath()).mtimeMs).toBe(mtime);
    expect(await removeSidebarPlaces(gtk())).toBe('removed');
    expect(existsSync(gtkPath())).toBe(false);
    expect(await sidebarPlacesState(gtk())).toEqual({ state: 'not-installed' });
    expect(await removeSidebarPlaces(gtk())).toBe('absent');
  });

  it.each([
    ['an empty file', ''],
    ['a file without a final newline', 'file:///home/ann/Music Music'],
    [
      'CRLF, a comment, a blank line and a line GTK ignores',
      'file:///srv/a A\r\n# mine\r\n\r\nnot a uri\r\n',
    ],
    [
      'bytes that are not UTF-8',
      Buffer.from([0x66, 0x69, 0x6c, 0x65, 0x3a, 0x2f, 0x2f, 0x2f, 0xe9, 0x20, 0xff, 0x0a]),
    ],
  ])('keeps %s byte for byte through install and remove', async (_, content) => {
    const cloud = await pair('Cloud');
    const before = writeGtk(content);
    chmodSync(gtkPath(), 0o640);
    expect(await installSidebarPlaces(gtk())).toBe('written');
    const installed = bytes(gtkPath());
    expect(installed.subarray(0, before.length)).toEqual(before);
    expect(installed.toString('latin1')).toContain(`${uri(cloud)} Cloud`);
    expect(statSync(gtkPath()).mode & 0o777).toBe(0o640);
    expect(await removeSidebarPlaces(gtk())).toBe('removed');
    expect(bytes(gtkPath())).toEqual(before);
  });

  it("leaves the user's own bookmark of a synced folder as theirs: not doubled, not taken out", async () => {
    const cloud = await pair('Cloud');
    const before = writeGtk(`file://localhost${cloud}/ My own name\n`);
    expect(await installSidebarPlaces(gtk())).toBe('unchanged');
    expect(await sidebarPlacesState(gtk())).toEqual({ state: 'installed' });
    expect(await removeSidebarPlaces(gtk())).toBe('removed');
    expect(bytes(gtkPath())).toEqual(before);
  });

  it('takes out a bookmark of ours its user renamed; one its user took out is missed, then put back', async () => {
    const cloud = await pair('Cloud');
    const before = writeGtk('file:///srv/a A\n');
    await installSidebarPlaces(gtk());
    writeGtk(`file:///srv/a A\n${uri(cloud)} Renamed\n`);
    expect(await sidebarPlacesState(gtk())).toEqual({ state: 'installed' });
    await removeSidebarPlaces(gtk());
    expect(bytes(gtkPath())).toEqual(before);
    await installSidebarPlaces(gtk());
    writeGtk('file:///srv/a A\n');
    expect(await sidebarPlacesState(gtk())).toEqual({ state: 'outdated' });
    expect(await removeSidebarPlaces(gtk())).toBe('removed');
    expect(bytes(gtkPath())).toEqual(before);
  });

  it("keeps another profile's lines and its own, even of the same folder", async () => {
    const other = join(home, 'other profile');
    const cloud = await pair('Cloud');
    await registerFolderPair(other, { localRoot: cloud, remoteFolder: '/Cloud' });
    const work = await pair('Work', other);
    const theirs = targets(other, false)[0]!;
    await installSidebarPlaces(theirs);
    const before = bytes(gtkPath());
    expect(before.toString()).toBe(`${uri(cloud)} Cloud\n${uri(work)} Work\n`);
    // The other profile bookmarked Cloud already: this one adds nothing, and takes nothing out.
    expect(await installSidebarPlaces(gtk())).toBe('unchanged');
    expect(await removeSidebarPlaces(gtk())).toBe('removed');
    expect(bytes(gtkPath())).toEqual(before);
  });

  it('writes through a link to the file (a dotfiles folder)', async () => {
    await pair('Cloud');
    const real = join(home, 'dotfiles', 'bookmarks');
    mkdirSync(join(home, 'dotfiles'));
    writeFileSync(real, 'file:///srv/a A\n');
    mkdirSync(join(home, 'config', 'gtk-3.0'), { recursive: true });
    symlinkSync(real, gtkPath());
    await installSidebarPlaces(gtk());
    expect(readFileSync(real, 'utf8')).toContain('Cloud');
    await removeSidebarPlaces(gtk());
    expect(readFileSync(real, 'utf8')).toBe('file:///srv/a A\n');
  });
});

describe('KDE places', () => {
  it('creates a file KDE completes itself, adds each pair, and deletes the file again on remove', async () => {
    const cloud = await pair('Cloud');
    expect(await installSidebarPlaces(kde())).toBe('written');
    expect(kdeFile()).toContain(`<bookmark href="${uri(cloud)}">\n  <title>Cloud</title>`);
    expect(kdeFile()).toContain(`<ID>${kdePlaceId(undefined, cloud)}</ID>`);
    expect(await sidebarPlacesState(kde())).toEqual({ state: 'installed' });
    expect(await installSidebarPlaces(kde())).toBe('unchanged');
    expect(await removeSidebarPlaces(kde())).toBe('removed');
    expect(existsSync(kdePath())).toBe(false);
  });

  it("keeps a file KDE wrote byte for byte, and the user's own place of the folder", async () => {
    const cloud = await pair('Cloud');
    const music = await pair('Music');
    mkdirSync(join(home, 'data'), { recursive: true });
    const original = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\r\n<!DOCTYPE xbel>\r\n<xbel xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks">\r\n` +
        ` <bookmark href="file://${music}/">\r\n  <title>Caf\xe9</title>\r\n </bookmark>\r\n</xbel>`,
      'latin1',
    );
    writeFileSync(kdePath(), original);
    await installSidebarPlaces(kde());
    expect(kdeFile().match(/<bookmark href/g)).toHaveLength(2);
    expect(kdeFile()).toContain(`<ID>${kdePlaceId(undefined, cloud)}</ID>`);
    expect(kdeFile()).not.toContain(kdePlaceId(undefined, music));
    await removeSidebarPlaces(kde());
    expect(bytes(kdePath())).toEqual(original);
  });

  it('leaves a file it cannot edit safely as it is, and says why', async () => {
    await pair('Cloud');
    mkdirSync(join(home, 'data'), { recursive: true });
    writeFileSync(kdePath(), '<xbel>\n <bookmark href="file:///a">\n');
    await expect(installSidebarPlaces(kde())).rejects.toThrow(IntegrateError);
    await expect(installSidebarPlaces(kde())).rejects.toThrow('is not closed');
    expect(kdeFile()).toBe('<xbel>\n <bookmark href="file:///a">\n');
  });
});

describe('with the pairs', () => {
  it('adds a new pair and takes out a removed one only where the places are on', async () => {
    const cloud = await pair('Cloud');
    const warnings: string[] = [];
    const warn = (message: string): void => void warnings.push(message);
    const photos = await pair('Photos');
    await placePairInSidebars(profile, photos, warn);
    expect(existsSync(gtkPath())).toBe(false);
    writeGtk('file:///srv/a A\n');
    await installSidebarPlaces(gtk());
    await installSidebarPlaces(kde());
    const work = await pair('Work');
    await placePairInSidebars(profile, work, warn);
    expect(bytes(gtkPath()).toString()).toBe(
      `file:///srv/a A\n${uri(cloud)} Cloud\n${uri(photos)} Photos\n${uri(work)} Work\n`,
    );
    expect(kdeFile()).toContain(kdePlaceId(undefined, work));
    forgetFolderPair(profile, photos);
    await takePairFromSidebars(profile, photos, warn);
    expect(bytes(gtkPath()).toString()).toBe(`file:///srv/a A\n${uri(cloud)} Cloud\n${uri(work)} Work\n`);
    expect(kdeFile()).not.toContain(kdePlaceId(undefined, photos));
    expect(kdeFile()).toContain(kdePlaceId(undefined, cloud));
    expect(await sidebarPlacesState(gtk())).toEqual({ state: 'installed' });
    expect(warnings).toEqual([]);
  });

  it('warns, never throws, when a file cannot be changed or the record cannot be read', async () => {
    const cloud = await pair('Cloud');
    await installSidebarPlaces(kde());
    writeFileSync(kdePath(), '<xbel>\n');
    const warnings: string[] = [];
    await takePairFromSidebars(profile, cloud, (message) => warnings.push(message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('no closing </xbel>');
    writeFileSync(join(profile, 'sidebar-places.json'), '{');
    await placePairInSidebars(profile, cloud, (message) => warnings.push(message));
    expect(warnings[1]).toContain('sidebar-places.json cannot be read');
    await expect(sidebarPlacesState(gtk())).rejects.toThrow(IntegrateError);
  });
});
