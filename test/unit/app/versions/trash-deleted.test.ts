// Files deleted here and still in the OS trash: found by where they were, newest first, and put back (refused over something new).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { moveToTrash } from '../../../../app/sync/trash/local-trash.ts';
import { listTrashed, restoreTrashed } from '../../../../app/versions/trash-deleted.ts';

let dir: string;
let folder: string;
let env: Record<string, string>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mch-trashed-'));
  folder = join(dir, 'Sync');
  env = { HOME: join(dir, 'home') };
  mkdirSync(join(folder, 'docs'), { recursive: true });
  mkdirSync(env['HOME']!, { recursive: true });
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function trash(path: string, text: string, atMs: number): Promise<void> {
  writeFileSync(join(folder, path), text);
  await moveToTrash(join(folder, path), { syncRoot: folder, env, now: () => atMs, platform: 'linux' });
}

describe('files deleted here, in the trash', () => {
  it('lists what came from the folder, newest first, within a folder and a time', async () => {
    await trash('a.txt', 'alpha', Date.parse('2026-11-01T10:00:00'));
    await trash('docs/b.txt', 'beta', Date.parse('2026-11-02T10:00:00'));
    // Something trashed from elsewhere is not the pair's.
    mkdirSync(join(dir, 'Other'));
    writeFileSync(join(dir, 'Other', 'c.txt'), 'x');
    await moveToTrash(join(dir, 'Other', 'c.txt'), { syncRoot: join(dir, 'Other'), env, platform: 'linux' });
    const all = await listTrashed(folder, { env });
    expect(all.map((entry) => [entry.path, entry.size, entry.kind])).toEqual([
      ['docs/b.txt', 4, 'file'],
      ['a.txt', 5, 'file'],
    ]);
    expect((await listTrashed(folder, { env }, 'docs')).map((entry) => entry.path)).toEqual(['docs/b.txt']);
    const since = Date.parse('2026-11-01T12:00:00');
    expect((await listTrashed(folder, { env }, '', since)).map((entry) => entry.path)).toEqual([
      'docs/b.txt',
    ]);
  });

  it('puts one back where it was, its info file gone; refuses when something new is there', async () => {
    await trash('docs/b.txt', 'beta', Date.now());
    rmSync(join(folder, 'docs'), { recursive: true });
    const [entry] = await listTrashed(folder, { env });
    await restoreTrashed(folder, entry!);
    expect(readFileSync(join(folder, 'docs', 'b.txt'), 'utf8')).toBe('beta');
    expect(existsSync(entry!.infoFile)).toBe(false);
    expect(await listTrashed(folder, { env })).toEqual([]);

    await trash('a.txt', 'old', Date.now());
    writeFileSync(join(folder, 'a.txt'), 'new');
    const [again] = await listTrashed(folder, { env });
    await expect(restoreTrashed(folder, again!)).rejects.toMatchObject({ code: 'DESTINATION_EXISTS' });
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('new');
  });
});
