// A large synced pair made without syncing it: the device's rows and content and the local tree, written straight to disk with the same bytes and times.
//
// Mirroring 1,000,000 files through the engine takes most of an hour. Here the device's data folder is
// filled in one transaction (rows as the upload route writes them, content under content/ as its blob
// store does), and the local tree gets files of the same sizes, bytes and modification times (ms). A
// first pass then finds every item on both sides with no index row, equal size and equal time, and
// only records them (`index-update`, no transfer).
import { closeSync, futimesSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DIR_MIME_TYPE } from '../../common/wire/device-api.ts';
import { openDatabase } from '../../device/db/database.ts';
import { guessMimeType } from '../../device/files/mime.ts';
import { SearchIndexer } from '../../device/search/indexer.ts';
import { BlobStore } from '../../device/store/blobs.ts';
import { ItemStore } from '../../device/store/items.ts';
import { newEtag, newId } from '../../device/store/tags.ts';
import { UserStore } from '../../device/store/users.ts';

export interface ScaleShape {
  files: number;
  folders: number;
  /** Folders are grouped under this many top folders: `top-T/folder-F/file-I.txt`. */
  topFolders: number;
}

export interface WrittenPair {
  files: number;
  folders: number;
  bytes: number;
  /** Files with content on the device (empty files have no content file). */
  blobs: number;
}

/** Modification times start here and step by a number of ms that is not a round second. */
const FIRST_MTIME_MS = Date.UTC(2025, 0, 1, 8, 0, 0, 123);
const MTIME_STEP_MS = 997;

/** Bytes of file number `index` over the whole tree: 0-63, as the sync-pass tree. */
export function scaleFileSize(index: number): number {
  return index % 64;
}

/** Filler for file contents: printable bytes, a different start per file, so files of one size differ. */
const FILLER = Buffer.alloc(4096, 'abcdefghijklmnopqrstuvwxyz0123456789\n');

function contentOf(index: number): Buffer {
  const start = index % 37;
  return FILLER.subarray(start, start + scaleFileSize(index));
}

/** Writes `bytes` to a new file at `path` with the modification time `mtimeMs` (atime too). */
function writeFileWithTime(path: string, bytes: Buffer, mtimeMs: number, mode = 0o644): void {
  const fd = openSync(path, 'w', mode);
  try {
    if (bytes.length > 0) writeSync(fd, bytes);
    const time = new Date(mtimeMs);
    futimesSync(fd, time, time);
  } finally {
    closeSync(fd);
  }
}

/**
 * Fills the device data folder `deviceDir` (user `bench`, password `bench`) with `remoteFolder` holding
 * the tree, and writes the same tree at `localRoot`. Then the device's search index is built, as a
 * device that received these files would have it, so no background indexing runs while a bench measures.
 */
export async function writeScalePair(
  deviceDir: string,
  localRoot: string,
  remoteFolder: string,
  shape: ScaleShape,
): Promise<WrittenPair> {
  mkdirSync(deviceDir, { recursive: true, mode: 0o700 });
  const db = openDatabase(join(deviceDir, 'device.db'));
  const blobs = new BlobStore(deviceDir);
  const now = Date.now();
  const user = new UserStore(db, new ItemStore(db)).ensure('bench', 'bench', now).user;
  const insert = db.prepare<
    [
      string,
      string,
      string,
      string,
      number,
      string,
      number,
      number,
      number,
      string,
      string,
      string | null,
      number,
    ]
  >(
    `INSERT INTO items (id, owner_id, parent_id, name, is_dir, mime_type, size, m_time, c_time, hidden, etag,
       list_tag, blob, image, state, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'none', ?, ?, ?, NULL, 'live', ?)`,
  );
  const folderRow = (parentId: string, name: string): string => {
    const id = newId();
    insert.run(id, user.id, parentId, name, 1, DIR_MIME_TYPE, 0, now, now, newEtag(), newEtag(), null, now);
    return id;
  };
  const shards = new Set<string>();
  const perFolder = Math.ceil(shape.files / shape.folders);
  const mimeType = guessMimeType('file-0.txt');
  let written = 0;
  let bytes = 0;
  let blobCount = 0;
  db.transaction(() => {
    const rootId = folderRow(user.root_id, remoteFolder.replace(/^\//, ''));
    const tops: string[] = [];
    for (let top = 0; top < shape.topFolders; top += 1) {
      tops.push(folderRow(rootId, `top-${top}`));
      mkdirSync(join(localRoot, `top-${top}`), { recursive: true });
    }
    for (let f = 0; f < shape.folders; f += 1) {
      const top = f % shape.topFolders;
      const folderId = folderRow(tops[top] as string, `folder-${f}`);
      const folderPath = join(localRoot, `top-${top}`, `folder-${f}`);
      mkdirSync(folderPath);
      for (let i = 0; i < perFolder && written < shape.files; i += 1) {
        const name = `file-${i}.txt`;
        const content = contentOf(written);
        const mtimeMs = FIRST_MTIME_MS + written * MTIME_STEP_MS;
        let blob: string | null = null;
        if (content.length > 0) {
          // As BlobStore.commit names and places content: a random name under a folder of its first two characters.
          blob = newId();
          const shard = blob.slice(0, 2);
          if (!shards.has(shard)) {
            mkdirSync(join(deviceDir, 'content', shard), { recursive: true });
            shards.add(shard);
          }
          writeFileWithTime(blobs.path(blob), content, now, 0o600);
          blobCount += 1;
        }
        insert.run(
          newId(),
          user.id,
          folderId,
          name,
          0,
          mimeType,
          content.length,
          mtimeMs,
          mtimeMs,
          newEtag(),
          newEtag(),
          blob,
          now,
        );
        writeFileWithTime(join(folderPath, name), content, mtimeMs);
        written += 1;
        bytes += content.length;
      }
    }
  })();
  const indexer = new SearchIndexer(db, (error) => {
    throw error;
  });
  indexer.kick();
  await indexer.idle();
  await indexer.close();
  db.close();
  return { files: written, folders: shape.folders + shape.topFolders, bytes, blobs: blobCount };
}
