// The client's own writes, announced by the executor before it makes them, so the watcher does not report them back.
import type { WrittenItem } from '../sync/engine-events.ts';
import type { RelativePath } from '../model/items.ts';
import type { LocalChange } from './local-changes.ts';

/**
 * What the executor is about to do at a path. 'created' and 'modified' are one "write" (a download
 * renamed into place may show up as either); 'moved' needs `fromPath`; 'deleted' is a move to the trash.
 */
export type EchoKind = 'created' | 'modified' | 'deleted' | 'moved';

interface Expectation {
  kind: EchoKind;
  /** NFC, as changes are compared. */
  path: RelativePath;
  /** As the executor spelled it, which is how its item is found on disk. */
  spelled: RelativePath;
  fromPath: RelativePath | undefined;
  untilMs: number;
  /** For a file written: what the write left at the path. */
  item: WrittenItem | undefined;
  /** For a move that the watcher may see as a delete plus a create: which halves were seen. */
  toSeen: boolean;
  fromSeen: boolean;
}

// The file system hands back names as they are on disk; the executor's may be in the other normal form.
function key(path: RelativePath): string {
  return path.normalize('NFC');
}

/** What is at a path now (an lstat with bigint numbers), or undefined when nothing is. */
export type ItemAt = (path: RelativePath) => { ino: bigint; size: bigint; mtimeNs: bigint } | undefined;

/**
 * Expected echoes, each swallowed once (or dropped when it expires). Time is the watcher's clock
 * (`Clock.now()`), in milliseconds.
 */
export class ExpectedEchoes {
  readonly #expectations = new Set<Expectation>();
  readonly #itemAt: ItemAt | undefined;

  /** `itemAt` reads the disk, for expectations of a file written with its `item`. */
  constructor(itemAt?: ItemAt) {
    this.#itemAt = itemAt;
  }

  get size(): number {
    return this.#expectations.size;
  }

  /**
   * Expects the change `kind` at `path` until `untilMs`. Returns a function that withdraws the
   * expectation (call it when the operation failed, so a real change there is not swallowed).
   */
  expect(
    path: RelativePath,
    kind: EchoKind,
    untilMs: number,
    fromPath?: RelativePath,
    item?: WrittenItem,
  ): () => void {
    const expectation: Expectation = {
      kind,
      path: key(path),
      spelled: path,
      fromPath: fromPath === undefined ? undefined : key(fromPath),
      item,
      untilMs,
      toSeen: false,
      fromSeen: kind !== 'moved' || fromPath === undefined,
    };
    this.#expectations.add(expectation);
    return () => {
      this.#expectations.delete(expectation);
    };
  }

  /** Drops expired expectations and returns `changes` without those that were expected. */
  swallow(changes: readonly LocalChange[], nowMs: number): LocalChange[] {
    for (const expectation of this.#expectations) {
      if (expectation.untilMs < nowMs) this.#expectations.delete(expectation);
    }
    if (this.#expectations.size === 0) return [...changes];
    return changes.filter((change) => !this.#consume(change));
  }

  #consume(change: LocalChange): boolean {
    const path = key(change.path);
    for (const expectation of this.#expectations) {
      if (!this.#matches(expectation, change, path)) continue;
      if (expectation.toSeen && expectation.fromSeen) this.#expectations.delete(expectation);
      return true;
    }
    return false;
  }

  /** Whether the path still holds the file as the engine wrote it (true when that is not known). */
  #stillWritten(item: WrittenItem | undefined, path: RelativePath): boolean {
    if (item === undefined || this.#itemAt === undefined) return true;
    const now = this.#itemAt(path);
    return (
      now !== undefined &&
      now.ino.toString() === item.inode &&
      Number(now.size) === item.size &&
      now.mtimeNs === item.mtimeNs
    );
  }

  /**
   * Whether the change is at another spelling of the expected path that holds another item than the
   * one at the executor's spelling: Linux keeps both spellings apart, so that is the user's own item
   * (soak seed 74084: a folder the user made under the NFC spelling of a folder the engine had just
   * made under the NFD one, whose own event the index had already accounted for, was taken for its echo).
   */
  #anotherItem(expectation: Expectation, changedPath: RelativePath): boolean {
    if (changedPath === expectation.spelled || this.#itemAt === undefined) return false;
    const written = this.#itemAt(expectation.spelled);
    const changed = this.#itemAt(changedPath);
    return written !== undefined && changed !== undefined && written.ino !== changed.ino;
  }

  /** Whether `expectation` covers `change`; marks the half it covers. */
  #matches(expectation: Expectation, change: LocalChange, path: string): boolean {
    const isWrite = change.kind === 'created' || change.kind === 'modified';
    if ((isWrite || change.kind === 'moved') && this.#anotherItem(expectation, change.path)) return false;
    switch (expectation.kind) {
      case 'created':
      case 'modified':
        if (!isWrite || expectation.path !== path) return false;
        // The batch may hold the user's save right after the download as one change (soak seed 5921).
        if (!this.#stillWritten(expectation.item, change.path)) return false;
        expectation.toSeen = true;
        return true;
      case 'deleted':
        if (change.kind !== 'deleted' || expectation.path !== path) return false;
        expectation.toSeen = true;
        return true;
      case 'moved':
        if (change.kind === 'moved') {
          if (expectation.path !== path || expectation.toSeen) return false;
          const from = change.fromPath === undefined ? undefined : key(change.fromPath);
          if (expectation.fromPath !== undefined && expectation.fromPath !== from) return false;
          expectation.toSeen = expectation.fromSeen = true;
          return true;
        }
        // Seen as two halves when the watcher could not pair them (an inode it never saw).
        if (isWrite && expectation.path === path && !expectation.toSeen) {
          expectation.toSeen = true;
          return true;
        }
        if (change.kind === 'deleted' && expectation.fromPath === path && !expectation.fromSeen) {
          expectation.fromSeen = true;
          return true;
        }
        return false;
    }
  }
}
