// The executor's index writes in batches: downloads put in place (intents, links, rows), rows of uploads.
//
// A download used to cost two transactions of its own (its intent, then its row with the intent
// dropped) and half a dozen awaited file operations to put it in place: for a first sync of small
// files, most of the client's CPU. Here the files fetched while earlier ones wait are put in place
// together, each step synchronous: the batch's intents in one commit, then each file linked into place
// (link() never replaces: what was created there meanwhile wins) and its temporary removed, then every
// row with its intent's removal in one commit.
//
// Crash safety, as for one file (execute-local.ts, putInPlace): a batch's intents are committed before
// the first of its files is linked, and a row is committed only after its file is in place, in the
// same commit that drops its intent. A crash at any point therefore leaves each file of the batch in
// one of three states: its intent and no file (recovery drops the intent, the temporary is a leftover
// deleted by the next pass), its intent and the file in place (recovery writes the row when the file
// at the path still has the inode, size and mtime the intent records), or its row and no intent.
// Never a file in place with neither, which the next pass would read as a new local file.
import {
  closeSync,
  fstatSync,
  fsync,
  futimesSync,
  linkSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
  type BigIntStats,
} from 'node:fs';
import type { IndexStore, NewIntent } from '../../index/index-store.ts';
import type { IndexWriter } from '../../index/index-writes.ts';
import type { IndexEntry, LocalEntry } from '../../model/items.ts';
import type { LocalWrite } from '../engine-events.ts';
import { errnoOf } from '../local/file-errors.ts';
import { entryFromStats, isUnchanged, localPath, statNowOrUndefined } from '../local/local-paths.ts';
import { ReplanNeeded } from './replan-needed.ts';

/** Files put in place per batch: two commits for this many files; each waits for the batch to fill. */
export const PLACEMENT_BATCH = 64;

/** A downloaded file waiting in its temporary, and the row it gets once it is in place. */
export interface Placement {
  /** The row: its path may differ from `local.path` (below its folder's row, see rowFor). */
  row: IndexEntry;
  /** The temporary as it was read (inode, size, mtime), at the path where the file lands. */
  local: LocalEntry;
  temporary: string;
}

interface Waiting {
  placement: Placement;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The downloads of one round waiting to be put in place, a batch at a time. */
export class DownloadPlacements {
  readonly #index: IndexWriter;
  readonly #localRoot: string;
  readonly #onLocalWrite: (write: LocalWrite) => void;
  #waiting: Waiting[] = [];

  constructor(index: IndexWriter, localRoot: string, onLocalWrite: (write: LocalWrite) => void) {
    this.#index = index;
    this.#localRoot = localRoot;
    this.#onLocalWrite = onLocalWrite;
  }

