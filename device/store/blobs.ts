// File content on disk: written to a temporary file, flushed, then renamed into place under content/.
import { createReadStream, createWriteStream, mkdirSync, rmSync, type ReadStream } from 'node:fs';
import { open, readdir, rename, rm, stat, truncate, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { StorageMeter } from './storage-meter.ts';
import { SyncedFileStream } from './synced-file.ts';
import { newId } from './tags.ts';

/**
 * Every byte of content and unfinished uploads is written and removed here, and counted by the meter
 * (storage-meter.ts): that is how the device knows what it holds without walking its folders.
 */
export class BlobStore {
  readonly #meter: StorageMeter;
  readonly #contentDir: string;
  readonly #tmpDir: string;
  readonly #uploadsDir: string;
  /** Shard folders of content/ known to exist: each is made once, not checked for every file. */
  readonly #shards = new Set<string>();

  /** Without a meter (a tool that fills a data folder offline), writes are counted by one of its own. */
  constructor(dataDir: string, meter: StorageMeter = new StorageMeter(dataDir)) {
    this.#meter = meter;
    this.#contentDir = join(dataDir, 'content');
    this.#tmpDir = join(dataDir, 'tmp');
    this.#uploadsDir = join(dataDir, 'uploads');
    mkdirSync(this.#contentDir, { recursive: true });
    mkdirSync(this.#uploadsDir, { recursive: true });
    // Anything left in tmp/ is a write a crash interrupted; it was never visible, so it goes.
    rmSync(this.#tmpDir, { recursive: true, force: true });
    mkdirSync(this.#tmpDir, { recursive: true });
  }

  /** A fresh temporary path on the same file system as content/, so the final rename is atomic. */
  tempPath(): string {
    return join(this.#tmpDir, newId());
  }

  /** A new temporary file's stream, refused past the device's capacity. */
  createTempStream(path: string): Writable {
    return this.#meter.metered(createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  }

  /** A new temporary file's stream that flushes it to disk before it closes (`commitFlushed` then). */
  createSyncedTempStream(path: string): SyncedFileStream {
    return new SyncedFileStream(path, this.#meter);
  }

  /** A stream that writes (`w`) or appends to (`a`) an upload's bytes, refused past the device's capacity. */
  createUploadStream(path: string, flags: 'w' | 'a'): Writable {
    return this.#meter.metered(createWriteStream(path, { flags, mode: 0o600 }));
  }

  /** Cuts an upload's bytes back to `length` (a resend from an earlier offset). */
  async truncate(path: string, length: number): Promise<void> {
    const before = await this.size(path);
    await truncate(path, length);
    this.#meter.release(Math.max(0, before - length));
  }

  /** The bytes of every unfinished upload, for the meter's count at start. */
  async uploadBytes(): Promise<number> {
    let total = 0;
    for (const name of await readdir(this.#uploadsDir))
      total += await this.size(join(this.#uploadsDir, name));
    return total;
  }

  /** Where the bytes of an unfinished resumable upload are collected. */
  uploadPath(itemId: string): string {
    return join(this.#uploadsDir, itemId);
  }

  /** Flushes a finished temporary file to disk and moves it into the store; returns its blob name. */
  async commit(tempPath: string): Promise<string> {
    const handle = await open(tempPath, 'r+');
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
    return this.commitFlushed(tempPath);
  }

  /** Moves a temporary file already flushed to disk (a SyncedFileStream's) into the store. */
  async commitFlushed(tempPath: string): Promise<string> {
    const name = newId();
    const shard = name.slice(0, 2);
    const dir = join(this.#contentDir, shard);
    if (!this.#shards.has(shard)) {
      mkdirSync(dir, { recursive: true });
      this.#shards.add(shard);
    }
    try {
      await rename(tempPath, join(dir, name));
    } catch (error) {
      // The shard folder was removed behind the device's back: make it again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(dir, { recursive: true });
      await rename(tempPath, join(dir, name));
    }
    return name;
  }

  path(name: string): string {
    return join(this.#contentDir, name.slice(0, 2), name);
  }

  openRead(name: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.path(name), range);
  }

  /**
   * Bytes `start` to `end` (inclusive) of stored content, read at once; the file is opened before this
   * returns its promise. A file shorter than that is an error, never a short answer.
   */
  async readRange(name: string, start: number, end: number): Promise<Buffer> {
    const handle = await open(this.path(name), 'r');
    try {
      const bytes = Buffer.allocUnsafe(end - start + 1);
      for (let filled = 0; filled < bytes.length;) {
        const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled);
        if (bytesRead === 0) throw new Error(`The content file ${name} is shorter than its item says.`);
        filled += bytesRead;
      }
      return bytes;
    } finally {
      await handle.close();
    }
  }

  async size(path: string): Promise<number> {
    try {
      return (await stat(path)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    await this.removePath(this.path(name));
  }

  /** Removes one file (content, a temporary or an upload's bytes); one already gone is no error. */
  async removePath(path: string): Promise<void> {
    const size = await this.size(path);
    // unlink, not rm: rm looks at the path again (lstat) before it unlinks, a system call per file.
    try {
      await unlink(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.#meter.release(size);
  }

  /**
   * Deletes content files no item refers to: a crash between renaming content into place and
   * recording it in the database leaves such a file behind. Returns how many were removed.
   */
  async sweepOrphans(isReferenced: (name: string) => boolean): Promise<number> {
    let removed = 0;
    for (const shard of await readdir(this.#contentDir)) {
      for (const name of await readdir(join(this.#contentDir, shard))) {
        if (!isReferenced(name)) {
          await rm(join(this.#contentDir, shard, name), { force: true });
          removed += 1;
        }
      }
    }
    return removed;
  }

  /**
   * Deletes the bytes under uploads/ of uploads that no longer exist: a crash between dropping an
   * upload's rows and removing its bytes, or between receiving a new upload's first bytes and recording
   * it, leaves such a file. Only safe before the device serves requests. Returns how many were removed.
   */
  async sweepUploadOrphans(isUnfinished: (itemId: string) => boolean): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.#uploadsDir)) {
      if (!isUnfinished(name)) {
        await rm(join(this.#uploadsDir, name), { force: true, recursive: true });
        removed += 1;
      }
    }
    return removed;
  }
}
