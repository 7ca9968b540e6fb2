// The local copies of excluded folders the user kept: which files are in them, so that one moved there is not taken for deleted.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ScanResult } from '../local/scan-result.ts';
import type { AppliedSelectionStore } from './applied-selection.ts';

/**
 * The inodes of everything in the kept copies the scan skipped (`excluded`). A synced file the user
 * moved into one is gone from its place but not deleted: the round leaves it out, on both sides
 * (pass-inputs.ts). Empty, and nothing read, when no copy is kept. An entry that cannot be read is
 * passed over: at worst its move reads as a delete, which sends the device's copy to no trash but the
 * device's own (the local file is still in the kept copy).
 */
export function keptCopyInodes(localRoot: string, scan: ScanResult): Set<string> {
  const inodes = new Set<string>();
  const folders = scan.skipped
    .filter((item) => item.reason === 'excluded')
    .map((item) => join(localRoot, item.path));
  while (folders.length > 0) {
    const folder = folders.pop() as string;
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(folder, name);
      const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
      if (stats === undefined) continue;
      inodes.add(stats.ino.toString());
      if (stats.isDirectory()) folders.push(path);
    }
  }
  return inodes;
}

/**
 * After a whole scan: a kept copy the scan no longer met (the user deleted it) is forgotten, so that
 * its inode, once the file system gives it to a new folder, does not leave that folder out.
 */
export function forgetGoneKeptCopies(
  store: AppliedSelectionStore,
  localRoot: string,
  scan: ScanResult,
): void {
  const applied = store.read();
  if (!applied.folders.some((folder) => folder.keptInode !== undefined)) return;
  const present = new Set<string>();
  for (const item of scan.skipped) {
    if (item.reason !== 'excluded') continue;
    const stats = lstatSync(join(localRoot, item.path), { bigint: true, throwIfNoEntry: false });
    if (stats !== undefined) present.add(stats.ino.toString());
  }
  let changed = false;
  for (const folder of applied.folders) {
    if (folder.keptInode === undefined || present.has(folder.keptInode)) continue;
    delete folder.keptInode;
    changed = true;
  }
  if (changed) store.write(applied);
}