  /**
   * Queues a file to be put in place; resolves once its row is written, rejects with its own error
   * (ReplanNeeded when something else took its place). A full batch goes at once; else it waits for
   * `flush()`, which the executor calls when no transfer is running.
   */
  place(placement: Placement): Promise<void> {
    const placed = new Promise<void>((resolve, reject) => this.#waiting.push({ placement, resolve, reject }));
    if (this.#waiting.length >= PLACEMENT_BATCH) this.flush();
    return placed;
  }

  /** Puts every queued file in place now, a batch at a time. */
  flush(): void {
    while (this.#waiting.length > 0) this.#placeBatch(this.#waiting.splice(0, PLACEMENT_BATCH));
  }

  #placeBatch(batch: Waiting[]): void {
    const store = this.#index.store;
    let intents: number[];
    try {
      intents = store.transaction(() =>
        batch.map(({ placement }) => store.recordIntent(intentOf(placement))),
      );
    } catch (error) {
      // Nothing was put in place: the temporaries go (else the next pass's tidying), each download
      // fails with the index's error.
      for (const waiting of batch) {
        attempt(() => removeQuietly(waiting.placement.temporary));
        waiting.reject(error);
      }
      return;
    }
    const placed: Array<{ waiting: Waiting; intent: number }> = [];
    const stale: number[] = [];
    batch.forEach((waiting, position) => {
      const intent = intents[position] as number;
      try {
        this.#put(waiting.placement);
        placed.push({ waiting, intent });
      } catch (error) {
        // Left for recovery only when this file is in place after all (its temporary's removal failed).
        const { local } = waiting.placement;
        attempt(() => {
          const there = statNowOrUndefined(localPath(this.#localRoot, local.path));
          if (!isUnchanged(local, entryFromStats(local.path, there))) stale.push(intent);
        });
        waiting.reject(error);
      }
    });
    const complete = (item: { waiting: Waiting; intent: number }): void =>
      store.completeIntent(item.intent, () => this.#index.place(item.waiting.placement.row));
    try {
      store.transaction(() => {
        for (const intent of stale) store.completeIntent(intent);
        for (const item of placed) complete(item);
      });
    } catch {
      // One row the index refuses must not fail the others: each again in a commit of its own, so each
      // download ends with its own outcome (an intent left behind is settled by recovery).
      // One left pending is dropped by recovery, which finds no file of it in place.
      for (const intent of stale) attempt(() => store.completeIntent(intent));
      for (const item of placed) {
        try {
          complete(item);
        } catch (error) {
          item.waiting.reject(error);
          continue;
        }
        item.waiting.resolve();
      }
      return;
    }
    for (const item of placed) item.waiting.resolve();
  }

  /** Links the temporary into place (never over anything) and removes the temporary's name. */
  #put({ local, temporary }: Placement): void {
    const absolute = localPath(this.#localRoot, local.path);
    this.#onLocalWrite({ kind: 'created', path: local.path, item: local });
    const taken = (): ReplanNeeded => {
      removeQuietly(temporary);
      return new ReplanNeeded('LOCAL_CHANGED', local.path, 'Something new is at its place on this computer.');
    };
    try {
      linkSync(temporary, absolute);
    } catch (error) {
      if (errnoOf(error) === 'EEXIST') throw taken();
      // File systems without hard links (FAT, some network shares): check, then rename.
      if (statNowOrUndefined(absolute) !== undefined) throw taken();
      renameSync(temporary, absolute);
      return;
    }
    removeQuietly(temporary);
  }
}

/**
 * The rows of files the device created (uploads), each written with its intent's removal, a batch in
 * one commit instead of one commit each. Until its batch commits, a create's intent stays: a crash then
 * leaves what a lost answer leaves, and recovery finds the file by its name and writes its row
 * (intent-recovery.ts), as it does for a create whose answer never came.
 */
export class CreatedRows {
  readonly #store: IndexStore;
  #waiting: Array<{ write: () => void; resolve: () => void; reject: (error: unknown) => void }> = [];

  constructor(store: IndexStore) {
    this.#store = store;
  }

  /** Queues `write` (the row and the intent's removal); resolves once it is committed. */
  write(write: () => void): Promise<void> {
    const written = new Promise<void>((resolve, reject) => this.#waiting.push({ write, resolve, reject }));
    if (this.#waiting.length >= PLACEMENT_BATCH) this.flush();
    return written;
  }

  /** Commits every queued write now, a batch at a time. */
  flush(): void {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, PLACEMENT_BATCH);
      try {
        this.#store.transaction(() => {
          for (const waiting of batch) waiting.write();
        });
      } catch {
        // One write the index refuses must not fail the others: each again in a commit of its own.
        for (const waiting of batch) {
          try {
            this.#store.transaction(waiting.write);
          } catch (error) {
            waiting.reject(error);
            continue;
          }
          waiting.resolve();
        }
        continue;
      }
      for (const waiting of batch) waiting.resolve();
    }
  }
}

/** The intent of a download about to be put in place: the row it will get, for recovery to write. */
function intentOf({ row, local }: Placement): NewIntent {
  return {
    action: 'download',
    // Where the file lands; the row's path may differ (below its folder's row, see rowFor).
    path: local.path,
    remoteId: row.remoteId,
    parentRemoteId: row.parentRemoteId,
    detail: { entry: { ...row, localMtimeNs: row.localMtimeNs?.toString() ?? null } },
  };
}

/**
 * Runs a step whose failure only leaves work for the next pass (a temporary, an intent): the batch goes
 * on, so every file of it still ends with its own outcome.
 */
function attempt(step: () => void): void {
  try {
    step();
  } catch {
    // Left as it is: the next pass's recovery and tidying settle it.
  }
}

/** Removes a temporary's name; one already gone is fine. */
function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error;
  }
}

/**
 * Writes a small download's content, whole in memory, to a new temporary with the device's mtime and
 * returns what the scan will see of it. The writes are synchronous (the scan's way: a few pages into the
 * page cache cost less than the thread pool's round trips); the flush is not. Flushed before it can be
 * put in place, as every download is: a row committed for a file whose bytes a power loss then drops
 * would read as an edit, and send an empty file over the device's.
 */
export async function writeTemporary(
  path: string,
  content: Buffer,
  mode: number | undefined,
  mTimeMs: number,
): Promise<BigIntStats> {
  const fd = openSync(path, 'wx', mode ?? 0o600);
  let stats: BigIntStats;
  try {
    for (let done = 0; done < content.length;) {
      const written = writeSync(fd, content, done);
      if (written === 0) throw Object.assign(new Error('The disk took no bytes.'), { code: 'EIO' });
      done += written;
    }
    const seconds = mTimeMs / 1000;
    futimesSync(fd, seconds, seconds);
    await new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
    stats = fstatSync(fd, { bigint: true });
  } catch (error) {
    closeSync(fd);
    removeQuietly(path);
    throw error;
  }
  closeSync(fd);
  return stats;
}
