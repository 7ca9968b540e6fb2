// The no-download list: names as /proc/<pid>/comm gives them (cut at 15 bytes), and the C matcher agrees.
import { describe, expect, it } from 'vitest';
import { loadFuseAddon } from '../../../../app/mount/fuse-addon.ts';
import {
  DEFAULT_NO_DOWNLOAD,
  isNoDownloadProcess,
  matchesPattern,
  parseNoDownloadList,
} from '../../../../app/mount/no-download.ts';

/** What /proc/<pid>/comm shows for a program of this name. */
const comm = (name: string): string => name.slice(0, 15);

const BLOCKED = [
  'nautilus',
  'nemo',
  'caja',
  'thunar',
  'dolphin',
  'kioworker',
  'kioworker_file',
  'kioslave5',
  'baloo_file',
  'baloo_file_extractor',
  'baloorunner',
  'tracker-miner-fs',
  'tracker-miner-fs-3',
  'tracker-extract',
  'tracker-extract-3',
  'localsearch',
  'localsearch-3',
  'localsearch-extractor-3',
  'tumblerd',
  'gnome-thumbnailers',
  'ffmpegthumbnailer',
  'totem-video-thumbnailer',
  'evince-thumbnailer',
  'gdk-pixbuf-thumbnailer',
  'my-thumbnail-maker',
  'gvfsd',
  'gvfsd-metadata',
  'gvfsd-trash',
  'updatedb',
  'updatedb.plocate',
  'plocate',
  'mlocate',
  'clamd',
  'clamscan',
  'freshclam',
];

const ALLOWED = [
  'cat',
  'cp',
  'gedit',
  'code',
  'eog',
  'vlc',
  'python3',
  'bash',
  'node',
  'rsync',
  'tar',
  'thumb',
];

describe('the default no-download list', () => {
  it.each(BLOCKED)('gives %s metadata only, by its full and its 15-byte name', (name) => {
    expect(isNoDownloadProcess(name)).toBe(true);
    expect(isNoDownloadProcess(comm(name))).toBe(true);
  });

  it.each(ALLOWED)('lets %s download', (name) => {
    expect(isNoDownloadProcess(name)).toBe(false);
  });

  it('matches no empty name (a caller whose name could not be read downloads)', () => {
    expect(isNoDownloadProcess('')).toBe(false);
  });
});

describe('patterns', () => {
  it('matches a name exactly, or a long one by its first 15 bytes only when the name is cut', () => {
    expect(matchesPattern('tracker-miner-f', 'tracker-miner-fs-3')).toBe(true);
    expect(matchesPattern('tracker-miner', 'tracker-miner-fs-3')).toBe(false);
    expect(matchesPattern('nautilus2', 'nautilus')).toBe(false);
  });

  it('matches a prefix, cut at 15 bytes', () => {
    expect(matchesPattern('gvfsd-fuse', 'gvfsd*')).toBe(true);
    expect(matchesPattern('xgvfsd', 'gvfsd*')).toBe(false);
    expect(matchesPattern('abcdefghijklmno', 'abcdefghijklmnopq*')).toBe(true);
  });

  it('matches a part anywhere, and a cut name ending with 4 or more of its first bytes', () => {
    expect(matchesPattern('ffmpegthumbnail', '*thumbnail*')).toBe(true);
    expect(matchesPattern('evince-thumbnai', '*thumbnail*')).toBe(true);
    expect(matchesPattern('totem-video-thu', '*thumbnail*')).toBe(false);
    expect(matchesPattern('totem-video-thum', '*thumbnail*')).toBe(false);
    expect(matchesPattern('abcdefghijkthum', '*thumbnail*')).toBe(true);
    expect(matchesPattern('abcdefthum', '*thumbnail*')).toBe(false);
  });

  it('reads a list from JSON, refusing anything but an array of names', () => {
    expect(parseNoDownloadList('["a","b*"]')).toEqual(['a', 'b*']);
    expect(parseNoDownloadList('{"a":1}')).toBeUndefined();
    expect(parseNoDownloadList('["a",1]')).toBeUndefined();
    expect(parseNoDownloadList('["a",""]')).toBeUndefined();
    expect(parseNoDownloadList('nope')).toBeUndefined();
  });
});

describe.runIf(process.platform === 'linux')('the mount addon (C)', () => {
  const names = [...BLOCKED, ...BLOCKED.map(comm), ...ALLOWED, 'abcdefghijkthum', 'totem-video-thu', ''];

  it('matches exactly as no-download.ts does', () => {
    const addon = loadFuseAddon();
    const mismatches = names.filter(
      (name) => addon.matchesNoDownload(name, DEFAULT_NO_DOWNLOAD) !== isNoDownloadProcess(name),
    );
    expect(mismatches).toEqual([]);
  });
});
