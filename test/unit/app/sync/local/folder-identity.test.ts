// What counts as another folder: a device number alone is not the disk, the pair's marker at the same inode is.
import { describe, expect, it } from 'vitest';
import {
  folderChange,
  type FolderIdentity,
  type FolderOnDisk,
} from '../../../../../app/sync/local/folder-identity.ts';

const RECORDED: FolderIdentity = { marker: 'm1', device: '2049', inode: '2', fileSystem: 'ext4' };

function now(change: Partial<FolderOnDisk>): FolderOnDisk {
  return { marker: 'm1', device: '2049', inode: '2', fileSystem: 'ext4', ...change };
}

describe('folderChange', () => {
  it('is no change for the recorded folder', () => {
    expect(folderChange(RECORDED, now({}))).toBeUndefined();
  });

  it('takes the pair marker at the same root inode on a renumbered device as the same folder', () => {
    // A USB disk in another port, a btrfs subvolume after a reboot.
    expect(folderChange(RECORDED, now({ device: '2065' }))).toBeUndefined();
    expect(folderChange(RECORDED, now({ device: '2065', fileSystem: undefined }))).toBeUndefined();
  });

  it.each<[string, Partial<FolderOnDisk>]>([
    ['no marker (the bare mount point)', { device: '2065', marker: undefined }],
    ['another folder marker (another disk)', { device: '2065', marker: 'm2' }],
    ['another root inode', { device: '2065', inode: '5' }],
    ['another kind of file system', { device: '2065', fileSystem: 'vfat' }],
  ])('holds another device number with %s as another file system', (_, change) => {
    expect(folderChange(RECORDED, now(change))).toBe('other-file-system');
  });

  it('has only the device number for a folder recorded without a marker (a read-only disk)', () => {
    const readOnly: FolderIdentity = { ...RECORDED, marker: '' };
    expect(folderChange(readOnly, now({ marker: undefined }))).toBeUndefined();
    expect(folderChange(readOnly, now({ marker: undefined, device: '2065' }))).toBe('other-file-system');
  });

  it('tells a copy, a missing marker and another marker apart on the same device', () => {
    expect(folderChange(RECORDED, now({ inode: '77' }))).toBe('replaced');
    expect(folderChange(RECORDED, now({ marker: undefined }))).toBe('marker-missing');
    expect(folderChange(RECORDED, now({ marker: 'm2' }))).toBe('marker-other');
  });
});
