// One folder at a time of the local scan: judging each name, lstat, and the folder's digest and name clashes.
import { sep } from 'node:path';
import { digestOfLines, fileDigestLine, folderDigestLine } from '../../model/folder-digest.ts';
import {
  NativeFolderEntries,
  NodeFolderEntries,
  type EntryFacts,
  type EntryOutcome,
  type FolderEntries,
} from './folder-entries.ts';
import { IGNORE_FILE_NAME, type IgnoreRules } from './ignore-rules.ts';
import { errorCode } from './local-paths.ts';
import {
  caseFoldKey,
  deviceNameProblem,
  temporaryOrSystemReason,
  windowsNameProblem,
} from './local-names.ts';
import { STATE_FOLDER_NAME } from '../../model/names.ts';
import { nameKey, type ItemKind, type RelativePath } from '../../model/items.ts';
import type { ListFolder } from './native-scan.ts';
import { birthIdentity, type ScanFs } from './scan-fs.ts';
import type { ScanResult, SkippedItem, SkipReason } from './scan-result.ts';

/**
 * Which paths a scoped scan reads: inside a scoped subtree, or a folder on the way to one. Compared
 * under NFC, as the pass's own scope is: a subtree's twin spelled in the other normal form is read too,
 * so the clash between them is found, and the index row the pass takes as scanned is (seed 6296).
 */
export class ScanScope {
  readonly #roots: readonly string[];
  readonly #onTheWay = new Set<string>();

  constructor(roots: readonly RelativePath[]) {
    this.#roots = roots.map(nameKey);
    for (const key of this.#roots) {
      for (let slash = key.indexOf('/'); slash > 0; slash = key.indexOf('/', slash + 1)) {
        this.#onTheWay.add(key.slice(0, slash));
      }
    }
  }

  /** Everything below a scoped subtree is read; above it, only the way down. */
  covers(path: RelativePath): boolean {
    const key = nameKey(path);
    return this.#roots.some((root) => key === root || key.startsWith(`${root}/`));
  }

  isOnTheWay(path: RelativePath): boolean {
    return this.#onTheWay.has(nameKey(path));
  }
}

export interface ScanFolder {
  absolute: string;
  relative: RelativePath;
  rules: IgnoreRules;
  /** Every entry of this folder is read (false for a folder on the way to a scoped subtree). */
  whole: boolean;
  /** This folder's position in `entries` (-1 for the root), to withdraw it if it cannot be read. */
  entryIndex: number;
}

function item(path: RelativePath, reason: SkipReason, detail: string): SkippedItem {
  return { path, reason, detail };
}

function unreadable(path: RelativePath, errno: string): SkippedItem {
  return { path, reason: 'unreadable', detail: `could not be read: ${errno}`, errno };
}

const NOT_UTF8 = 'Its name is not valid UTF-8 text, which the device cannot store. Rename it to sync it.';

/** The state of one walk; one method per folder keeps the hot loop free of closures. */
const KEPT_COPY = 'excluded from this computer: this copy stays here and is not synced';

export class Walk {
  readonly #fs: ScanFs;
  /** The native lister; undefined to read folders through `#fs`. */
  readonly #list: ListFolder | undefined;
  readonly #result: ScanResult;
  readonly #portability: boolean;
  readonly #scope: ScanScope | undefined;
  readonly #digests: boolean;
  /** Folders excluded from this computer (their keys, `nameKey` of the path): skipped with their content. */
  readonly #excluded: ReadonlySet<string> | undefined;
  /** Kept copies of excluded folders by inode, with their identity (`birthIdentity`), wherever they are now. */
  readonly #excludedInodes: ReadonlyMap<string, string> | undefined;
  /** The attribute that marks a placeholder (on-demand pairs), asked of every file; else undefined. */
  readonly #placeholderAttribute: string | undefined;
  /** Filled by each entry's lstat in turn. */
  readonly #facts: EntryFacts = { kind: 'file', inode: '', size: 0, mtimeNs: 0n };

