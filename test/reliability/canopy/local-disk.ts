// Where a soak seed's local folder lives: a plain folder, or the root of a disk of its own (a tmpfs bind-mounted there) that can be unplugged or swapped.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bindMount, mountTmpfs, mountUnavailable, unmountAll } from '../../helpers/mounts.ts';
import type { LocalSide } from './apply.ts';

let probed: { problem: string | undefined } | undefined;

/** Why this machine cannot mount (not root, not Linux), or undefined when it can; probed once. */
export function mountsUnavailable(): string | undefined {
  probed ??= { problem: mountUnavailable() };
  return probed.problem;
}

/** The user's own trash at the top of a disk (freedesktop.org trash spec 1.0, "Trash directories"). */
export const UID = process.getuid?.() ?? 0;

export interface LocalPlace {
  local: LocalSide;
  /** Whether the folder is the root of a disk (a tmpfs of its own). */
  onDisk: boolean;
  /**
   * Folders whose files the user still has outside the synced tree: the trash folders a delete may
   * use, and (added by root-change.ts) a folder moved aside or a disk unplugged for good.
   */
  offTree: string[];
  /** The disk is unplugged: its folder is gone from the path, the bare mount point is left. */
  unplug(): void;
  plugBack(): void;
  /** Another disk plugged in at the folder's path (the first unplugged); `swapBack` undoes it. */
  swapDisk(): void;
  swapBack(): void;
  /** The folder on the first disk (to read it while another disk is at the path). */
  readonly firstDiskFolder: string | undefined;
  /** Unmounts everything (the service must have let go of the folder). */
  cleanup(): void;
}

/**
 * The local folder (and its scratch folder for atomic saves, on the same file system) under `work`.
 * `disk`: on a tmpfs of its own, bind-mounted at the folder's path, the scratch folder beside it on
 * that disk; `sharedTrash`: with an administrator's sticky `.Trash` at the top of the disk.
 */
export function placeLocal(work: string, options: { disk: boolean; sharedTrash?: boolean }): LocalPlace {
  const root = join(work, 'local');
  const local: LocalSide = { root, scratch: join(work, 'scratch') };
  mkdirSync(root, { recursive: true });
  const trashOf = (top: string): string[] => [
    join(top, `.Trash-${UID}`, 'files'),
    join(top, '.Trash', String(UID), 'files'),
  ];
  const offTree = [join(root, '.mch-sync', 'trash'), ...trashOf(root)];
  const mounted: string[] = [];
  const disks = [join(work, 'disk'), join(work, 'disk2')];
  const makeDisk = (disk: string): void => {
    mountTmpfs(disk, 64);
    mounted.push(disk);
    mkdirSync(join(disk, 'synced'));
  };
  const plugIn = (disk: string): void => {
    bindMount(join(disk, 'synced'), root);
    local.saveBeside = true;
  };
  mkdirSync(local.scratch, { recursive: true });
  if (options.disk) {
    const [first = ''] = disks;
    makeDisk(first);
    plugIn(first);
    if (options.sharedTrash === true) {
      // Spec: `$topdir/.Trash` with the sticky bit, not a symlink, holds one folder per user.
      mkdirSync(join(root, '.Trash'));
      chmodSync(join(root, '.Trash'), 0o1777);
    }
  }
  const [first = '', second = ''] = disks;
  return {
    local,
    onDisk: options.disk,
    offTree,
    unplug: () => detach(root),
    plugBack: () => plugIn(first),
    swapDisk: () => {
      detach(root);
      makeDisk(second);
      plugIn(second);
    },
    swapBack: () => {
      detach(root);
      plugIn(first);
    },
    firstDiskFolder: options.disk ? join(first, 'synced') : undefined,
    cleanup: () => {
      if (!options.disk) return;
      unmountAll(root);
      for (const disk of mounted.reverse()) unmountAll(disk);
      // Something still open there (a watcher's descriptor): detached now, freed when it closes.
      for (const at of [root, ...mounted]) if (isMountPoint(at)) detach(at, true);
    },
  };
}

function detach(at: string, lazy = false): void {
  const result = spawnSync('umount', lazy ? ['-l', at] : [at], { encoding: 'utf8' });
  if (result.status !== 0 && !lazy) {
    const again = spawnSync('umount', ['-l', at], { encoding: 'utf8' });
    if (again.status !== 0) throw new Error(`umount ${at}: ${result.stderr.trim()}`);
  }
}

function isMountPoint(path: string): boolean {
  try {
    return statSync(path).dev !== statSync(dirname(path)).dev;
  } catch {
    return false;
  }
}
