// One folder's entries for the local scan: names first, then each entry's lstat facts, from node:fs or the native lister.
import type { BigIntStats, Dirent } from 'node:fs';
import { sep } from 'node:path';
import { errorCode } from './local-paths.ts';
import { errnoName, NATIVE_KIND, type ListFolder, type NativeListing } from './native-scan.ts';
import type { ScanFs } from './scan-fs.ts';

/** What an lstat says of an entry; one object per folder, filled again for each entry. */
export interface EntryFacts {
  kind: 'file' | 'folder' | 'symlink' | 'special';
  inode: string;
  size: number;
  mtimeNs: bigint;
}

/** `ok` (the facts are filled), `gone` (vanished since the listing), `bad-name` (not UTF-8), or an errno code. */
export type EntryOutcome = 'ok' | 'gone' | 'bad-name' | { error: string };

export interface FolderEntries {
  readonly count: number;
  name(at: number): string;
  /** From the directory entry, before any lstat (ignore rules need it to skip a tree unread). */
  isFolderHint(at: number): boolean;
  /** The entry's lstat into `facts`. */
  stat(at: number, facts: EntryFacts): EntryOutcome;
  /** Whether the file carries the attribute the listing asked about (a placeholder). */
  isMarked(at: number): boolean;
}

/** Entries through node:fs: readdir, then an lstat by full path when an entry is looked at. */
export class NodeFolderEntries implements FolderEntries {
  readonly #fs: ScanFs;
  readonly #folder: string;
  readonly #dirents: Dirent[];

  constructor(fs: ScanFs, folder: string, dirents: Dirent[]) {
    this.#fs = fs;
    this.#folder = folder;
    this.#dirents = dirents;
  }

  get count(): number {
    return this.#dirents.length;
  }

  name(at: number): string {
    return (this.#dirents[at] as Dirent).name;
  }

  isFolderHint(at: number): boolean {
    return (this.#dirents[at] as Dirent).isDirectory();
  }

  stat(at: number, facts: EntryFacts): EntryOutcome {
    const name = this.name(at);
    let stats: BigIntStats | undefined;
    try {
      stats = this.#fs.lstat(this.#folder + sep + name);
    } catch (error) {
      return { error: errorCode(error) };
    }
    if (stats === undefined) {
      // readdir decodes names as UTF-8; a name that is not valid UTF-8 comes back with U+FFFD and
      // then cannot be found under that name.
      return name.includes('\uFFFD') ? 'bad-name' : 'gone';
    }
    facts.kind = stats.isSymbolicLink()
      ? 'symlink'
      : stats.isDirectory()
        ? 'folder'
        : stats.isFile()
          ? 'file'
          : 'special';
    facts.inode = stats.ino.toString();
    facts.size = Number(stats.size);
    facts.mtimeNs = stats.mtimeNs;
    return 'ok';
  }

  /** node:fs reads no extended attributes: on-demand pairs need the native lister. */
  isMarked(): boolean {
    return false;
  }
}

/** Entries from one call of the native lister: everything was read at once. */
export class NativeFolderEntries implements FolderEntries {
  readonly #names: string[];
  readonly #facts: Float64Array;
  readonly #inodes: BigUint64Array;
  readonly #mtimes: BigInt64Array;
  /** The marked entries' positions, when any is (most folders have none). */
  readonly #marked: ReadonlySet<number> | undefined;

  constructor([names, facts, inodes, mtimes, marked]: NativeListing) {
    this.#names = names;
    this.#facts = facts;
    this.#inodes = inodes;
    this.#mtimes = mtimes;
    this.#marked = marked.length === 0 ? undefined : new Set(marked);
  }

  /** The folder's entries (through a symlink at `folder` itself if told to), or the folder's errno code. */
  static read(
    list: ListFolder,
    folder: string,
    symlink: 'follow' | 'no-follow',
    attribute?: string,
  ): NativeFolderEntries | string {
    const listing =
      attribute === undefined
        ? list(folder, symlink === 'follow')
        : list(folder, symlink === 'follow', attribute);
    return typeof listing === 'number' ? errnoName(listing) : new NativeFolderEntries(listing);
  }

  get count(): number {
    return this.#names.length;
  }

  name(at: number): string {
    return this.#names[at] as string;
  }

  isFolderHint(at: number): boolean {
    return this.#facts[at * 2] === NATIVE_KIND.folder;
  }

  stat(at: number, facts: EntryFacts): EntryOutcome {
    const kind = this.#facts[at * 2] as number;
    if (kind < 0) return { error: errnoName(-kind) };
    switch (kind) {
      case NATIVE_KIND.gone:
        return 'gone';
      case NATIVE_KIND.badName:
        return 'bad-name';
      case NATIVE_KIND.file:
        facts.kind = 'file';
        break;
      case NATIVE_KIND.folder:
        facts.kind = 'folder';
        break;
      case NATIVE_KIND.symlink:
        facts.kind = 'symlink';
        break;
      default:
        facts.kind = 'special';
    }
    facts.inode = (this.#inodes[at] as bigint).toString();
    facts.size = this.#facts[at * 2 + 1] as number;
    facts.mtimeNs = this.#mtimes[at] as bigint;
    return 'ok';
  }

  isMarked(at: number): boolean {
    return this.#marked?.has(at) === true;
  }
}
