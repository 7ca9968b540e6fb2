// Reads a local file for an upload so that the device can only ever keep bytes of one version of it.
import { fstatSync, lstatSync, type BigIntStats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortedError, SourceChangedError } from '../../common/errors.ts';

/**
 * Which file, and which version of it. Every write changes ctime and nothing can set it back, so the
 * same version before and after a read means the bytes read all belong to that one version.
 */
export interface FileVersion {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** `size` bytes of the file at `path`: of `version` when given, else of the version found when it is opened. */
export interface FileSource {
  path: string;
  size: number;
  version?: FileVersion;
}

/** Bytes per read: a paused upload has read little more than it sent, and holds back at most this much. */
export const READ_BYTES = 64 * 1024;

/** How often a long read checks its file: a file that changes early stops its upload early. */
const CHECK_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * A write in the same tick of the file system's clock as the write before it may leave mtime and ctime
 * as they were (Linux before 6.13 stamps files from a clock that moves every 1 to 10 ms). A version is
 * taken only once the file's last change is this much older than now, so that any later write moves
 * the stamps.
 */
const SAME_TICK_NS = 20_000_000n;

export function versionOf(stats: BigIntStats): FileVersion {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs };
}

export function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs
  );
}

/** The error for a file that is not (or no longer) `expected`; `found` undefined: it is gone. */
export function changedSource(path: string, expected: FileVersion, found?: FileVersion): SourceChangedError {
  const what =
    found === undefined
      ? 'was removed'
      : found.dev !== expected.dev || found.ino !== expected.ino
        ? 'was replaced by another file'
        : found.size !== expected.size
          ? `went from ${expected.size} to ${found.size} bytes`
          : 'was written to';
  return new SourceChangedError(
    `${path} ${what} while it was being sent; the upload was stopped before the device could keep it.`,
  );
}

/**
 * The open file's version, taken once its last change is older than one tick of the file system's
 * clock. A file that changes meanwhile is being written: not a version to send.
 */
export async function settledVersion(handle: FileHandle, path: string): Promise<FileVersion> {
  const first = versionOf(await handle.stat({ bigint: true }));
  const ageNs = BigInt(Date.now()) * 1_000_000n - first.ctimeNs;
  if (ageNs >= SAME_TICK_NS) return first;
  // A stamp ahead of this clock (another machine's file system) waits two ticks at most.
  const waitNs = SAME_TICK_NS - ageNs > 2n * SAME_TICK_NS ? 2n * SAME_TICK_NS : SAME_TICK_NS - ageNs;
  await sleep(Number(waitNs / 1_000_000n) + 1);
  const settled = versionOf(await handle.stat({ bigint: true }));
  if (!sameVersion(first, settled)) throw changedSource(path, first, settled);
  return settled;
}

/** Whether the version's last change is older than one tick of the file system's clock (see settledVersion). */
export function isSettled(version: FileVersion): boolean {
  return BigInt(Date.now()) * 1_000_000n - version.ctimeNs >= SAME_TICK_NS;
}

/**
 * assertUnchanged at once, for a small file read whole with synchronous calls: the open descriptor `fd`
 * and whatever is at `path` now are both still `version`.
 */
export function assertUnchangedNow(path: string, version: FileVersion, fd: number): void {
  const opened = versionOf(fstatSync(fd, { bigint: true }));
  if (!sameVersion(opened, version)) throw changedSource(path, version, opened);
  let atPath: BigIntStats | undefined;
  try {
    atPath = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOTDIR') throw error;
  }
  if (atPath === undefined) throw changedSource(path, version);
  const found = versionOf(atPath);
  if (!sameVersion(found, version)) throw changedSource(path, version, found);
}

/** Throws SourceChangedError unless the open file and whatever is at `path` now are both still `version`. */
export async function assertUnchanged(
  path: string,
  version: FileVersion,
  handle?: FileHandle,
): Promise<void> {
  if (handle !== undefined) {
    const opened = versionOf(await handle.stat({ bigint: true }));
    if (!sameVersion(opened, version)) throw changedSource(path, version, opened);
  }
  // A rename over the path leaves the open file as it was: the path must still lead to it.
  let atPath: BigIntStats;
  try {
    atPath = await lstat(path, { bigint: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw changedSource(path, version);
    throw error;
  }
  const found = versionOf(atPath);
  if (!sameVersion(found, version)) throw changedSource(path, version, found);
}

/**
 * Reads of `[start, start + length)` from an open file; a file that ends before is SOURCE_CHANGED.
 * With `version`, a long read also checks the file every few MiB (the caller still checks at the end).
 */
export async function* readRange(
  handle: FileHandle,
  path: string,
  start: number,
  length: number,
  options: { signal?: AbortSignal | undefined; version?: FileVersion } = {},
): AsyncGenerator<Buffer> {
  const { signal, version } = options;
  const end = start + length;
  let checkAt = start + CHECK_EVERY_BYTES;
  for (let position = start; position < end;) {
    if (signal?.aborted === true) throw new AbortedError();
    if (version !== undefined && position >= checkAt) {
      await assertUnchanged(path, version, handle);
      checkAt = position + CHECK_EVERY_BYTES;
    }
    const want = Math.min(READ_BYTES, end - position);
    const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(want), 0, want, position);
    if (bytesRead === 0) {
      throw new SourceChangedError(
        `${path} is shorter than when its upload started (${position} of ${end} bytes).`,
      );
    }
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * The bytes `[start, start + length)` of one version of a file, read from one descriptor. The last
 * chunk is held back until the file is checked to be that version still: when it changed, the stream
 * fails instead, so the request is cut short before its last bytes and the device keeps nothing.
 */
export async function* versionBytes(
  source: FileSource,
  start = 0,
  length = source.size - start,
): AsyncGenerator<Buffer> {
  const handle = await open(source.path, 'r');
  try {
    const version = source.version ?? (await settledVersion(handle, source.path));
    if (source.version !== undefined) await assertUnchanged(source.path, version, handle);
    // The request announced `size` bytes: another size is another version than the caller meant.
    if (version.size !== BigInt(source.size)) {
      throw changedSource(source.path, { ...version, size: BigInt(source.size) }, version);
    }
    let held: Buffer | undefined;
    for await (const chunk of readRange(handle, source.path, start, length, { version })) {
      if (held !== undefined) yield held;
      held = chunk;
    }
    await assertUnchanged(source.path, version, handle);
    if (held !== undefined) yield held;
  } finally {
    await handle.close();
  }
}

/** The source with the version it has now, for content sent in several requests (a resumable upload). */
export async function pinVersion(source: FileSource): Promise<FileSource & { version: FileVersion }> {
  if (source.version !== undefined) return { ...source, version: source.version };
  const handle = await open(source.path, 'r');
  try {
    const version = await settledVersion(handle, source.path);
    if (version.size !== BigInt(source.size)) {
      throw changedSource(source.path, { ...version, size: BigInt(source.size) }, version);
    }
    return { ...source, version };
  } finally {
    await handle.close();
  }
}
