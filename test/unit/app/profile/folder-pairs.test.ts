// The folder-pair registry: one file per pair, damaged files skipped, and which pair a path is in.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexFilePath } from '../../../../app/index/index-db.ts';
import {
  findPairOf,
  folderPairsDir,
  forgetFolderPair,
  listFolderPairs,
  registerFolderPair,
  type FolderPair,
} from '../../../../app/profile/folder-pairs.ts';

let home: string;
let profile: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mch-pairs-'));
  profile = join(home, 'profile');
});

afterEach(() => rmSync(home, { recursive: true, force: true }));

function pair(localRoot: string, remoteFolder = '/X'): FolderPair {
  return { localRoot, remoteFolder, indexPath: indexFilePath(profile, localRoot) };
}

describe('the registry', () => {
  it('records, updates, lists and forgets pairs, one private file each', async () => {
    await registerFolderPair(profile, { localRoot: join(home, 'B'), remoteFolder: '/B' });
    await registerFolderPair(profile, { localRoot: join(home, 'A'), remoteFolder: '/A' });
    await registerFolderPair(profile, { localRoot: join(home, 'A'), remoteFolder: '/A2' });
    const warnings: string[] = [];
    expect(listFolderPairs(profile, (m) => warnings.push(m))).toEqual([
      pair(join(home, 'A'), '/A2'),
      pair(join(home, 'B'), '/B'),
    ]);
    expect(warnings).toEqual([]);
    expect(forgetFolderPair(profile, join(home, 'A'))).toBe(true);
    expect(forgetFolderPair(profile, join(home, 'A'))).toBe(false);
    expect(listFolderPairs(profile, () => {}).map((p) => p.localRoot)).toEqual([join(home, 'B')]);
  });

  it('skips a damaged file with a warning that names it, keeping the others', async () => {
    await registerFolderPair(profile, { localRoot: join(home, 'A'), remoteFolder: '/A' });
    const damaged = join(folderPairsDir(profile), '0123456789abcdef.json');
    writeFileSync(damaged, '{"version":1,"localRoot":"relative"}');
    const warnings: string[] = [];
    expect(listFolderPairs(profile, (m) => warnings.push(m)).map((p) => p.localRoot)).toEqual([
      join(home, 'A'),
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(damaged);
  });

  it('is empty for a profile without pairs', () => {
    expect(listFolderPairs(profile, () => {})).toEqual([]);
  });
});

describe('findPairOf', () => {
  it('places a path in its pair, the folder itself included', () => {
    const pairs = [pair(join(home, 'Docs'))];
    expect(findPairOf(pairs, join(home, 'Docs', 'a', 'b.txt'))).toEqual({
      kind: 'inside',
      place: { pair: pairs[0], relativePath: 'a/b.txt' },
    });
    expect(findPairOf(pairs, join(home, 'Docs'))).toEqual({
      kind: 'inside',
      place: { pair: pairs[0], relativePath: '' },
    });
    expect(findPairOf(pairs, join(home, 'Docs2', 'x'))).toEqual({ kind: 'outside' });
    expect(findPairOf(pairs, join(home, 'x'))).toEqual({ kind: 'outside' });
    expect(findPairOf([], join(home, 'Docs'))).toEqual({ kind: 'outside' });
  });

  it('refuses the state folder at any depth', () => {
    const pairs = [pair(join(home, 'Docs'))];
    for (const path of [
      join(home, 'Docs', '.mch-sync'),
      join(home, 'Docs', 'sub', '.mch-sync', 'trash', 'x'),
    ]) {
      expect(findPairOf(pairs, path)).toEqual({ kind: 'state-folder', pair: pairs[0] });
    }
  });

  it('gives a pair nested in another its own items', () => {
    const outer = pair(join(home, 'Docs'));
    const inner = pair(join(home, 'Docs', 'Photos'));
    expect(findPairOf([outer, inner], join(home, 'Docs', 'Photos', 'p.jpg'))).toEqual({
      kind: 'inside',
      place: { pair: inner, relativePath: 'p.jpg' },
    });
  });

  it('finds a path given through a link to the synced folder, and one inside a linked folder', () => {
    const real = join(home, 'real');
    mkdirSync(join(real, 'sub'), { recursive: true });
    writeFileSync(join(real, 'sub', 'f.txt'), 'x');
    symlinkSync(real, join(home, 'alias'));
    // The pair was recorded through the link; the file manager shows the real path, and the other way round.
    const viaLink = pair(join(home, 'alias'));
    expect(findPairOf([viaLink], join(real, 'sub', 'f.txt'))).toEqual({
      kind: 'inside',
      place: { pair: viaLink, relativePath: 'sub/f.txt' },
    });
    const direct = pair(real);
    expect(findPairOf([direct], join(home, 'alias', 'sub', 'f.txt'))).toEqual({
      kind: 'inside',
      place: { pair: direct, relativePath: 'sub/f.txt' },
    });
  });
});
