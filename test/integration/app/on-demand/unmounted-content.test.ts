// What is saved in an on-demand folder while it is not mounted moves into the cache folder: new names, merged folders, taken names kept beside.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adoptUnmountedContent } from '../../../../app/on-demand/unmounted-content.ts';

describe('adoptUnmountedContent', () => {
  let root: string;
  let folder: string;
  let cache: string;
  const at = (): Date => new Date(2026, 10, 28, 10, 15, 0);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mch-unmounted-'));
    folder = join(root, 'Folder');
    cache = join(root, 'cache');
    mkdirSync(folder);
    mkdirSync(join(cache, 'Photos'), { recursive: true });
    mkdirSync(join(cache, '.mch-sync'));
    writeFileSync(join(cache, '.mch-sync', 'folder-id'), 'the cache folder’s');
    writeFileSync(join(cache, 'plan.txt'), 'the device’s plan');
    writeFileSync(join(cache, 'Photos', 'a.jpg'), 'the device’s a');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('moves new files and folders by rename, merges a folder of the same name, and keeps a taken name beside', async () => {
    writeFileSync(join(folder, 'new.txt'), 'saved while unmounted');
    const inode = statSync(join(folder, 'new.txt')).ino;
    mkdirSync(join(folder, 'Drafts'));
    writeFileSync(join(folder, 'Drafts', 'd.txt'), 'draft');
    mkdirSync(join(folder, 'Photos'));
    writeFileSync(join(folder, 'Photos', 'b.jpg'), 'mine b');
    writeFileSync(join(folder, 'Photos', 'a.jpg'), 'mine a');
    writeFileSync(join(folder, 'plan.txt'), 'my plan');

    const adopted = await adoptUnmountedContent(folder, cache, at);

    expect(readdirSync(folder)).toEqual([]);
    expect(statSync(join(cache, 'new.txt')).ino).toBe(inode);
    expect(readFileSync(join(cache, 'Drafts', 'd.txt'), 'utf8')).toBe('draft');
    expect(readFileSync(join(cache, 'Photos', 'b.jpg'), 'utf8')).toBe('mine b');
    // Both kept: the device's under its name, this one as a conflicted copy.
    expect(readFileSync(join(cache, 'Photos', 'a.jpg'), 'utf8')).toBe('the device’s a');
    expect(readFileSync(join(cache, 'plan.txt'), 'utf8')).toBe('the device’s plan');
    const copy = 'plan (conflicted copy 2026-11-28 101500).txt';
    expect(readFileSync(join(cache, copy), 'utf8')).toBe('my plan');
    expect(adopted.moved.sort()).toEqual(['Drafts', 'Photos/b.jpg', 'new.txt']);
    expect(adopted.keptBeside).toEqual(
      expect.arrayContaining([
        { path: 'plan.txt', as: copy },
        { path: 'Photos/a.jpg', as: 'Photos/a (conflicted copy 2026-11-28 101500).jpg' },
      ]),
    );
  });

  it('never moves a state folder in the folder, and does nothing in an empty folder', async () => {
    expect(await adoptUnmountedContent(folder, cache, at)).toEqual({ moved: [], keptBeside: [] });
    mkdirSync(join(folder, '.mch-sync'));
    writeFileSync(join(folder, '.mch-sync', 'folder-id'), 'another');
    expect(await adoptUnmountedContent(folder, cache, at)).toEqual({ moved: [], keptBeside: [] });
    expect(readFileSync(join(cache, '.mch-sync', 'folder-id'), 'utf8')).toBe('the cache folder’s');
    expect(readdirSync(folder)).toEqual(['.mch-sync']);
  });

  it('says what it could not move, with MOUNT_POINT_NOT_EMPTY, and keeps it where it is', async () => {
    writeFileSync(join(folder, 'stays.txt'), 'mine');
    rmSync(cache, { recursive: true });
    const error = await adoptUnmountedContent(folder, cache, at).then(
      () => undefined,
      (failure: unknown) => failure as { code?: string; message?: string },
    );
    expect(error?.code).toBe('MOUNT_POINT_NOT_EMPTY');
    expect(error?.message).toContain('"stays.txt"');
    expect(readFileSync(join(folder, 'stays.txt'), 'utf8')).toBe('mine');
  });
});
