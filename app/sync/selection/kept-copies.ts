// The local copies of excluded folders the user kept: what is in them, so that a file moved there is not taken for deleted.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { birthIdentity } from '../local/scan-fs.ts';
import type { KeptItem, ScanResult } from '../local/scan-result.ts';
import type { AppliedSelectionStore } from './applied-selection.ts';

/**
 * Everything in the kept copies the scan skipped (`excluded`), by inode, with its kind, size and time.
 * A synced file the user moved into one is gone from its place but not deleted: the round leaves it
 * out, on both sides (selection-inputs.ts), when an item here has its inode, size and time (a file
 * system hands a freed inode to the next new file at once: the inode alone is no proof). Empty, and
 * nothing read, when no copy is kept. An entry that cannot be read is passed over: at worst its move
 * reads as a delete of the device's copy (the local file is still in the kept copy).
 */
export function keptCopyInodes(localRoot: string, scan: ScanResult): Map<string, KeptItem> {
  const items = new Map<string, KeptItem>();
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
      const kind = stats.isDirectory() ? 'folder' : stats.isFile() ? 'file' : 'other';
      items.set(stats.ino.toString(), { kind, size: Number(stats.size), mtimeNs: stats.mtimeNs });
      if (kind === 'folder') folders.push(path);
    }
  }
  return items;
}

/**
 * After a whole scan: a kept copy the scan no longer met (the user deleted it) is forgotten, so that
 * nothing of it is looked for again.
 */
export function forgetGoneKeptCopies(
  store: AppliedSelectionStore,
  localRoot: string,
  scan: ScanResult,
): void {
  const applied = store.read();
  if (!applied.folders.some((folder) => folder.keptCopy !== undefined)) return;
  const present = new Set<string>();
  for (const item of scan.skipped) {
    if (item.reason !== 'excluded') continue;
    const stats = lstatSync(join(localRoot, item.path), { bigint: true, throwIfNoEntry: false });
    const identity = stats === undefined ? undefined : birthIdentity(stats);
    if (identity !== undefined) present.add(identity);
  }
  let changed = false;
  for (const folder of applied.folders) {
    if (folder.keptCopy === undefined || present.has(folder.keptCopy)) continue;
    delete folder.keptCopy;
    changed = true;
  }
  if (changed) store.write(applied);
}
