// The inotify watch limit reached, for real: chokidar 6 with the service's options in a user namespace whose limit is lowered, so no other process of this user is short of watches.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe as group, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { ROOT } from '../../../helpers/mch-sync.ts';

/** Since Linux 5.11 each user namespace has its own inotify watch limit, writable by its owner. */
function namespacesWork(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = spawnSync(
    'unshare',
    ['-U', '-r', 'sh', '-c', 'echo 5 > /proc/sys/user/max_inotify_watches'],
    {
      stdio: 'ignore',
    },
  );
  return probe.status === 0;
}

/**
 * Watches `root` as the live watcher configures chokidar, with `UnwatchedFolders` fed by its errors;
 * once ready, writes a file into every folder under `top/` and prints what it saw as one JSON line.
 */
const CHILD = `
import { readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { watch } from 'chokidar';
import { chokidarWatchOptions } from './app/watcher/watch-options.ts';
import { UnwatchedFolders } from './app/watcher/unwatched-folders.ts';
const [root] = process.argv.slice(1);
const unwatched = new UnwatchedFolders(root);
const failed = [];
const watcher = watch(root, chokidarWatchOptions(root));
watcher.on('error', (error) => {
  failed.push(error.code + ' ' + relative(root, error.path));
  unwatched.note(error);
});
await new Promise((ready) => watcher.once('ready', ready));
const events = [];
watcher.on('all', (event, path) => events.push(event + ' ' + path));
for (const name of readdirSync(join(root, 'top'))) writeFileSync(join(root, 'top', name, 'new.txt'), 'x');
// Until every watched folder's file is reported (a busy machine may take a while), then a little
// longer for any report from a folder that should stay silent.
const names = readdirSync(join(root, 'top'));
const expected = names.length - failed.filter((failure) => failure.includes('top/')).length;
for (let waited = 0; events.length < expected && waited < 30000; waited += 50) {
  await new Promise((done) => setTimeout(done, 50));
}
await new Promise((done) => setTimeout(done, 500));
await watcher.close();
console.log(JSON.stringify({ failed, unwatched: unwatched.size, affected: unwatched.affectedPaths(), events }));
`;

group('the inotify watch limit', () => {
  it.skipIf(!namespacesWork())(
    'chokidar reports ENOSPC once per folder it could not watch, walks on, and never reports changes there',
    ({ tempDir }) => {
      const root = tempDir;
      const folders = 30;
      for (let index = 0; index < folders; index += 1) {
        mkdirSync(join(root, 'top', `f${index}`), { recursive: true });
        writeFileSync(join(root, 'top', `f${index}`, 'a.txt'), '');
      }
      // 32 folders (the root, top, 30 below it) and 12 watches: 20 folders cannot be watched. Which
      // ones depends on the order of chokidar's walk.
      const limit = 12;
      const script = `echo ${limit} > /proc/sys/user/max_inotify_watches && exec "$0" --input-type=module -e "$1" "$2"`;
      const child = spawnSync('unshare', ['-U', '-r', 'sh', '-c', script, process.execPath, CHILD, root], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(child.status, child.stderr).toBe(0);
      const seen = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as {
        failed: string[];
        unwatched: number;
        affected: string[];
        events: string[];
      };
      expect(seen.failed).toHaveLength(folders + 2 - limit);
      expect(seen.failed.every((failure) => /^ENOSPC top\/f\d+$/.test(failure))).toBe(true);
      expect(seen.unwatched).toBe(folders + 2 - limit);
      // Every folder is either watched, and its new file reported, or unwatched and silent.
      const unwatchedFolders = new Set(seen.failed.map((failure) => failure.slice('ENOSPC '.length)));
      for (let index = 0; index < folders; index += 1) {
        const folder = `top/f${index}`;
        expect(seen.events.includes(`add ${folder}/new.txt`), folder).toBe(!unwatchedFolders.has(folder));
      }
      // The twenty unwatched folders under top/ are read as one subtree by a poll.
      expect(seen.affected).toEqual(['top']);
    },
    90_000,
  );
});
