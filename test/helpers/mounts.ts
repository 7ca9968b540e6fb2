// Real mounts for tests of a synced folder on its own file system (a USB disk): tmpfs and bind mounts, root only.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why mounting cannot be tested here, or undefined when it can (root, and a tmpfs mounts). */
export function mountUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'mounts are tested on Linux only';
  if (process.getuid?.() !== 0) return 'mounting needs root (CI runs as root)';
  const probe = mkdtempSync(join(tmpdir(), 'mch-mount-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], {
      encoding: 'utf8',
    });
    if (mounted.status !== 0) return `mount -t tmpfs failed here: ${mounted.stderr.trim()}`;
    spawnSync('umount', [probe]);
    return undefined;
  } finally {
    rmdirSync(probe);
  }
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr.trim()}`);
}

export function mountTmpfs(at: string, sizeMb = 32): void {
  mkdirSync(at, { recursive: true });
  run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', at]);
}

export function bindMount(from: string, at: string): void {
  run('mount', ['--bind', from, at]);
}

export function unmount(at: string): void {
  run('umount', [at]);
}

/** Unmounts everything mounted at `at` (stacked mounts too); quiet when nothing is. */
export function unmountAll(at: string): void {
  for (let n = 0; n < 8; n++) {
    if (spawnSync('umount', [at]).status !== 0) return;
  }
}
