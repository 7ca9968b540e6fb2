// Clears a mount left behind by a mount process that died (its folder answers ENOTCONN until unmounted).
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';

/** How /proc/self/mountinfo writes a path: space, tab, newline and backslash as octal escapes. */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

export interface MountEntry {
  readonly mountPoint: string;
  /** `fuse.mch-sync` for ours. */
  readonly type: string;
  /** `mch-sync` for ours. */
  readonly source: string;
}

/** The mounts of a /proc/<pid>/mountinfo text: field 5 is the mount point, then after `-` type and source. */
export function parseMountinfo(mountinfo: string): MountEntry[] {
  return mountinfo.split('\n').flatMap((line) => {
    const fields = line.split(' ');
    const dash = fields.indexOf('-', 6);
    const mountPoint = fields[4];
    if (mountPoint === undefined || dash < 0) return [];
    return [
      {
        mountPoint: unescapeMountPath(mountPoint),
        type: fields[dash + 1] ?? '',
        source: unescapeMountPath(fields[dash + 2] ?? ''),
      },
    ];
  });
}

/** Whether one of our mounts (fsname mch-sync) is at `mountPoint` now, by this process's view. */
export async function isOurMount(mountPoint: string): Promise<boolean> {
  const text = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const path = resolve(mountPoint);
  return parseMountinfo(text).some(
    (entry) => entry.mountPoint === path && (entry.type === 'fuse.mch-sync' || entry.source === 'mch-sync'),
  );
}

async function gone(path: string): Promise<boolean> {
  const dead = await stat(path).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === 'ENOTCONN',
  );
  return !dead && !(await isOurMount(path));
}

function run(command: string, args: string[]): Promise<boolean> {
  return new Promise((done) => {
    execFile(command, args, { timeout: 30_000 }, (error) => done(error === null));
  });
}

/**
 * If `mountPoint` is a dead mount (stat answers ENOTCONN) or one of ours left behind (listed in
 * /proc/self/mountinfo as fuse.mch-sync; another file system mounted there is left alone), detaches it with `fusermount -uz`, else `fusermount3 -uz`, else `umount -l`.
 * True when a mount was there and is gone; false when there was none. Never call it on a mount this
 * process serves: the stat would wait for itself.
 */
export async function cleanStaleMount(mountPoint: string): Promise<boolean> {
  const path = resolve(mountPoint);
  const dead = await stat(path).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === 'ENOTCONN',
  );
  if (!dead && !(await isOurMount(path))) return false;
  // A dead mount of another FUSE program is cleared too: nothing can use the folder until it is.
  for (const [command, args] of [
    ['fusermount', ['-u', '-z', '--', path]],
    ['fusermount3', ['-u', '-z', '--', path]],
    ['umount', ['-l', path]],
  ] as const) {
    if ((await run(command, [...args])) && (await gone(path))) return true;
  }
  return gone(path);
}
