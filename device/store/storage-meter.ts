// The device's space: the bytes its store holds, a capacity that refuses writes past it, and the answer
// of GET /sdk/v2/device/storage.
import { statfs } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { WriteStream } from 'node:fs';

/** The device's total and free bytes, as GET /sdk/v2/device/storage answers them. */
export interface StorageFigures {
  totalBytes: number;
  freeBytes: number;
}

export class CapacityError extends Error {}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12 };

/** Parses a size such as `64MB`, `1.5GB`, `500kB` or `4000000` (bytes; decimal units, as the client shows them). */
export function parseCapacity(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(?:([kKmMgGtT]?)B)?$/.exec(text.trim());
  const value = match
    ? Number(match[1]) * (SIZE_UNITS[(match[2] ?? '').toLowerCase()] ?? Number.NaN)
    : Number.NaN;
  if (!match || !Number.isFinite(value) || value < 1 || value > Number.MAX_SAFE_INTEGER) {
    throw new CapacityError(`takes a size such as 64MB, 1.5GB or 500kB, got "${text}".`);
  }
  return Math.floor(value);
}

/**
 * Counts the bytes of content/, uploads/ and tmp/ as they change. Every byte the store writes or removes
 * goes through BlobStore, which tells the meter; the count starts from the database's sizes and the
 * unfinished uploads' files (server.ts), so nothing is walked while the device runs. With a capacity, a
 * write past it fails as a full disk would (ENOSPC), and the routes answer 507 as they do for a real one.
 */
export class StorageMeter {
  readonly #dataDir: string;
  #capacity: number | undefined;
  #used = 0;

  constructor(dataDir: string, capacityBytes?: number) {
    this.#dataDir = dataDir;
    this.#capacity = capacityBytes;
  }

  /** The bytes stored when the device starts, before any request. */
  start(usedBytes: number): void {
    this.#used = usedBytes;
  }

  /** Undefined: no capacity of its own, the data folder's file system decides (`statfs`). */
  setCapacity(bytes: number | undefined): void {
    this.#capacity = bytes;
  }

  get usedBytes(): number {
    return this.#used;
  }

  /** Takes `bytes` from the room left, or throws a full disk's error without taking any. */
  reserve(bytes: number): void {
    this.checkRoom(bytes);
    this.#used += bytes;
  }

  /**
   * Throws a full disk's error when `bytes` more would not fit. Routes ask it with the body's
   * Content-Length before they read the body: the 507 then comes as an answer, where a write that
   * fails half way through the body can only cut the connection.
   */
  checkRoom(bytes: number): void {
    if (this.#capacity !== undefined && this.#used + bytes > this.#capacity) {
      const error = new Error(`The device's capacity of ${this.#capacity} bytes is reached.`);
      throw Object.assign(error, { code: 'ENOSPC' });
    }
  }

  /** checkRoom with a request's Content-Length, when it has one. */
  checkRoomFor(headers: Record<string, string | string[] | undefined>): void {
    const length = Number(headers['content-length']);
    if (Number.isSafeInteger(length) && length > 0) this.checkRoom(length);
  }

  release(bytes: number): void {
    this.#used = Math.max(0, this.#used - bytes);
  }

  /** The capacity's figures when there is one, else the data folder's file system's. */
  async figures(): Promise<StorageFigures> {
    if (this.#capacity !== undefined) {
      return { totalBytes: this.#capacity, freeBytes: Math.max(0, this.#capacity - this.#used) };
    }
    const stats = await statfs(this.#dataDir);
    // bavail, not bfree: the blocks reserved for root are no room for the device's files.
    return { totalBytes: stats.blocks * stats.bsize, freeBytes: stats.bavail * stats.bsize };
  }

  /** A stream into `file` that counts each chunk before it is written, and fails as a full disk would. */
  metered(file: WriteStream): Writable {
    return new MeteredStream(file, this);
  }
}

/**
 * Wraps a file's stream rather than sitting before it in a pipeline: the multipart parser writes to one
 * sink and waits for its close, and a wrapper lets 'close' mean the file is closed too.
 */
class MeteredStream extends Writable {
  readonly #file: WriteStream;
  readonly #meter: StorageMeter;

  constructor(file: WriteStream, meter: StorageMeter) {
    super();
    this.#file = file;
    this.#meter = meter;
    // Until this stream forwards it (in _destroy), an error of the file must not crash the process.
    file.on('error', () => {});
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      this.#meter.reserve(chunk.length);
    } catch (error) {
      callback(error as Error);
      return;
    }
    this.#file.write(chunk, (error) => {
      // Not on disk: not stored. (What did reach the disk is released when the file is removed.)
      if (error) this.#meter.release(chunk.length);
      callback(error);
    });
  }

  override _final(callback: (error?: Error | null) => void): void {
    // A failed end closes the file too: whichever comes first answers, once.
    let settled = false;
    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      callback(error);
    };
    this.#file.once('error', settle);
    this.#file.once('close', () => settle());
    this.#file.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.#file.closed) {
      callback(error);
      return;
    }
    this.#file.once('close', () => callback(error));
    this.#file.destroy();
  }
}
