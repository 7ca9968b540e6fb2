// A new content file written and flushed to disk in one pass, ready to be renamed into the store.
import { close, fdatasync, open, write } from 'node:fs';
import { Writable } from 'node:stream';
import type { StorageMeter } from './storage-meter.ts';

/** Enough of the content's start for sniffImageFormat (image-metadata.ts reads at most 26 bytes). */
const HEAD_BYTES = 32;

/**
 * Writes to a fresh file (`wx`) through one descriptor and flushes it (fdatasync) before it closes, so
 * 'close' means the bytes are on disk and the file can be renamed into content/ at once: a plain
 * write stream, then a reopen to flush, cost two more system calls and a second open per small file.
 * Each chunk is counted by the meter before it is written and refused past the capacity, as
 * StorageMeter.metered does. The first bytes are kept (`head`), so a caller can tell without reading
 * the file back that it holds no image.
 */
export class SyncedFileStream extends Writable {
  readonly #path: string;
  readonly #meter: StorageMeter;
  #fd: number | undefined;
  #head: Buffer = Buffer.alloc(0);

  constructor(path: string, meter: StorageMeter) {
    super();
    this.#path = path;
    this.#meter = meter;
  }

  /** Up to the first 32 bytes written. */
  get head(): Buffer {
    return this.#head;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.#path, 'wx', 0o600, (error, fd) => {
      if (!error) this.#fd = fd;
      callback(error);
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      this.#meter.reserve(chunk.length);
    } catch (error) {
      callback(error as Error);
      return;
    }
    if (this.#head.length < HEAD_BYTES) {
      this.#head = Buffer.concat([this.#head, chunk.subarray(0, HEAD_BYTES - this.#head.length)]);
    }
    this.#writeAll(chunk, 0, callback);
  }

  #writeAll(chunk: Buffer, offset: number, callback: (error?: Error | null) => void): void {
    write(this.#fd as number, chunk, offset, chunk.length - offset, null, (error, written) => {
      if (error) {
        // Not on disk: not stored. (What did reach the disk is released when the file is removed.)
        this.#meter.release(chunk.length - offset);
        callback(error);
        return;
      }
      if (offset + written < chunk.length) this.#writeAll(chunk, offset + written, callback);
      else callback();
    });
  }

  override _final(callback: (error?: Error | null) => void): void {
    fdatasync(this.#fd as number, (syncError) => {
      const fd = this.#fd as number;
      this.#fd = undefined;
      close(fd, (closeError) => callback(syncError ?? closeError));
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.#fd === undefined) {
      callback(error);
      return;
    }
    const fd = this.#fd;
    this.#fd = undefined;
    close(fd, () => callback(error));
  }
}