  constructor(
    fs: ScanFs,
    list: ListFolder | undefined,
    result: ScanResult,
    options: {
      portability: boolean;
      scope: ScanScope | undefined;
      digests: boolean;
      excluded?: ReadonlySet<string> | undefined;
      excludedInodes?: ReadonlyMap<string, string> | undefined;
      placeholderAttribute?: string | undefined;
    },
  ) {
    this.#placeholderAttribute = options.placeholderAttribute;
    this.#fs = fs;
    this.#list = list;
    this.#result = result;
    this.#portability = options.portability;
    this.#scope = options.scope;
    this.#digests = options.digests;
    this.#excluded =
      options.excluded !== undefined && options.excluded.size > 0 ? options.excluded : undefined;
    this.#excludedInodes =
      options.excludedInodes !== undefined && options.excludedInodes.size > 0
        ? options.excludedInodes
        : undefined;
  }

  /** The folder's entries, or the errno code of the folder itself. */
  #entriesOf(folder: ScanFolder): FolderEntries | string {
    if (this.#list !== undefined) {
      // The root may be a symlink to the synced folder; below it, a folder swapped for a symlink since
      // its parent was listed is not followed.
      return NativeFolderEntries.read(
        this.#list,
        folder.absolute,
        folder.relative === '' ? 'follow' : 'no-follow',
        this.#placeholderAttribute,
      );
    }
    try {
      return new NodeFolderEntries(this.#fs, folder.absolute, this.#fs.readdir(folder.absolute));
    } catch (error) {
      return errorCode(error);
    }
  }

