// Reads each side after a pass (the local folder, the device's folder, the trash, the versions store) for the invariant checks.
import Database from 'better-sqlite3';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPlaceholder } from '../../../app/sync/local/placeholders.ts';
import type { DeviceContext } from '../../../device/context.ts';
import type { ItemRow } from '../../../device/store/items.ts';
import type { SnapshotItem, VersionsSeen } from './invariants.ts';

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

/** A pair's versions folder (issue 31), relative to its root: what the engine kept before it replaced or removed a file. */
export const VERSIONS_FOLDER = join(STATE_FOLDER, 'versions');

interface StoredRow {
  path: string;
  blob: string;
  reason: string;
  size: number;
  state: string;
}

/**
 * The versions store of the pair at `root`: every file under `.mch-sync/versions/` with the kept row of
 * the index that names it, and where the two disagree. The rows are read with a plain SELECT, never
 * through the client's code: from `index` itself when it is a handle (an index in memory), else from
 * the index file opened read-only.
 */
export function readVersionStore(root: string, index: string | Database.Database): VersionsSeen {
  const rows = readVersionRows(index);
  const disagreements: string[] = [];
  const byBlob = new Map<string, StoredRow>();
  for (const row of rows) {
    if (row.state !== 'kept') {
      disagreements.push(
        `a keep of ${JSON.stringify(row.path)} is still ${row.state} at quiet (${row.blob})`,
      );
    } else if (byBlob.has(row.blob)) {
      disagreements.push(`two kept rows name ${row.blob} (${JSON.stringify(row.path)})`);
    } else byBlob.set(row.blob, row);
  }
  const folder = join(root, VERSIONS_FOLDER);
  const files: VersionsSeen['files'][number][] = [];
  const walk = (at: string, prefix: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const absolute = join(at, entry.name);
      const blob = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        walk(absolute, blob);
        continue;
      }
      const stats = lstatSync(absolute);
      const content = entry.isFile() ? readFileSync(absolute).toString('latin1') : undefined;
      const row = byBlob.get(blob);
      byBlob.delete(blob);
      const where = `the store's ${blob}${row === undefined ? '' : ` (${JSON.stringify(row.path)}, ${row.reason})`}`;
      if (content === undefined) disagreements.push(`${where} is not a file`);
      if (row === undefined) disagreements.push(`${where}: no kept row names it`);
      else if (row.size !== stats.size)
        disagreements.push(`${where}: its row says ${row.size} bytes, the file holds ${stats.size}`);
      // A hard link still shared with a file in the tree: an edit there would change the version.
      if (stats.nlink > 1)
        disagreements.push(`${where} has ${stats.nlink} links: it is not a copy of its own`);
      if (entry.isFile() && isPlaceholder(absolute))
        disagreements.push(`${where} is a placeholder (no content)`);
      if (content !== undefined)
        files.push({ blob, content, ...(row === undefined ? {} : { path: row.path, reason: row.reason }) });
    }
  };
  if (existsSync(folder)) walk(folder, '');
  for (const row of byBlob.values())
    disagreements.push(
      `the kept row of ${JSON.stringify(row.path)} (${row.reason}) names ${row.blob}: no such file in the store`,
    );
  return { files, disagreements };
}

/** Every row of the index's versions table (none in an index from before issue 31, or none yet). */
function readVersionRows(index: string | Database.Database): StoredRow[] {
  if (typeof index === 'string' && !existsSync(index)) return [];
  const db = typeof index === 'string' ? new Database(index, { readonly: true, fileMustExist: true }) : index;
  try {
    const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'versions'`).get();
    if (table === undefined) return [];
    return db
      .prepare(`SELECT path, blob, reason, size, state FROM versions ORDER BY id`)
      .all() as StoredRow[];
  } finally {
    if (typeof index === 'string') db.close();
  }
}
