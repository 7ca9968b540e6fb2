// Reading /proc/self/mountinfo: the mount points (with their escapes), types and sources.
import { describe, expect, it } from 'vitest';
import { parseMountinfo } from '../../../../app/mount/stale-mount.ts';

describe('parseMountinfo', () => {
  it('reads the mount point, type and source of each line, unescaping spaces', () => {
    const text = [
      '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw',
      '42 27 0:39 / /home/ann/My\\040Cloud rw,nosuid,nodev,relatime - fuse.mch-sync mch-sync rw,user_id=0',
      '',
    ].join('\n');
    expect(parseMountinfo(text)).toEqual([
      { mountPoint: '/', type: 'ext4', source: '/dev/sda1' },
      { mountPoint: '/home/ann/My Cloud', type: 'fuse.mch-sync', source: 'mch-sync' },
    ]);
  });
});
