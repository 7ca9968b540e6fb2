// A profile's pairs under the overlap rule: a new pair recorded only when it overlaps none, also against one recorded meanwhile.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFolderPairs, registerFolderPair } from '../../../../app/profile/folder-pairs.ts';
import { offeredDeviceFolder, PairOverlapError, recordNewPair } from '../../../../app/profile/pair-check.ts';

let home: string;
let profile: string;

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'mch-pair-check-')));
  profile = join(home, 'profile');
  mkdirSync(join(home, 'MyCloud', 'Notes'), { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const roots = (): string[] => listFolderPairs(profile, () => {}).map((pair) => pair.localRoot);

async function refusal(action: Promise<unknown>): Promise<PairOverlapError> {
  const error = await action.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PairOverlapError);
  return error as PairOverlapError;
}

describe('recordNewPair', () => {
  it('records a pair that overlaps none', async () => {
    await recordNewPair(
      profile,
      { localRoot: join(home, 'MyCloud'), remoteFolder: '/MyCloud' },
      [],
      () => {},
    );
    expect(roots()).toEqual([join(home, 'MyCloud')]);
  });

  it('refuses a pair inside a recorded one with PAIR_OVERLAP, and records nothing', async () => {
    const myCloud = await registerFolderPair(profile, {
      localRoot: join(home, 'MyCloud'),
      remoteFolder: '/MyCloud',
    });
    const error = await refusal(
      recordNewPair(
        profile,
        { localRoot: join(home, 'MyCloud', 'Notes'), remoteFolder: '/Notes' },
        [myCloud],
        () => {},
      ),
    );
    expect(error).toMatchObject({ code: 'PAIR_OVERLAP', title: 'Folders overlap' });
    expect(error.message).toBe(
      `${join(home, 'MyCloud', 'Notes')} is inside ${join(home, 'MyCloud')}, which is synced with /MyCloud. ` +
        'Folder pairs must not overlap: choose another folder.',
    );
    expect(roots()).toEqual([join(home, 'MyCloud')]);
  });

  it('takes its record back when a pair recorded meanwhile (by another process) overlaps it', async () => {
    // What this process read before another one recorded /MyCloud: no pair at all.
    const readBefore: never[] = [];
    await registerFolderPair(profile, { localRoot: join(home, 'MyCloud'), remoteFolder: '/MyCloud' });
    const error = await refusal(
      recordNewPair(
        profile,
        { localRoot: join(home, 'MyCloud', 'Notes'), remoteFolder: '/Notes' },
        readBefore,
        () => {},
      ),
    );
    expect(error.overlap.kind).toBe('in-folder');
    expect(roots()).toEqual([join(home, 'MyCloud')]);
  });
});

describe('offeredDeviceFolder', () => {
  it('is /<name of the folder>, never the device root, or a free name beside the other pairs', () => {
    expect(offeredDeviceFolder(join(home, 'MyCloud', 'Notes/'), [])).toBe('/Notes');
    expect(
      offeredDeviceFolder(join(home, 'Notes'), [{ localRoot: join(home, 'x'), remoteFolder: '/Notes' }]),
    ).toBe('/Notes (2)');
    expect(offeredDeviceFolder('/', [])).toBe('/Computer');
  });
});
