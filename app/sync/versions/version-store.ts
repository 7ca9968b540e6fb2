// The versions folder of a pair: content kept before this client replaces or removes it, by hard link or rename into `<root>/.mch-sync/versions/`, never a copy.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BigIntStats } from 'node:fs';
import type { NewVersion, VersionReason, VersionRow, VersionRows } from '../../index/version-rows.ts';
import { STATE_FOLDER_NAME } from '../../model/names.ts';
import { errnoOf } from '../local/file-errors.ts';
import { localPath, statOrUndefined } from '../local/local-paths.ts';

/** The versions folder, relative to the sync root. */
export const VERSIONS_FOLDER = join(STATE_FOLDER_NAME, 'versions');

/** What is known of a file about to be replaced, for its version's row. */
export interface KeptFile {
  size: number;
  mTimeMs: number;
  remoteId: string | null;
  contentHash: string | null;
}

/**
 * A keep by hard link, made just before the file is replaced: `confirm` once the replacement is in
 * place (in the transaction that records it), `abandon` when it did not happen.
 */
export interface LinkedKeep {
  confirm(): void;
  abandon(): Promise<void>;
}

/** A keep by hard link in steps (VersionStore.prepareLink). */
export interface PreparedLink extends LinkedKeep {
  /** Writes the `pending` row; synchronous, so it joins the caller's open transaction. */
  record(): void;
  /** Links the file into the store; false when it is gone already (nothing to keep). */
  link(): Promise<boolean>;
}

export class VersionStore {
  readonly #root: string;
  readonly #rows: VersionRows;
  readonly #now: () => number;

  constructor(root: string, rows: VersionRows, now: () => number = Date.now) {
    this.#root = root;
    this.#rows = rows;
    this.#now = now;
  }

  get rows(): VersionRows {
    return this.#rows;
  }

