// Where a folder really is, on real files: links, trailing slashes, `..`, missing folders, and case on a file system that ignores it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderPlace } from '../../../../app/profile/folder-place.ts';
import { newPairOverlap } from '../../../../app/profile/pair-check.ts';

let dir: string;

beforeEach(() => {
  // The temporary folder may itself be reached through a link (macOS's /var): compare real paths.
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'mch-place-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('folderPlace', () => {
  it('is one place for a trailing slash, `.` and `..`', () => {
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    const place = folderPlace(join(dir, 'a'));
    expect(place).toEqual({ path: join(dir, 'a'), real: join(dir, 'a'), keys: ['/', ...names(dir), 'a'] });
    for (const spelling of [`${dir}/a/`, `${dir}/a/.`, `${dir}/a/b/..`, `${dir}//a`]) {
      expect(folderPlace(spelling).keys, spelling).toEqual(place.keys);
    }
  });

  it('follows links, of the folder itself and of a folder above it', () => {
    mkdirSync(join(dir, 'real', 'Docs'), { recursive: true });
    symlinkSync(join(dir, 'real', 'Docs'), join(dir, 'docs-link'));
    symlinkSync(join(dir, 'real'), join(dir, 'real-link'));
    const real = folderPlace(join(dir, 'real', 'Docs'));
    expect(folderPlace(join(dir, 'docs-link'))).toMatchObject({
      path: join(dir, 'docs-link'),
      real: join(dir, 'real', 'Docs'),
      keys: real.keys,
    });
    expect(folderPlace(join(dir, 'real-link', 'Docs')).keys).toEqual(real.keys);
  });

  it('places a missing folder by the part that exists, links resolved, the rest as given', () => {
    mkdirSync(join(dir, 'media'));
    symlinkSync(join(dir, 'media'), join(dir, 'media-link'));
    expect(folderPlace(join(dir, 'media-link', 'disk', 'Photos'))).toEqual({
      path: join(dir, 'media-link', 'disk', 'Photos'),
      real: join(dir, 'media', 'disk', 'Photos'),
      keys: ['/', ...names(dir), 'media', 'disk', 'Photos'],
    });
  });

  it('keeps case where the file system keeps it: Photos and photos are two folders', () => {
    mkdirSync(join(dir, 'Photos'));
    mkdirSync(join(dir, 'photos'));
    expect(folderPlace(join(dir, 'Photos')).keys.at(-1)).toBe('Photos');
    expect(folderPlace(join(dir, 'photos')).keys.at(-1)).toBe('photos');
    // A name whose other case does not exist: nothing to tell, the case is kept too.
    mkdirSync(join(dir, 'Music'));
    expect(folderPlace(join(dir, 'Music')).keys.at(-1)).toBe('Music');
  });
});

describe('newPairOverlap on real files', () => {
  it('refuses the same folder through a link, and a folder inside the profile', () => {
    const profile = join(dir, 'profile');
    mkdirSync(join(dir, 'MyCloud', 'Notes'), { recursive: true });
    mkdirSync(profile);
    symlinkSync(join(dir, 'MyCloud'), join(dir, 'cloud'));
    const pairs = [{ localRoot: join(dir, 'MyCloud'), remoteFolder: '/MyCloud' }];
    expect(newPairOverlap(profile, { localRoot: join(dir, 'cloud'), remoteFolder: '/C' }, pairs)?.kind).toBe(
      'same-folder',
    );
    expect(
      newPairOverlap(profile, { localRoot: join(dir, 'cloud', 'Notes/'), remoteFolder: '/N' }, pairs)?.kind,
    ).toBe('in-folder');
    expect(newPairOverlap(profile, { localRoot: join(profile, 'x'), remoteFolder: '/X' }, [])?.kind).toBe(
      'in-profile',
    );
    expect(
      newPairOverlap(profile, { localRoot: join(dir, 'Other'), remoteFolder: '/O' }, pairs),
    ).toBeUndefined();
  });
});

/**
 * A real file system that ignores case: exFAT through FUSE on a loop device. It needs root, a loop
 * device and the Debian packages exfat-fuse and exfatprogs (`apt-get install exfat-fuse exfatprogs`);
 * elsewhere the test is skipped and its name says why.
 */
function exfatMissing(): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'needs root on Linux';
  for (const tool of ['mkfs.exfat', 'mount.exfat-fuse', 'losetup', 'truncate']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      return `needs ${tool}: apt-get install exfat-fuse exfatprogs`;
    }
  }
  return undefined;
}

/** Mounts a new 4 MB exFAT disk under `dir`; undefined when this machine cannot (no loop device, no FUSE). */
function mountExfat(): { mountPoint: string; unmount: () => void } | undefined {
  const image = join(dir, 'disk.img');
  const mountPoint = join(dir, 'mnt');
  mkdirSync(mountPoint);
  if (spawnSync('truncate', ['-s', '4M', image]).status !== 0) return undefined;
  if (spawnSync('mkfs.exfat', [image]).status !== 0) return undefined;
  const loop = spawnSync('losetup', ['-f', '--show', image], { encoding: 'utf8' }).stdout.trim();
  if (loop === '') return undefined;
  if (spawnSync('mount.exfat-fuse', [loop, mountPoint]).status !== 0) {
    spawnSync('losetup', ['-d', loop]);
    return undefined;
  }
  return {
    mountPoint,
    unmount: () => {
      spawnSync('umount', [mountPoint]);
      spawnSync('losetup', ['-d', loop]);
    },
  };
}

const exfatSkip = exfatMissing();

it.skipIf(exfatSkip !== undefined)(
  `compares names without case on a file system that ignores it (exFAT${exfatSkip === undefined ? '' : `; ${exfatSkip}`})`,
  (context) => {
    const disk = mountExfat();
    if (disk === undefined) {
      context.skip('no loop device or FUSE on this machine');
      return;
    }
    try {
      const { mountPoint } = disk;
      mkdirSync(join(mountPoint, 'Photos', 'Trips'), { recursive: true });
      const photos = folderPlace(join(mountPoint, 'Photos'));
      expect(photos.keys.at(-1)).toBe('photos');
      expect(folderPlace(join(mountPoint, 'PHOTOS')).keys).toEqual(photos.keys);
      // A missing folder below takes the rule of the folder above it.
      expect(folderPlace(join(mountPoint, 'photos', 'Later')).keys).toEqual([...photos.keys, 'later']);
      // The mount point's own name lives on the disk above, which keeps case.
      expect(photos.keys.at(-2)).toBe('mnt');
      const pairs = [{ localRoot: join(mountPoint, 'Photos'), remoteFolder: '/Photos' }];
      const profile = join(dir, 'profile');
      const overlap = (localRoot: string): string | undefined =>
        newPairOverlap(profile, { localRoot, remoteFolder: '/P' }, pairs)?.kind;
      expect(overlap(join(mountPoint, 'photos'))).toBe('same-folder');
      expect(overlap(join(mountPoint, 'PHOTOS', 'trips'))).toBe('in-folder');
      expect(overlap(join(mountPoint, 'Music'))).toBeUndefined();
    } finally {
      disk.unmount();
    }
  },
);

function names(path: string): string[] {
  return path.split('/').filter((name) => name !== '');
}
