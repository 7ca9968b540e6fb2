// The rule that folder pairs never overlap, as a pure function of the pairs' places: every case and its words.
import { describe, expect, it } from 'vitest';
import type { FolderPlace } from '../../../../app/profile/folder-place.ts';
import {
  freeDeviceFolder,
  notSyncedMessage,
  overlappingPairs,
  pairOverlap,
  refusalMessage,
  type PlacedPair,
} from '../../../../app/profile/pair-overlap.ts';

/**
 * A place as folderPlace makes it: `real` is where the links lead (the path itself without links), and
 * on a file system that ignores case the keys are in lower case.
 */
function place(path: string, options: { real?: string; ignoresCase?: boolean } = {}): FolderPlace {
  const real = options.real ?? path;
  const names = real.split('/').filter((name) => name !== '');
  return {
    path,
    real,
    keys: ['/', ...names.map((name) => (options.ignoresCase === true ? name.toLowerCase() : name))],
  };
}

function pair(
  localRoot: string,
  remoteFolder: string,
  options: { real?: string; ignoresCase?: boolean } = {},
): PlacedPair {
  return { localRoot, remoteFolder, local: place(localRoot, options) };
}

const context = { profile: place('/home/ann/.config/mch-sync') };
const myCloud = pair('/home/ann/MyCloud', '/MyCloud');

describe('local folders', () => {
  it('refuses a folder inside another pair’s, saying which pair', () => {
    expect(pairOverlap(pair('/home/ann/MyCloud/Notes', '/Notes'), [myCloud], context)).toEqual({
      kind: 'in-folder',
      other: { localRoot: '/home/ann/MyCloud', remoteFolder: '/MyCloud' },
      reason: '/home/ann/MyCloud/Notes is inside /home/ann/MyCloud, which is synced with /MyCloud.',
    });
  });

  it('refuses a folder around another pair’s', () => {
    const music = pair('/data/share/Music', '/Music');
    expect(pairOverlap(pair('/data/share', '/Share'), [music], context)).toMatchObject({
      kind: 'holds-folder',
      reason: '/data/share holds /data/share/Music, which is synced with /Music.',
    });
  });

  it('refuses the same folder reached through a link', () => {
    const viaLink = pair('/home/ann/cloud-link', '/Other', { real: '/home/ann/MyCloud' });
    expect(pairOverlap(viaLink, [myCloud], context)).toMatchObject({
      kind: 'same-folder',
      reason: '/home/ann/cloud-link is the same folder as /home/ann/MyCloud, which is synced with /MyCloud.',
    });
  });

  it('refuses a folder inside another pair’s through a link', () => {
    const nested = pair('/home/ann/link/Notes', '/Notes', { real: '/home/ann/MyCloud/Notes' });
    expect(pairOverlap(nested, [myCloud], context)?.kind).toBe('in-folder');
  });

  it('accepts siblings with a common prefix, both ways', () => {
    const b = pair('/a/b', '/B');
    const bc = pair('/a/bc', '/BC');
    expect(pairOverlap(bc, [b], context)).toBeUndefined();
    expect(pairOverlap(b, [bc], context)).toBeUndefined();
  });

  it('compares case only where the file system ignores it', () => {
    const photos = pair('/Users/ann/Photos', '/Photos', { ignoresCase: true });
    const lower = pair('/Users/ann/photos', '/Pictures', { ignoresCase: true });
    expect(pairOverlap(lower, [photos], context)?.kind).toBe('same-folder');
    const sensitive = pair('/home/ann/Photos', '/Photos');
    const other = pair('/home/ann/photos', '/Pictures');
    expect(pairOverlap(other, [sensitive], context)).toBeUndefined();
  });

  it('does not compare a pair with its own earlier record', () => {
    expect(pairOverlap(myCloud, [myCloud], context)).toBeUndefined();
  });
});

