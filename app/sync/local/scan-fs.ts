// The file system calls the local scan makes: a seam so tests can make files vanish mid-scan.
import type { BigIntStats, Dirent } from 'node:fs';
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';

/** The file system calls the scanner makes: a seam so tests can make files vanish mid-scan. */
export interface ScanFs {
  /** Follows symlinks (the root may be one); undefined when nothing is there. */
  stat(path: string): BigIntStats | undefined;
  /** Does not follow symlinks; undefined when nothing is there. */
  lstat(path: string): BigIntStats | undefined;
  readdir(path: string): Dirent[];
  readText(path: string): string;
}

export const nodeScanFs: ScanFs = {
  stat: (path) => statSync(path, { bigint: true, throwIfNoEntry: false }),
  lstat: (path) => lstatSync(path, { bigint: true, throwIfNoEntry: false }),
  readdir: (path) => readdirSync(path, { withFileTypes: true }),
  readText: (path) => readFileSync(path, 'utf8'),
};

/**
 * A folder's identity that survives a rename and that a new folder cannot take over: its inode and its
 * birth time (a file system reuses an inode at once, never with the same birth). Undefined where the
 * file system keeps no birth time: there, nothing is told apart by inode.
 */
export function birthIdentity(stats: BigIntStats): string | undefined {
  return stats.birthtimeNs > 0n ? `${stats.ino}@${stats.birthtimeNs}` : undefined;
}