  /** The absolute versions folder. */
  folder(): string {
    return join(this.#root, VERSIONS_FOLDER);
  }

  /** Where a version's content is (absolute). */
  blobPath(blob: string): string {
    return join(this.folder(), ...blob.split('/'));
  }

  /**
   * A keep by hard link of the file at `path`, before it is replaced, in steps: `record` its `pending`
   * row (in the caller's transaction, with its own intent: no commit of its own), `link` it into the
   * store, then `confirm` once the replacement is in place (in the transaction that records it) or
   * `abandon`. A crash between the link and the replace is told apart by the inode (recoverPending).
   */
  prepareLink(path: string, stats: { inode: string }, file: KeptFile, reason: VersionReason): PreparedLink {
    const blob = newKeepId();
    let id: number | undefined;
    const forget = (): void => {
      if (id !== undefined) this.#rows.remove(id);
      id = undefined;
    };
    return {
      record: () => {
        id = this.#rows.add(this.#row(path, blob, reason, file, stats.inode));
      },
      link: async () => {
        try {
          await this.#linkIn(localPath(this.#root, path), this.blobPath(blob));
          return true;
        } catch (error) {
          forget();
          // The file is gone already: there is nothing to keep, and nothing is lost by replacing nothing.
          if (errnoOf(error) === 'ENOENT') return false;
          throw error;
        }
      },
      confirm: () => {
        if (id !== undefined) this.#rows.markKept(id);
      },
      abandon: async () => {
        await rm(this.blobPath(blob), { force: true });
        forget();
      },
    };
  }

  /** A keep by hard link in one go (its row committed on its own): a restore's, a settle's. */
  async linkBeforeReplace(
    path: string,
    stats: { inode: string },
    file: KeptFile,
    reason: VersionReason,
  ): Promise<LinkedKeep | undefined> {
    const keep = this.prepareLink(path, stats, file, reason);
    keep.record();
    return (await keep.link()) ? keep : undefined;
  }

  /**
   * Moves the file or folder at `path` into the store (one rename) and records a version of each file
   * it held, at its path below `path`. False when nothing was there to keep.
   */
  async moveIn(
    path: string,
    reason: VersionReason,
    known?: (path: string) => Partial<KeptFile>,
  ): Promise<boolean> {
    const blob = newKeepId();
    // One pending row for the whole keep: after a crash, the store says whether the rename happened.
    const marker = this.#rows.add(
      this.#row(path, blob, reason, { size: 0, mTimeMs: 0, remoteId: null, contentHash: null }, null),
    );
    await this.#ensureFolder();
    try {
      await rename(localPath(this.#root, path), this.blobPath(blob));
    } catch (error) {
      this.#rows.remove(marker);
      if (errnoOf(error) === 'ENOENT') return false;
      throw error;
    }
    await this.#settleMove(this.#rows.get(marker)!, known);
    return true;
  }

  /**
   * After a crash: each keep left pending is settled the way it went. A link whose file is still at its
   * path (same inode) was never followed by the replace: dropped. A move found in the store is recorded.
   */
  async recoverPending(): Promise<number> {
    const pending = this.#rows.pending();
    for (const row of pending) {
      const there = await statOrUndefined(this.blobPath(row.blob));
      if (there === undefined) {
        this.#rows.remove(row.id);
      } else if (row.inode !== null) {
        const atPath = await statOrUndefined(localPath(this.#root, row.path));
        if (atPath?.ino.toString() === row.inode) {
          await rm(this.blobPath(row.blob), { force: true });
          this.#rows.remove(row.id);
        } else {
          this.#rows.markKept(row.id);
        }
      } else {
        await this.#settleMove(row);
      }
    }
    return pending.length;
  }

  /** Removes a version: its row, its content, and its keep's folder once empty. */
  async remove(row: VersionRow): Promise<void> {
    await rm(this.blobPath(row.blob), { force: true, recursive: true });
    this.#rows.remove(row.id);
    await this.#pruneEmpty(row.blob);
  }

  /**
   * Takes a version's content out of the store to `destination` (absolute, on this file system): one
   * rename, its row dropped. The caller made sure nothing is at `destination`.
   */
  async takeOut(row: VersionRow, destination: string): Promise<void> {
    await mkdir(dirname(destination), { recursive: true });
    await rename(this.blobPath(row.blob), destination);
    this.#rows.remove(row.id);
    await this.#pruneEmpty(row.blob);
  }

  /** The rows of a keep that moved into the store: one per file found there, the marker dropped. */
  async #settleMove(marker: VersionRow, known?: (path: string) => Partial<KeptFile>): Promise<void> {
    const files = await filesBelow(this.blobPath(marker.blob));
    this.#rows.transaction(() => {
      this.#rows.remove(marker.id);
      for (const { inside, stats } of files) {
        const path = inside === '' ? marker.path : `${marker.path}/${inside}`;
        const blob = inside === '' ? marker.blob : `${marker.blob}/${inside}`;
        const meta = known?.(path) ?? {};
        this.#rows.add({
          ...this.#row(
            path,
            blob,
            marker.reason,
            {
              size: Number(stats.size),
              mTimeMs: Number(stats.mtimeMs),
              remoteId: meta.remoteId ?? null,
              contentHash: meta.contentHash ?? null,
            },
            null,
          ),
          keptAtMs: marker.keptAtMs,
          state: 'kept',
        });
      }
    });
    // A folder that held no file is nothing to restore.
    if (files.length === 0) await rm(this.blobPath(marker.blob), { recursive: true, force: true });
  }

  #row(path: string, blob: string, reason: VersionReason, file: KeptFile, inode: string | null): NewVersion {
    return {
      path,
      blob,
      reason,
      size: file.size,
      mTimeMs: file.mTimeMs,
      keptAtMs: this.#now(),
      state: 'pending',
      inode,
      remoteId: file.remoteId,
      contentHash: file.contentHash,
    };
  }

  /**
   * A hard link (the folder made on first use, or again after a clear); where the file system has
   * none (FAT, some shares), a copy: slower, but the content is kept all the same.
   */
  async #linkIn(source: string, blob: string, again = false): Promise<void> {
    try {
      await link(source, blob);
      return;
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOENT' && !again && (await statOrUndefined(source)) !== undefined) {
        await this.#ensureFolder();
        return this.#linkIn(source, blob, true);
      }
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') throw error;
    }
    await copyFile(source, blob, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  }

  async #ensureFolder(): Promise<void> {
    await mkdir(this.folder(), { recursive: true, mode: 0o700 });
  }

  /** The folders of a keep left empty once its last file went (never the versions folder itself). */
  async #pruneEmpty(blob: string): Promise<void> {
    const parts = blob.split('/');
    for (let depth = parts.length - 1; depth >= 1; depth--) {
      try {
        await rmdir(this.blobPath(parts.slice(0, depth).join('/')));
      } catch {
        return;
      }
    }
  }
}

/** This process's part of keep names: time-ordered keeps of two processes never meet. */
const PROCESS_PART = randomBytes(4).toString('hex');
let keepCount = 0;

/** A new keep's name in the store: time-ordered and never reused (no random bytes a keep: ~20 us each). */
function newKeepId(): string {
  keepCount += 1;
  return `${Date.now().toString(36)}-${PROCESS_PART}-${keepCount.toString(36)}`;
}

/** The files at or below `absolute` ('' inside for a file itself), without following links. */
async function filesBelow(absolute: string): Promise<{ inside: string; stats: BigIntStats }[]> {
  const found: { inside: string; stats: BigIntStats }[] = [];
  const visit = async (inside: string): Promise<void> => {
    const here = inside === '' ? absolute : join(absolute, ...inside.split('/'));
    let stats: BigIntStats;
    try {
      stats = await lstat(here, { bigint: true });
    } catch {
      return;
    }
    if (!stats.isDirectory()) {
      found.push({ inside, stats });
      return;
    }
    for (const name of await readdir(here)) await visit(inside === '' ? name : `${inside}/${name}`);
  };
  await visit('');
  return found;
}