describe('the profile and state folders', () => {
  it('refuses a folder inside the profile folder, or the profile folder itself', () => {
    for (const localRoot of ['/home/ann/.config/mch-sync/logs', '/home/ann/.config/mch-sync']) {
      expect(pairOverlap(pair(localRoot, '/Logs'), [], context)).toEqual({
        kind: 'in-profile',
        other: null,
        reason: `${localRoot} is inside the profile folder /home/ann/.config/mch-sync, which holds mch-sync's index and logs.`,
      });
    }
  });

  it('refuses a folder around the profile folder: its index and logs would be synced', () => {
    expect(pairOverlap(pair('/home/ann/.config', '/Config'), [], context)).toMatchObject({
      kind: 'holds-profile',
      reason:
        '/home/ann/.config holds the profile folder /home/ann/.config/mch-sync: its index and logs would be synced too.',
    });
    // `/` holds everything, the profile first.
    expect(pairOverlap(pair('/', '/Everything'), [], context)?.kind).toBe('holds-profile');
  });

  it('refuses a folder in a state folder at any depth, given or reached through a link', () => {
    for (const candidate of [
      pair('/home/ann/MyCloud/.mch-sync', '/S'),
      pair('/data/x/.mch-sync/trash/2026', '/S'),
      pair('/home/ann/trash-link', '/S', { real: '/data/x/.mch-sync/trash' }),
    ]) {
      expect(pairOverlap(candidate, [], context), candidate.localRoot).toMatchObject({
        kind: 'in-state-folder',
        other: null,
      });
    }
    expect(pairOverlap(pair('/data/x/.mch-sync/t', '/S'), [], context)?.reason).toBe(
      "/data/x/.mch-sync/t is inside a .mch-sync folder, where a synced folder keeps mch-sync's own state.",
    );
  });

  it('knows `.MCH-SYNC` as the state folder only where the file system ignores case', () => {
    const upper = '/Volumes/usb/.MCH-SYNC/x';
    expect(pairOverlap(pair(upper, '/S', { ignoresCase: true }), [], context)?.kind).toBe('in-state-folder');
    expect(pairOverlap(pair(upper, '/S'), [], context)).toBeUndefined();
  });
});

describe('device folders', () => {
  const photos = pair('/home/ann/Photos', '/Photos');

  it('refuses the same device folder', () => {
    expect(pairOverlap(pair('/home/ann/Pictures', '/Photos'), [photos], context)).toEqual({
      kind: 'same-device-folder',
      other: { localRoot: '/home/ann/Photos', remoteFolder: '/Photos' },
      reason: '/Photos on the device is synced with /home/ann/Photos already.',
    });
  });

  it('refuses a device folder inside or around another pair’s', () => {
    expect(pairOverlap(pair('/home/ann/2024', '/Photos/2024'), [photos], context)).toMatchObject({
      kind: 'in-device-folder',
      reason: '/Photos/2024 on the device is inside /Photos, which is synced with /home/ann/Photos.',
    });
    const trips = pair('/home/ann/Trips', '/Photos/Trips');
    expect(pairOverlap(pair('/home/ann/Pictures', '/Photos'), [trips], context)?.kind).toBe(
      'holds-device-folder',
    );
  });

  it('takes the device root as around every folder', () => {
    expect(pairOverlap(pair('/home/ann/All', '/'), [photos], context)).toMatchObject({
      kind: 'holds-device-folder',
      reason: '/ (the whole device) on the device holds /Photos, which is synced with /home/ann/Photos.',
    });
    const whole = pair('/home/ann/All', '/');
    expect(pairOverlap(pair('/home/ann/Notes', '/Notes'), [whole], context)).toMatchObject({
      kind: 'in-device-folder',
      reason: '/Notes on the device is inside / (the whole device), which is synced with /home/ann/All.',
    });
  });

  it('compares device names exactly: the device is case-sensitive', () => {
    expect(pairOverlap(pair('/home/ann/p', '/photos'), [photos], context)).toBeUndefined();
    expect(pairOverlap(pair('/home/ann/p', '/Photos2'), [photos], context)).toBeUndefined();
  });

  it('reports the local overlap first when both overlap', () => {
    expect(pairOverlap(pair('/home/ann/Photos/x', '/Photos/x'), [photos], context)?.kind).toBe('in-folder');
  });
});

