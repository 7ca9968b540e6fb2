// Fills an on-demand pair's placeholders in place when the mount asks: one download per file, progress told as it lands.
//
// The placeholder's inode leads to its index row. The content is written into the placeholder itself from
// byte 0, under If-Match on the row's version; then the row's mtime is put back and the mark removed last,
// through the same descriptor (the file may be renamed meanwhile). The pass sees the same inode, size and
// mtime as before, now with content; a crash at any point leaves a placeholder. The index is not written.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { DeviceClient } from '../api/device-client.ts';
import type { IndexStore } from '../index/index-store.ts';
import type { HydrationJournal } from './hydration-journal.ts';
import type { IndexEntry } from '../model/items.ts';
import { PLACEHOLDER_XATTR, type HydrationErrno } from '../mount/hydration-protocol.ts';
import { localPath } from '../sync/local/local-paths.ts';
import { isPlaceholder, placeholderAttributes } from '../sync/local/placeholders.ts';

/** What one hydration tells whoever waits for it, in order: started, progress…, then done or failed. */
export type HydrationEvent =
  | { type: 'started'; size: number }
  | { type: 'progress'; bytes: number }
  | { type: 'done' }
  | { type: 'failed'; errno: HydrationErrno; message: string };

export interface HydratorOptions {
  client: Pick<DeviceClient, 'downloadInto'>;
  index: Pick<IndexStore, 'byInode'>;
  /** The pair's cache folder: the engine's local root. */
  cacheRoot: string;
  /** True while the device is known to be out of reach: opens fail at once instead of waiting. */
  offline?: () => boolean;
  /** The device has a newer version than the placeholder (a 412): a pass brings its placeholder, tried again. */
  refresh?: () => Promise<void>;
  /** No byte for this long (connecting, or stalled) fails the download: an open must not hang. */
  stallMs?: number;
  log?: (level: 'info' | 'warn', message: string, path: string) => void;
  /** Where a download under way is noted, so a crash's half-filled placeholder is put back at the next start. */
  journal?: Pick<HydrationJournal, 'begin' | 'end'>;
}

type Listener = (event: HydrationEvent) => void;

/** One download under way, shared by every open of the same file. */
interface Running {
  readonly listeners: Set<Listener>;
  /** Where it is, for a listener that joins late; undefined until `started`. */
  last: HydrationEvent | undefined;
  size: number;
  /** The keys it is under in `#running`. */
  readonly inodes: string[];
}

/** The device holds another version than the placeholder's (a 412): a pass must come first. */
class StaleVersion extends Error {}

/** Thrown inside a hydration to end it with an errno for the open. */
class HydrationFailure extends Error {
  readonly errno: HydrationErrno;
  constructor(errno: HydrationErrno, message: string) {
    super(message);
    this.errno = errno;
  }
}

const DEFAULT_STALL_MS = 15_000;

export class Hydrator {
  readonly #options: HydratorOptions;
  /** By inode of the placeholder (both inodes while a refreshed one is tried again). */
  readonly #running = new Map<string, Running>();
  /** By requested path: a refresh, then the new placeholder opened and registered under its inode. */
  readonly #refreshing = new Map<string, Promise<unknown>>();

  constructor(options: HydratorOptions) {
    this.#options = options;
  }

