// The line protocol between the mount process (FUSE) and the live service that hydrates placeholders.
//
// The service listens on a Unix socket only the user can open; the mount process connects once and
// keeps the connection. Each message is one line of JSON. The mount asks; the service answers each
// request with `started` then `progress` lines and one `done` or `failed`, or with `failed` at once
// (offline, not a placeholder any more, the device refused). Content is written by the service into the
// placeholder file itself, in the cache folder, from offset 0 upwards (in place: a temporary renamed
// over it would leave every open handle on the old, sparse inode); the placeholder attribute is removed
// only when all of it is there, and `done` is sent after that, so a crash leaves a placeholder, never a
// partial file, and an open after `done` finds a file.
//
// The other way, the service asks the mount to free a file (`free`: make it a placeholder again, in
// place, keeping its inode, size and mtime, so the index needs no change): only the mount knows whether
// a program has it open, and only it can keep a program from opening it while it is freed.

/**
 * The extended attribute that marks a placeholder in the cache folder; its value is `PLACEHOLDER_MARK`.
 * The item it stands for is the index row of its inode. Kept this small so ext4 holds it inside the
 * inode: a value of 64 bytes or more costs every placeholder a 4 KB block of its own.
 */
export const PLACEHOLDER_XATTR = 'user.mch.placeholder';

/** The value of `PLACEHOLDER_XATTR` (a version, should it ever need to say more). */
export const PLACEHOLDER_MARK = '1';

/** The prefix of every attribute the client keeps on files; the mount hides them from other programs. */
export const OWN_XATTR_PREFIX = 'user.mch.';

/** Mount → service: download this placeholder's content now. */
export interface HydrateRequest {
  readonly type: 'hydrate';
  /** Chosen by the mount process, unique on its connection. */
  readonly req: number;
  /** Relative to the cache folder, `/`-separated, no leading slash. */
  readonly path: string;
  /** The process that opened the file, and its name (`/proc/<pid>/comm`), for the window and the log. */
  readonly pid: number;
  readonly process: string;
}

/** Service → mount: the download began; `size` bytes will be written. */
export interface HydrationStarted {
  readonly type: 'started';
  readonly req: number;
  readonly size: number;
}

/** Service → mount: the first `bytes` bytes are in the file. */
export interface HydrationProgress {
  readonly type: 'progress';
  readonly req: number;
  readonly bytes: number;
}

/** Service → mount: the file is whole and no longer a placeholder. */
export interface HydrationDone {
  readonly type: 'done';
  readonly req: number;
}

/**
 * Service → mount: it could not be hydrated. `errno` is what the open (or a read waiting for bytes)
 * returns: `ENETUNREACH` offline, `ENOENT` gone from the device, `ENOSPC` no room, `EIO` otherwise.
 */
export interface HydrationFailed {
  readonly type: 'failed';
  readonly req: number;
  readonly errno: HydrationErrno;
  readonly message: string;
}

export type HydrationErrno = 'ENETUNREACH' | 'ENOENT' | 'ENOSPC' | 'EACCES' | 'EIO';

/**
 * Service → mount: make this file a placeholder again. Under the file's lock in the mount: refused with
 * EBUSY while a program has it open through the mount or it is being filled; ESTALE when its size or
 * mtime is not `size` and `mtimeNs` (changed since the index saw it: never freed, its bytes may be the
 * only copy); ENOENT when there is no regular file; `freed` at once when it is a placeholder already.
 * Otherwise: the mark set, the file emptied and made `size` long again (sparse), `mtimeNs` put back.
 */
export interface FreeRequest {
  readonly type: 'free';
  /** Chosen by the service, unique on its connection (its own numbering, apart from the mount's). */
  readonly req: number;
  /** Relative to the cache folder, `/`-separated, no leading slash. */
  readonly path: string;
  readonly size: number;
  /** Nanoseconds since the epoch, as a decimal string (more digits than a double holds). */
  readonly mtimeNs: string;
}

/** Mount → service: the file is a placeholder now. */
export interface FreeDone {
  readonly type: 'freed';
  readonly req: number;
}

/** Mount → service: the file was left as it is, and why. */
export interface FreeRefused {
  readonly type: 'free-refused';
  readonly req: number;
  readonly errno: 'EBUSY' | 'ESTALE' | 'ENOENT' | 'EIO';
  readonly message: string;
}

export type MountToService = HydrateRequest | FreeDone | FreeRefused;
export type ServiceToMount =
  HydrationStarted | HydrationProgress | HydrationDone | HydrationFailed | FreeRequest;

/** The longest line either side accepts; a longer one closes the connection. */
export const MAX_LINE_BYTES = 64 * 1024;
