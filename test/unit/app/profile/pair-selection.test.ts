// A pair's selection in its record: the default, kept across a new registration, and a damaged one refused rather than read as "nothing excluded".
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_SELECTION } from '../../../../app/model/selection.ts';
import { pairFilePath, registerFolderPair } from '../../../../app/profile/folder-pairs.ts';
import { readPairSelection, updatePairSelection } from '../../../../app/profile/pair-selection.ts';
import { ProfileError } from '../../../../app/profile/profile-errors.ts';

let home: string;
let profile: string;
let folder: string;

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'mch-selection-'));
  profile = join(home, 'profile');
  folder = join(home, 'Sync');
  await registerFolderPair(profile, { localRoot: folder, remoteFolder: '/Sync' });
});

afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('a pair selection', () => {
  it('is the whole folder with the 500 MB question by default', () => {
    expect(readPairSelection(profile, folder)).toEqual(EMPTY_SELECTION);
    expect(EMPTY_SELECTION.askOverBytes).toBe(500_000_000);
  });

  it('is written into the record and kept when the pair is registered again', async () => {
    await updatePairSelection(profile, folder, (before) => ({
      ...before,
      excluded: [{ path: 'Photos/2019', id: 'p19', localCopy: 'keep' }],
      askOverBytes: null,
    }));
    await registerFolderPair(profile, { localRoot: folder, remoteFolder: '/Sync' });
    expect(readPairSelection(profile, folder)).toEqual({
      excluded: [{ path: 'Photos/2019', id: 'p19', localCopy: 'keep' }],
      waiting: [],
      askOverBytes: null,
      askOverFiles: null,
    });
    const record = JSON.parse(readFileSync(pairFilePath(profile, folder), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ version: 1, localRoot: folder, remoteFolder: '/Sync' });
  });

  it('refuses a path that could leave the pair, writing nothing', async () => {
    const before = readFileSync(pairFilePath(profile, folder), 'utf8');
    for (const path of ['../elsewhere', '/abs', 'a//b', 'a/./b', '']) {
      await expect(
        updatePairSelection(profile, folder, (selection) => ({
          ...selection,
          excluded: [{ path, id: 'x', localCopy: 'keep' }],
        })),
      ).rejects.toThrow();
    }
    expect(readFileSync(pairFilePath(profile, folder), 'utf8')).toBe(before);
  });

  it('that cannot be read stops the sync instead of bringing everything down', () => {
    const path = pairFilePath(profile, folder);
    const record = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...record, selection: { excluded: 'all of it' } }));
    expect(() => readPairSelection(profile, folder)).toThrow(ProfileError);
    writeFileSync(path, '{ not json');
    expect(() => readPairSelection(profile, folder)).toThrow(ProfileError);
  });
});