describe('overlapping pairs already recorded', () => {
  it('marks both of two pairs that overlap, and a pair wrong on its own, and leaves the rest', () => {
    const pairs = [
      myCloud,
      pair('/home/ann/MyCloud/Notes', '/MyCloud/Notes'),
      pair('/home/ann/Music', '/Music'),
      pair('/home/ann/.config/mch-sync/x', '/X'),
    ];
    const found = overlappingPairs(pairs, context);
    expect([...found.keys()].sort()).toEqual([
      '/home/ann/.config/mch-sync/x',
      '/home/ann/MyCloud',
      '/home/ann/MyCloud/Notes',
    ]);
    expect(found.get('/home/ann/MyCloud')).toMatchObject({
      kind: 'holds-folder',
      other: { localRoot: '/home/ann/MyCloud/Notes' },
    });
  });

  it('says how to fix it: remove one of the two pairs', () => {
    const overlap = pairOverlap(pair('/home/ann/My Notes', '/MyCloud'), [myCloud], context);
    expect(overlap).toBeDefined();
    expect(notSyncedMessage('/home/ann/My Notes', overlap!)).toBe(
      'Not synced: /MyCloud on the device is synced with /home/ann/MyCloud already. Folder pairs must not ' +
        "overlap: remove one of the two (mch-sync folders remove --folder '/home/ann/My Notes' or " +
        "mch-sync folders remove --folder /home/ann/MyCloud, or Remove in the window's settings), and the " +
        'other syncs again.',
    );
    const alone = pairOverlap(pair('/home/ann/.config', '/C'), [], context);
    expect(notSyncedMessage('/home/ann/.config', alone!)).toContain(
      "Remove this pair (mch-sync folders remove --folder /home/ann/.config, or Remove in the window's settings)",
    );
  });

  it('says what to choose instead for a new pair', () => {
    const local = pairOverlap(pair('/home/ann/MyCloud/Notes', '/Notes'), [myCloud], context);
    expect(refusalMessage(local!)).toBe(
      '/home/ann/MyCloud/Notes is inside /home/ann/MyCloud, which is synced with /MyCloud. Folder pairs must ' +
        'not overlap: choose another folder.',
    );
    const device = pairOverlap(pair('/home/ann/Notes', '/MyCloud/Notes'), [myCloud], context);
    expect(refusalMessage(device!)).toMatch(/choose another device folder\.$/);
  });
});

describe('freeDeviceFolder', () => {
  it('offers /<name> when it is apart from every pair', () => {
    expect(freeDeviceFolder('Notes', [])).toBe('/Notes');
    expect(freeDeviceFolder('Notes', [{ remoteFolder: '/Notes2' }, { remoteFolder: '/notes' }])).toBe(
      '/Notes',
    );
  });

  it('offers the next free name when /<name> is another pair’s, inside or around one', () => {
    expect(freeDeviceFolder('Notes', [{ remoteFolder: '/Notes' }])).toBe('/Notes (2)');
    expect(freeDeviceFolder('Notes', [{ remoteFolder: '/Notes/Work' }])).toBe('/Notes (2)');
    expect(freeDeviceFolder('Notes', [{ remoteFolder: '/Notes' }, { remoteFolder: '/Notes (2)' }])).toBe(
      '/Notes (3)',
    );
  });

  it('offers nothing when a pair syncs the whole device', () => {
    expect(freeDeviceFolder('Notes', [{ remoteFolder: '/' }])).toBeUndefined();
  });
});
