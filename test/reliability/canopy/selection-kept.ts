// What a user does with kept copies in a run: synced items moved into one (the device keeps them where they were), versions moved out of one (new to the sync).
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import type { PassIssue } from '../../../app/sync/pass-report.ts';
import { absolute, type LocalSide } from './apply.ts';
import type { SnapshotItem } from './invariants.ts';
import type { Ledger } from './ledger.ts';
import type { Change } from './model.ts';
import { follow, isWithinKey } from './selection-checks.ts';
import { readLocalTree } from './snapshot.ts';

/** A kept copy here, where the user's changes (or the engine's renames of its parent) put it. */
export interface KeptCopy<Folder> {
  folder: Folder;
  path: string;
}

/** A synced item the user moved into a kept copy. */
interface MovedInto<Folder> {
  /**
   * Where the index (and so the device) has it, left out (MOVED_INTO_EXCLUDED): where it was when the
   * last pass settled, and there with the folders above it moved since (the pass moves its row with
   * them, and may say either).
   */
  sure: string[];
  /** Live, the place it was moved from: a pass may have synced it there since. */
  maybe: string[];
  /** Where it is here, inside the copy. */
  at: string;
  folder: Folder;
}

const nfc = (path: string): string => path.normalize('NFC');

/** Where `path` is after `change` moved a folder above it (not `path` itself: a row stays where it was). */
function underMoved(path: string, change: Change): string {
  if (change.op !== 'move' || !isWithinKey(path, change.from) || nfc(path) === nfc(change.from)) return path;
  return change.to + path.slice(change.from.length);
}

function inKept<Folder>(kept: readonly KeptCopy<Folder>[], path: string): KeptCopy<Folder> | undefined {
  return kept.find((copy) => isWithinKey(path, copy.path));
}

export class KeptCopyMoves<Folder> {
  /** Through the live service: a pass may sync what the user does between two of their changes. */
  live = false;
  #movedInto: MovedInto<Folder>[] = [];
  /** Versions taken out of a kept copy (or merged from it): new to the sync, one more copy each. */
  readonly #outOfKept = new Map<string, number>();
  /** Where each item here was (by inode) when the last pass settled: where the index has it. */
  #settledAt = new Map<string, string>();
  /** The local changes since the last pass settled. */
  #since: Change[] = [];
  /** Places the engine said it left an item moved into a kept copy (MOVED_INTO_EXCLUDED). */
  readonly #reported = new Set<string>();

  /** Whether `change` takes something out of a kept copy (the copy itself stays kept wherever it goes). */
  leaving(change: Change, kept: readonly KeptCopy<Folder>[]): boolean {
    return (
      change.op === 'move' &&
      kept.some((copy) => isWithinKey(change.from, copy.path) && nfc(change.from) !== nfc(copy.path)) &&
      inKept(kept, change.to) === undefined
    );
  }

  /**
   * After a local change was made. An item moved into a kept copy before it follows it: gone with what
   * the user deleted or moved out of the copy (then the engine syncs it as any other), its place on the
   * device moved with its folder there (a local parent moved goes up as one move). `before` and `after`:
   * the kept copies as they were before the change and after it.
   */
  made(
    side: LocalSide,
    change: Change,
    leaving: boolean,
    before: readonly KeptCopy<Folder>[],
    after: readonly KeptCopy<Folder>[],
  ): void {
    this.#movedInto = this.#movedInto.flatMap((moved) => {
      const at = follow(moved.at, change, true);
      const copy = after.find((kept) => kept.folder === moved.folder);
      if (at === null || copy === undefined || !isWithinKey(at, copy.path)) return [];
      const moves = (paths: string[]) => [
        ...new Set([...paths, ...paths.map((path) => underMoved(path, change))]),
      ];
      return [{ ...moved, at, sure: moves(moved.sure), maybe: moves(moved.maybe) }];
    });
    const since = this.#since;
    this.#since = [...since, change];
    if (change.op !== 'move') return;
    const into = inKept(before, change.to);
    if (into !== undefined && inKept(before, change.from) === undefined) {
      // Where the index has it: where it was when the last pass settled (moves since went with it), or,
      // live, where a pass may have synced it since. A file new since then has no row at all.
      const inode = lstatSync(absolute(side, change.to), { bigint: true }).ino.toString();
      // A folder above it moved since goes up as one move: the row moves with it.
      const origin = this.#settledAt.get(inode);
      const sure = origin === undefined ? [] : [...new Set([origin, since.reduce(underMoved, origin)])];
      const maybe = this.live ? [change.from] : [];
      if (sure.length + maybe.length > 0)
        this.#movedInto.push({ sure, maybe, at: change.to, folder: into.folder });
    }
    if (leaving) this.noteNew(absolute(side, change.to));
  }

  /** After a pass settled: where each item here is. */
  settled(local: readonly SnapshotItem[]): void {
    this.#since = [];
    this.#settledAt = new Map(
      local.flatMap((item) => (item.inode === undefined ? [] : [[item.inode, item.path] as const])),
    );
  }

  /** The folder is included again: what was moved into its copy is synced as any other item. */
  forget(folder: Folder): void {
    this.#movedInto = this.#movedInto.filter((moved) => moved.folder !== folder);
  }

  /** The versions at `absolutePath` (a file or a folder's files) go up as new: one more copy each. */
  noteNew(absolutePath: string): void {
    if (!existsSync(absolutePath)) return;
    const contents = lstatSync(absolutePath).isDirectory()
      ? readLocalTree(absolutePath).flatMap((item) => (item.content === undefined ? [] : [item.content]))
      : [readFileSync(absolutePath).toString('latin1')];
    for (const content of contents) this.#outOfKept.set(content, (this.#outOfKept.get(content) ?? 0) + 1);
  }

  /**
   * Where the device keeps the items moved into kept copies: where the index had them when the last
   * pass settled; live, where a pass may have synced them since, once the engine said so.
   */
  get from(): string[] {
    return this.#movedInto.flatMap((moved) => [
      ...moved.sure,
      ...moved.maybe.filter((path) => this.#reported.has(nfc(path))),
    ]);
  }

  /** A synced item moved into a kept copy is left out, needing the user. */
  expects(issue: PassIssue): boolean {
    if (issue.code !== 'MOVED_INTO_EXCLUDED') return false;
    const from = this.#movedInto
      .flatMap((moved) => [...moved.sure, ...moved.maybe])
      .find((path) => isWithinKey(issue.path, path));
    if (from !== undefined) this.#reported.add(nfc(from));
    return from !== undefined;
  }

  /** How many files may hold each version: the ledger's count, and one more per time it left a kept copy. */
  allowedCopies(ledger: Ledger): Map<string, number> {
    const allowed = ledger.allowedCopies();
    for (const [content, count] of this.#outOfKept) allowed.set(content, (allowed.get(content) ?? 0) + count);
    return allowed;
  }
}
