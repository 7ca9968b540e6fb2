// Reads each side after a pass (the local folder, the device's folder, the trash) for the invariant checks.
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeviceContext } from '../../../device/context.ts';
import type { ItemRow } from '../../../device/store/items.ts';
import type { SnapshotItem } from './invariants.ts';

/** The engine's state folder; the scanner skips it at any depth, and so does this walk. */
const STATE_FOLDER = '.mch-sync';

/** Every item under `root` (not the root itself), parents first, with file bytes and inodes. */
export function readLocalTree(root: string): SnapshotItem[] {
  const items: SnapshotItem[] = [];
  const walk = (folder: string, prefix: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      if (entry.name === STATE_FOLDER) continue;
      const absolute = join(folder, entry.name);
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      const inode = lstatSync(absolute, { bigint: true }).ino.toString();
      if (entry.isDirectory()) {
        items.push({ path, kind: 'folder', inode });
        walk(absolute, path);
      } else if (entry.isFile()) {
        items.push({ path, kind: 'file', inode, content: readFileSync(absolute).toString('latin1') });
      } else {
        items.push({ path, kind: 'other', inode });
      }
    }
  };
  walk(root, '');
  return items;
}

/**
 * Every item below the remote folder `folderId`, read from the device's own store and content files:
 * the oracle does not go through the client code under test (and costs no requests).
 */
export function readDeviceTree(device: DeviceContext, folderId: string): SnapshotItem[] {
  const items: SnapshotItem[] = [];
  const walk = (id: string, prefix: string): void => {
    for (const child of deviceChildren(device, id)) {
      const path = prefix === '' ? child.name : `${prefix}/${child.name}`;
      if (child.is_dir === 1) {
        items.push({ path, kind: 'folder', id: child.id, eTag: child.etag });
        walk(child.id, path);
      } else {
        const content =
          child.blob === null ? '' : readFileSync(device.blobs.path(child.blob)).toString('latin1');
        items.push({
          path,
          kind: 'file',
          id: child.id,
          eTag: child.etag,
          size: child.size,
          mTimeMs: child.m_time,
          content,
        });
      }
    }
  };
  walk(folderId, '');
  return items;
}

/** The live children of a device folder, by name. */
export function deviceChildren(device: DeviceContext, folderId: string): ItemRow[] {
  return device.items.listChildren(folderId, 'name', 'asc', 100_000, undefined);
}

/** The contents of every file below the given folders (the OS trash, the sync folder's own trash). */
export function readTrashedContents(folders: readonly string[]): string[] {
  const contents: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const absolute = join(folder, entry.name);
      if (entry.isDirectory()) walk(absolute);
      else if (entry.isFile()) contents.push(readFileSync(absolute).toString('latin1'));
    }
  };
  for (const folder of folders) if (existsSync(folder)) walk(folder);
  return contents;
}
