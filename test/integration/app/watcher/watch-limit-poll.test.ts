// The live service under a real inotify watch limit too low for its tree: the user is told once, with the command, and polls sync the unwatched folders.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe as group, expect, it } from 'vitest';
import { ROOT } from '../../../helpers/mch-sync.ts';

/** Since Linux 5.11 each user namespace has its own inotify watch limit, writable by its owner. */
function namespacesWork(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = spawnSync(
    'unshare',
    ['-U', '-r', 'sh', '-c', 'echo 5 > /proc/sys/user/max_inotify_watches'],
    { stdio: 'ignore' },
  );
  return probe.status === 0;
}

/**
 * Inside the namespace: the real device and the live service (its default watcher) over `folders`
 * folders under `top/`. Once synced, only the folders left unwatched change (an edit, a new file, a
 * new folder): a change in a watched one would make the poll read around it on the device's side
 * too. Then a folder made later, when no watch is left, and a change in it. Each step waits until
 * both sides match. Prints one JSON line.
 */
const CHILD = `
import { startLocalWatcher } from './app/watcher/local-watcher.ts';
import { startTestDevice } from './test/helpers/device.ts';
import { LivePair, waitFor } from './test/helpers/live-pair.ts';
const folders = Number(process.argv[1]);
const device = await startTestDevice();
let watcher;
const live = new LivePair(device, { pollMs: 200, watch: (options) => (watcher = startLocalWatcher(options)) });
const { pair } = live;
const rescans = (from) =>
  pair.logLines.slice(from).map((line) => line.message).filter((message) => message.startsWith('full rescan'));
const seen = {};
try {
  for (let index = 0; index < folders; index += 1) pair.writeLocal('top/f' + index + '/a.txt', 'first');
  await live.start({ synced: true });
  // The rescan the limit asks for may come after the first pass: it must be over before the changes,
  // or it would read them itself.
  await waitFor('the watch-limit rescan', () =>
    rescans(0).some((message) => message.startsWith('full rescan (watch-limit)')) ? true : undefined,
  );
  await live.waitUntilSynced('the watch-limit rescan to end');
  seen.unwatched = watcher.unwatchedPaths();
  seen.detail = live.live.status().detail;
  seen.rescansAtStart = rescans(0);
  const mark = pair.logLines.length;
  for (const folder of seen.unwatched) {
    pair.writeLocal(folder + '/a.txt', 'edited');
    pair.writeLocal(folder + '/new.txt', 'new');
    pair.writeLocal(folder + '/sub/deep.txt', 'deep');
  }
  seen.changed = await live.waitUntilSynced('the changes in the unwatched folders to reach the device');
  pair.writeLocal('top/late/x.txt', 'late');
  await live.waitUntilSynced('the folder made later to reach the device');
  seen.unwatchedLater = watcher.unwatchedPaths();
  pair.writeLocal('top/late/x.txt', 'late, edited');
  pair.writeLocal('top/late/y.txt', 'late too');
  seen.late = await live.waitUntilSynced('the changes in the folder made later to reach the device');
  seen.rescansAfter = rescans(mark);
} finally {
  await live.close();
  await device.stop();
}
console.log(JSON.stringify(seen));
`;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

group('the live service at the inotify watch limit', () => {
  it.skipIf(!namespacesWork())(
    'tells the user once, with the command, and syncs changes in the unwatched folders through polls',
    () => {
      // The device's data, the pair's folders: everything the child makes is under here.
      const scratch = mkdtempSync(join(tmpdir(), 'mch-watch-limit-poll-'));
      cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
      // 14 folders (the root, top, 12 below it) and 12 watches: two folders under top/ are not
      // watched, few enough to be listed one by one. Which ones depends on the order of the watcher's walk.
      const folders = 12;
      const limit = 12;
      const script = `echo ${limit} > /proc/sys/user/max_inotify_watches && exec "$0" --input-type=module -e "$1" "$2"`;
      const child = spawnSync(
        'unshare',
        ['-U', '-r', 'sh', '-c', script, process.execPath, CHILD, String(folders)],
        {
          cwd: ROOT,
          env: { ...process.env, TMPDIR: scratch },
          encoding: 'utf8',
          timeout: 180_000,
        },
      );
      expect(child.status, `${child.stderr}\n${child.stdout}`).toBe(0);
      const seen = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as {
        unwatched: string[];
        detail: string | null;
        rescansAtStart: string[];
        changed: Record<string, string>;
        unwatchedLater: string[];
        late: Record<string, string>;
        rescansAfter: string[];
      };
      expect(seen.unwatched).toHaveLength(2);
      expect(seen.unwatched.every((folder) => /^top\/f\d+$/.test(folder))).toBe(true);
      // Told once, with the command that raises the limit.
      expect(seen.rescansAtStart.filter((line) => line.startsWith('full rescan (watch-limit)'))).toHaveLength(
        1,
      );
      expect(seen.detail).toContain('sudo sysctl fs.inotify.max_user_watches=');
      // Every change in the unwatched folders reached the device (both sides matched with them), and no
      // full rescan, which would have read them too, ran meanwhile: polls brought them.
      for (const folder of seen.unwatched) {
        expect(seen.changed[`${folder}/a.txt`]).toBe('edited');
        expect(seen.changed[`${folder}/new.txt`]).toBe('new');
        expect(seen.changed[`${folder}/sub/deep.txt`]).toBe('deep');
      }
      // The folder made later is not watched either, and is read by the polls too.
      expect(seen.unwatchedLater).toEqual([...seen.unwatched, 'top/late'].sort());
      expect(seen.late['top/late/x.txt']).toBe('late, edited');
      expect(seen.late['top/late/y.txt']).toBe('late too');
      expect(seen.rescansAfter).toEqual([]);
    },
    200_000,
  );
});