  /**
   * The folder's own rules apply to its entries, so they are read before any entry is judged. Throws
   * when a `.mchignore` is there but cannot be read: the folder is then unknown this pass.
   */
  #rulesOf(folder: ScanFolder, entries: FolderEntries): IgnoreRules {
    for (let at = 0; at < entries.count; at++) {
      if (entries.name(at) !== IGNORE_FILE_NAME) continue;
      const facts = this.#facts;
      const outcome = entries.stat(at, facts);
      if (outcome === 'ok' && facts.kind !== 'file') break;
      if (outcome !== 'ok') {
        throw Object.assign(new Error(`${IGNORE_FILE_NAME} could not be read`), {
          code: typeof outcome === 'string' ? 'ENOENT' : outcome.error,
        });
      }
      const text = this.#fs.readText(folder.absolute + sep + IGNORE_FILE_NAME);
      return folder.rules.withFile(folder.relative, text);
    }
    return folder.rules;
  }

  /** Lists one folder into the result and pushes its subfolders; returns an errno code if it cannot. */
  readFolder(folder: ScanFolder, stack: ScanFolder[]): string | undefined {
    const listed = this.#entriesOf(folder);
    if (typeof listed === 'string') return listed;
    let rules: IgnoreRules;
    try {
      rules = this.#rulesOf(folder, listed);
    } catch (error) {
      return errorCode(error);
    }
    const { entries, skipped } = this.#result;
    const facts = this.#facts;
    const first = entries.length;
    const top = folder.relative === '';
    const synced: string[] = [];
    const lines: string[] | undefined = this.#digests && folder.whole ? [] : undefined;
    for (let at = 0; at < listed.count; at++) {
      const name = listed.name(at);
      // One flat string (`prefix + name` is a cons string that the pass's maps flatten into a second).
      const path = top ? name : [folder.relative, name].join('/');
      const whole = folder.whole || this.#scope?.covers(path) === true;
      if (!whole && !(listed.isFolderHint(at) && this.#scope?.isOnTheWay(path) === true)) continue;
      const byName = this.#skippedByName(listed, at, name, path, rules);
      if (byName !== undefined) {
        skipped.push(byName);
        continue;
      }
      const kind = this.#syncedKind(path, listed.stat(at, facts));
      if (typeof kind !== 'string') {
        skipped.push(kind);
        continue;
      }
      // A kept copy of an excluded folder is known by its inode too: renamed or moved here, still kept.
      if (kind === 'folder' && this.#isKeptCopy(folder.absolute + sep + name, facts.inode)) {
        skipped.push(item(path, 'excluded', KEPT_COPY));
        continue;
      }
      if (this.#portability) {
        const problem = windowsNameProblem(name);
        if (problem !== undefined) this.#result.portability.push({ path, detail: `the name ${problem}` });
      }
      synced.push(name);
      const isFolder = kind === 'folder';
      const { inode, mtimeNs } = facts;
      const size = isFolder ? 0 : facts.size;
      entries.push({ path, kind, inode, size, mtimeNs });
      if (!isFolder && listed.isMarked(at)) (this.#result.placeholders ??= new Set()).add(inode);
      lines?.push(isFolder ? folderDigestLine(name, inode) : fileDigestLine(name, inode, size, mtimeNs));
      if (isFolder) {
        const absolute = folder.absolute + sep + name;
        stack.push({ absolute, relative: path, rules, whole, entryIndex: entries.length - 1 });
      }
    }
    if (lines !== undefined) {
      this.#result.folders?.push({
        path: folder.relative,
        digest: digestOfLines(lines),
        first,
        end: entries.length,
      });
    }
    this.#findClashes(folder.relative, top ? '' : `${folder.relative}/`, synced);
    return undefined;
  }

  /** Whether the folder is a kept copy: its inode one's, and (a reused inode is not) its birth too. */
  #isKeptCopy(absolute: string, inode: string): boolean {
    const identity = this.#excludedInodes?.get(inode);
    if (identity === undefined) return false;
    const stats = this.#fs.lstat(absolute);
    return stats !== undefined && birthIdentity(stats) === identity;
  }

  /** Why an entry is never synced, told by its name and directory entry alone (no lstat), or undefined. */
  #skippedByName(
    listed: FolderEntries,
    at: number,
    name: string,
    path: RelativePath,
    rules: IgnoreRules,
  ): SkippedItem | undefined {
    if (name === STATE_FOLDER_NAME) return item(path, 'state-folder', "the client's own state folder");
    const temporary = temporaryOrSystemReason(name);
    if (temporary !== undefined) return item(path, 'temporary-or-system', temporary);
    const invalid = deviceNameProblem(name);
    if (invalid !== undefined) return item(path, 'invalid-name', invalid);
    // Judged on the directory entry's type so that an ignored tree costs no lstat at all.
    if (!rules.isEmpty && rules.ignores(path, listed.isFolderHint(at))) {
      return item(path, 'ignored', `matches a pattern in ${IGNORE_FILE_NAME}`);
    }
    // Folders are excluded, never a file that took an excluded folder's name.
    if (this.#excluded !== undefined && listed.isFolderHint(at) && this.#excluded.has(nameKey(path))) {
      return item(path, 'excluded', KEPT_COPY);
    }
    return undefined;
  }

  /** A synced entry's kind, told by its lstat (`outcome`, the facts it filled), or why it is skipped. */
  #syncedKind(path: RelativePath, outcome: EntryOutcome): ItemKind | SkippedItem {
    if (outcome === 'bad-name') return item(path, 'invalid-name', NOT_UTF8);
    if (outcome === 'gone') return item(path, 'retry-later', 'disappeared during the scan');
    if (outcome !== 'ok') return unreadable(path, outcome.error);
    const kind = this.#facts.kind;
    if (kind === 'symlink') return item(path, 'symlink', 'a symbolic link (not followed)');
    if (kind === 'special') return item(path, 'special-file', 'a socket, pipe or device');
    return kind;
  }

  #findClashes(folder: RelativePath, prefix: string, names: string[]): void {
    if (names.length < 2) return;
    // The first name of each key; a group is made only for a key met twice (almost never).
    const firstOfKey = new Map<string, string>();
    let groups: Map<string, string[]> | undefined;
    for (const name of names) {
      const key = caseFoldKey(name);
      const first = firstOfKey.get(key);
      if (first === undefined) {
        firstOfKey.set(key, name);
        continue;
      }
      groups ??= new Map();
      const group = groups.get(key);
      if (group) group.push(name);
      else groups.set(key, [first, name]);
    }
    if (groups === undefined) return;
    for (const group of groups.values()) {
      // Spellings of one name under NFC are a unicode clash also among other names in another case
      // (seed 22148: `Café`, `café` and `cafe\u0301`): only one of them may be synced.
      const byNameKey = new Map<string, string[]>();
      for (const name of group) {
        const key = nameKey(name);
        const same = byNameKey.get(key);
        if (same) same.push(name);
        else byNameKey.set(key, [name]);
      }
      for (const same of byNameKey.values()) {
        if (same.length > 1) {
          this.#result.clashes.push({ folder, paths: same.map((name) => prefix + name), kind: 'unicode' });
        }
      }
      if (byNameKey.size > 1) {
        this.#result.clashes.push({ folder, paths: group.map((name) => prefix + name), kind: 'case' });
      }
    }
  }
}
