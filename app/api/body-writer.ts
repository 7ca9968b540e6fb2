// Writes a download's body into a file at its positions: chunks gathered into one writev while the last runs.
//
// A socket hands the body over in chunks of at most 64 KiB. Writing each one with an awaited
// `FileHandle.write` costs a thread-pool round trip per chunk and stops reading meanwhile (16,384 a GiB).
// Here one write is in flight at a time and whatever arrived during it goes in the next, so the socket
// keeps being read and a fast download is written in pieces of a MiB or more. `written` moves only when
// bytes are in the file: progress told from it never gets ahead of what a reader of the file can see.
import type { FileHandle } from 'node:fs/promises';

/** Received bytes held before reading waits for the disk: a slow disk slows the download, not memory. */
const HELD_LIMIT = 8 << 20;

export class BodyWriter {
  readonly #file: FileHandle;
  readonly #onWritten: (written: number) => void;
  /** Where the next received chunk goes. */
  #received: number;
  #written: number;
  #held: Buffer[] = [];
  #heldBytes = 0;
  #running: Promise<void> | undefined;
  #failure: { error: unknown } | undefined;

  /** `onWritten` hears the new end of what is in the file after each write. */
  constructor(file: FileHandle, position: number, onWritten: (written: number) => void) {
    this.#file = file;
    this.#received = position;
    this.#written = position;
    this.#onWritten = onWritten;
  }

  /** The end of the bytes in the file: where a resumed download continues. */
  get written(): number {
    return this.#written;
  }

  /** Where the bytes received so far end, written or not. */
  get received(): number {
    return this.#received;
  }

  /**
   * Takes a chunk (it must not be reused by the caller). Resolves at once unless too much is held, then
   * when the disk has caught up; rejects with the write's error once one failed.
   */
  async add(chunk: Buffer): Promise<void> {
    this.#throwIfFailed();
    this.#held.push(chunk);
    this.#heldBytes += chunk.length;
    this.#received += chunk.length;
    this.#running ??= this.#drain();
    if (this.#heldBytes >= HELD_LIMIT) await this.flush();
  }

  /** Resolves when every chunk taken is in the file; rejects with the write's error if one failed. */
  async flush(): Promise<void> {
    await this.#running;
    this.#throwIfFailed();
  }

  /** Writes what is held, again and again, until nothing is: one writev a turn. */
  async #drain(): Promise<void> {
    try {
      while (this.#held.length > 0 && this.#failure === undefined) {
        const buffers = this.#held;
        const bytes = this.#heldBytes;
        this.#held = [];
        this.#heldBytes = 0;
        await writeAll(this.#file, buffers, bytes, this.#written);
        this.#written += bytes;
        this.#onWritten(this.#written);
      }
    } catch (error) {
      this.#failure = { error };
    } finally {
      this.#running = undefined;
    }
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure.error;
  }
}

/** One writev of `buffers` at `position`, continued where the kernel wrote less than asked. */
async function writeAll(file: FileHandle, buffers: Buffer[], bytes: number, position: number): Promise<void> {
  let done = 0;
  let rest = buffers;
  while (done < bytes) {
    const { bytesWritten } = await file.writev(rest, position + done);
    if (bytesWritten === 0) throw Object.assign(new Error('The disk took no bytes.'), { code: 'EIO' });
    done += bytesWritten;
    if (done < bytes) rest = [Buffer.concat(rest).subarray(bytesWritten)];
  }
}
