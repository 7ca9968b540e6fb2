// Smoke tests of the sync benchmarks at a tiny size: the baseline uploader is correct and both benches finish.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { walkRemote } from '../../../app/sync/remote/remote-walk.ts';
import { ensureRemoteFolder } from '../../../app/sync/remote/remote-folder.ts';
import { smallFileSizes, writeTree } from '../../../bench/lib/file-tree.ts';
import { plainUpload } from '../../../bench/lib/plain-uploader.ts';
import { clientFor } from '../../helpers/api-client.ts';
import { withDevice } from '../../helpers/device.ts';
import { cliEnv, ROOT, runProcess } from '../../helpers/mch-sync.ts';

const folders: string[] = [];

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mch-bench-test-'));
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** `relative path → size` of every file below `root`. */
function localFiles(root: string): Map<string, number> {
  const files = new Map<string, number>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path.slice(root.length + 1), statSync(path).size);
  }
  return files;
}

describe('bench file tree', () => {
  it('writes the asked number of files of 1-4 KiB across the folders', () => {
    const root = tempFolder();
    const tree = writeTree(root, { files: 50, folders: 5, topFolders: 1, size: smallFileSizes() });
    const files = localFiles(root);
    expect(tree).toMatchObject({ files: 50, folders: 5 });
    expect(files.size).toBe(50);
    expect([...files.values()].every((size) => size >= 1024 && size <= 4096)).toBe(true);
    expect([...files.values()].reduce((sum, size) => sum + size, 0)).toBe(tree.bytes);
  });
});

describe('plain uploader (first-upload baseline)', () => {
  it('creates every folder and file with one multipart POST each', async () => {
    const root = tempFolder();
    writeTree(root, { files: 50, folders: 5, topFolders: 1, size: smallFileSizes() });
    await withDevice(async (device) => {
      const result = await plainUpload({
        base: device.base,
        token: device.tokenFor('alice'),
        localRoot: root,
        remoteName: 'copy',
        concurrency: 4,
      });
      expect(result).toMatchObject({ files: 50, folders: 6, requests: 56 });
      const { device: client } = clientFor(device);
      const { id } = await ensureRemoteFolder(client, '/copy');
      const { entries } = await walkRemote(client, id);
      const remote = new Map(
        [...entries.values()]
          .filter((entry) => entry.kind === 'file')
          .map((entry) => [entry.path, entry.size]),
      );
      expect(remote).toEqual(localFiles(root));
    });
  });
});

describe('sync benches at a tiny size', () => {
  const run = (bench: string, env: Record<string, string>) =>
    runProcess(process.execPath, [join(ROOT, 'bench', bench)], {
      env: cliEnv(env),
      timeoutMs: 90_000,
    });

  it('sync-pass finds nothing to do in a fresh process and with the walk cache', async () => {
    const answer = await run('sync-pass.bench.ts', {
      BENCH_SYNC_PASS_FILES: '50',
      BENCH_SYNC_PASS_RUNS: '1',
    });
    expect(answer.stderr).not.toContain('Error');
    expect(answer.code).toBe(0);
    // The bench itself fails on any write request, counted change or change to the local tree.
    expect(answer.stdout).toContain('| first pass of a fresh process (run --once) |');
    expect(answer.stdout).toMatch(/second pass, same engine .*GET 304/);
    expect(answer.stdout).toContain('| the same from the compiled build (no TypeScript loader) |');
  }, 100_000);

  it('first-upload checks that both copies hold every file', async () => {
    const answer = await run('first-upload.bench.ts', {
      BENCH_UPLOAD_FILES: '50',
      BENCH_UPLOAD_FOLDERS: '5',
      BENCH_UPLOAD_RUNS: '2',
    });
    expect(answer.stderr).not.toContain('Error');
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain('| SyncEngine.syncOnce, fresh index |');
  }, 100_000);
});