  /** Downloads under way. */
  get active(): number {
    return new Set(this.#running.values()).size;
  }

  /**
   * Hydrates the placeholder at `path` (relative to the cache folder), telling `listener` what happens;
   * a second call for the same file while the first runs joins it. Resolves when it is over.
   */
  async hydrate(path: string, listener: Listener): Promise<void> {
    // A file being replaced by a refresh is joined once its new placeholder is registered.
    await this.#refreshing.get(path)?.catch(() => undefined);
    let handle: FileHandle, inode: string;
    try {
      ({ handle, inode } = await openPlaceholder(this.#options.cacheRoot, path));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      listener(failed(code === 'ENOENT' ? 'ENOENT' : 'EIO', `It cannot be opened here (${String(code)}).`));
      return;
    }
    const running = this.#running.get(inode);
    if (running !== undefined) {
      // Joined before anything is awaited: the download could end meanwhile, and nobody would tell.
      const joined = this.#join(running, listener);
      await handle.close();
      return joined;
    }
    const own: Running = { listeners: new Set([listener]), last: undefined, size: 0, inodes: [inode] };
    this.#running.set(inode, own);
    const tell = (event: HydrationEvent): void => {
      own.last = event;
      for (const each of own.listeners) each(event);
    };
    try {
      await this.#fill(handle, own, path, tell);
      tell({ type: 'done' });
    } catch (error) {
      const failure =
        error instanceof HydrationFailure ? error : new HydrationFailure('EIO', describe(error));
      this.#options.log?.('warn', `could not download: ${failure.message}`, path);
      tell(failed(failure.errno, failure.message));
    } finally {
      for (const each of own.inodes) this.#running.delete(each);
      await handle.close().catch(() => undefined);
    }
  }

  /** Joins a download under way (at once: nothing is awaited first): hears where it is, then the rest. */
  #join(running: Running, listener: Listener): Promise<void> {
    return new Promise<void>((resolve) => {
      const relay: Listener = (event) => {
        listener(event);
        if (event.type === 'done' || event.type === 'failed') {
          running.listeners.delete(relay);
          resolve();
        }
      };
      if (running.last !== undefined) {
        listener({ type: 'started', size: running.size });
        if (running.last.type === 'progress') listener(running.last);
      }
      running.listeners.add(relay);
    });
  }

  /**
   * The download into the open placeholder. `started` is told with the first bytes, so a placeholder of
   * an older version (a 412 before any byte) is refreshed by a pass and tried once more, unseen.
   */
  async #fill(first: FileHandle, own: Running, path: string, tell: Listener): Promise<void> {
    const start = (size: number): void => {
      if (own.last !== undefined) return;
      own.size = size;
      tell({ type: 'started', size });
    };
    let handle = first;
    try {
      for (let attempt = 1; ; attempt++) {
        const found = await this.#rowOf(handle);
        if (found === undefined) return; // Filled by another open that just finished.
        const { row, mtimeNs } = found;
        const inode = row.inode ?? '';
        await this.#options.journal?.begin(inode);
        try {
          await this.#download(handle, row, (bytes) => {
            start(row.size);
            tell({ type: 'progress', bytes });
          });
          start(row.size);
          await handle.sync();
          const attributes = placeholderAttributes();
          // The row's own mtime back, then the mark off: from now on the file is its content.
          attributes.setMtimeNs(handle.fd, mtimeNs);
          attributes.removeAttribute(handle.fd, PLACEHOLDER_XATTR);
          this.#options.log?.('info', `downloaded on opening (${row.size} bytes)`, path);
          await this.#options.journal?.end(inode);
          return;
        } catch (error) {
          // Whatever failed (the download, the flush, the time), the placeholder must be whole again.
          await restorePlaceholder(handle, row.size, mtimeNs);
          await this.#options.journal?.end(inode);
          const stale = error instanceof StaleVersion;
          if (!stale || own.last !== undefined || attempt > 1 || this.#options.refresh === undefined) {
            throw stale ? new HydrationFailure('EIO', error.message) : error;
          }
        }
        // Other opens of `path` wait (in `hydrate`) until the new placeholder is registered here, so
        // that they join this download: two into one file would undo each other's mtime.
        const next = this.#reopen(path, own, this.#options.refresh);
        this.#refreshing.set(path, next);
        try {
          if (handle !== first) await handle.close();
          handle = await next;
        } finally {
          this.#refreshing.delete(path);
        }
      }
    } finally {
      if (handle !== first) await handle.close().catch(() => undefined);
    }
  }

  /** Runs a pass, then opens the new placeholder at `path` and registers it for `own`. */
  async #reopen(path: string, own: Running, refresh: () => Promise<void>): Promise<FileHandle> {
    await refresh();
    const { handle, inode } = await openPlaceholder(this.#options.cacheRoot, path).catch((error: unknown) => {
      const gone = (error as { code?: unknown }).code === 'ENOENT';
      throw gone ? new HydrationFailure('ENOENT', 'It is gone from the device.') : error;
    });
    this.#running.set(inode, own);
    own.inodes.push(inode);
    return handle;
  }

  /** The index row of the open placeholder and the mtime to give it back, or undefined when it is one no more. */
  async #rowOf(handle: FileHandle): Promise<{ row: IndexEntry; mtimeNs: bigint } | undefined> {
    if (!isPlaceholder(handle.fd)) return undefined;
    if (this.#options.offline?.() === true) {
      throw new HydrationFailure('ENETUNREACH', 'The device cannot be reached: it is only on the device.');
    }
    const stats = await handle.stat({ bigint: true });
    const row = this.#options.index.byInode(stats.ino.toString()).find((entry) => entry.kind === 'file');
    if (row === undefined) {
      throw new HydrationFailure('EIO', 'It is not synced yet: try again after the next sync.');
    }
    // A row without a local time (none is expected) keeps the placeholder's: the pass compares it.
    return { row, mtimeNs: row.localMtimeNs ?? stats.mtimeNs };
  }

  /** The download, its errors as the open's errno (or StaleVersion); what it wrote is left to the caller. */
  async #download(handle: FileHandle, row: IndexEntry, onBytes: (bytes: number) => void): Promise<void> {
    const controller = new AbortController();
    let stalled = false;
    const watch = (): NodeJS.Timeout =>
      setTimeout(() => {
        stalled = true;
        controller.abort();
      }, this.#options.stallMs ?? DEFAULT_STALL_MS);
    let timer = watch();
    try {
      await this.#options.client.downloadInto(row.remoteId, handle, {
        eTag: row.eTag,
        signal: controller.signal,
        onProgress: ({ bytesDone }) => {
          clearTimeout(timer);
          timer = watch();
          onBytes(bytesDone);
        },
      });
    } catch (error) {
      throw asFailure(error, stalled);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Opens the file at `path` to write in place, never through a link (one could lead out of the cache folder). */
async function openPlaceholder(
  cacheRoot: string,
  path: string,
): Promise<{ handle: FileHandle; inode: string }> {
  const handle = await open(localPath(cacheRoot, path), constants.O_RDWR | constants.O_NOFOLLOW);
  try {
    return { handle, inode: (await handle.stat({ bigint: true })).ino.toString() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * A fill that failed: size and time as the row has them, the mark kept, the bytes written released (a
 * next try starts at byte 0; a full disk needs them). A file that lost its mark is another's: left alone.
 */
async function restorePlaceholder(handle: FileHandle, size: number, mtimeNs: bigint): Promise<void> {
  try {
    if (!isPlaceholder(handle.fd)) return;
    await handle.truncate(0);
    await handle.truncate(size);
    placeholderAttributes().setMtimeNs(handle.fd, mtimeNs);
  } catch {
    // Still marked: the next pass reads a placeholder as its row whatever its size and time say.
  }
}

function failed(errno: HydrationErrno, message: string): HydrationEvent {
  return { type: 'failed', errno, message };
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The errno an open gets for a download's failure. */
function asFailure(error: unknown, stalled: boolean): HydrationFailure | StaleVersion {
  if (stalled) return new HydrationFailure('ENETUNREACH', 'The device stopped answering.');
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'NETWORK':
    case 'TIMEOUT':
    case 'DEVICE_UNREACHABLE':
      return new HydrationFailure('ENETUNREACH', 'The device cannot be reached.');
    case 'NOT_FOUND':
      return new HydrationFailure('ENOENT', 'It is gone from the device.');
    case 'PRECONDITION_FAILED':
      return new StaleVersion('It changed on the device: the next sync brings the new version.');
    case 'ENOSPC':
      return new HydrationFailure('ENOSPC', 'The disk is full.');
    default:
      return new HydrationFailure('EIO', describe(error));
  }
}
