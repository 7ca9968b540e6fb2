// The local half of a pass: one synchronous walk (readdirSync + lstatSync) listing what is synced and what is skipped, and why.
import type { BigIntStats, Dirent } from 'node:fs';
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { IGNORE_FILE_NAME, IgnoreRules } from './ignore-rules.ts';
import {
  STATE_FOLDER_NAME,
  caseFoldKey,
  deviceNameProblem,
  temporaryOrSystemReason,
  windowsNameProblem,
} from './local-names.ts';
import { nameKey, type LocalEntry, type RelativePath } from './model.ts';

/** Why an item found on disk is not in `entries`. */
export type SkipReason =
  | 'symlink'
  | 'special-file'
  | 'temporary-or-system'
  | 'state-folder'
  | 'ignored'
  | 'invalid-name'
  /** It vanished or could not be read during the scan: unknown this pass, not deleted. */
  | 'retry-later';

export interface SkippedItem {
  path: RelativePath;
  reason: SkipReason;
  /** For people: "a Vim swap file", "disappeared during the scan", "EACCES"... */
  detail: string;
}

/** Names in one folder that a case-insensitive or a normalising file system would treat as one. */
export interface NameClash {
  folder: RelativePath;
  paths: RelativePath[];
  /** 'unicode': the names differ only in normalisation (NFC/NFD); 'case': they differ in case. */
  kind: 'case' | 'unicode';
}

/** A synced item whose name cannot exist on another platform (it stays in `entries`). */
export interface PortabilityWarning {
  path: RelativePath;
  detail: string;
}

/**
 * 'ok': the walk ran. 'empty': it ran and found nothing to sync. The other states mean the folder was
 * not read at all; the caller must never take any state but 'ok' as "everything was deleted".
 */
export type RootState = 'ok' | 'empty' | 'missing' | 'not-a-folder' | 'unreadable';

export interface ScanResult {
  root: RootState;
  /** Why the root could not be read (an errno code), for the message. */
  rootDetail?: string;
  /** What is synced, parents before their children. */
  entries: LocalEntry[];
  /** Skipped items; for a skipped folder only the folder is listed. Nothing below one was seen. */
  skipped: SkippedItem[];
  clashes: NameClash[];
  portability: PortabilityWarning[];
}

/** The file system calls the scanner makes: a seam so tests can make files vanish mid-scan. */
export interface ScanFs {
  /** Follows symlinks (the root may be one); undefined when nothing is there. */
  stat(path: string): BigIntStats | undefined;
  /** Does not follow symlinks; undefined when nothing is there. */
  lstat(path: string): BigIntStats | undefined;
  readdir(path: string): Dirent[];
  readText(path: string): string;
}

export const nodeScanFs: ScanFs = {
  stat: (path) => statSync(path, { bigint: true, throwIfNoEntry: false }),
  lstat: (path) => lstatSync(path, { bigint: true, throwIfNoEntry: false }),
  readdir: (path) => readdirSync(path, { withFileTypes: true }),
  readText: (path) => readFileSync(path, 'utf8'),
};

export interface ScanOptions {
  fs?: ScanFs;
  /** How `.mchignore` patterns match case; default: insensitive on macOS and Windows. */
  ignoreCase?: boolean;
  /** Report names Windows cannot hold (default true: another computer of the user may be one). */
  portabilityWarnings?: boolean;
  /**
   * Only these subtrees (paths as on disk) and the folders on the way to them: the incremental scan
   * after watched changes. The `.mchignore` files on the way still apply.
   */
  within?: readonly RelativePath[];
}

/** Which paths a scoped scan reads: inside a scoped subtree, or a folder on the way to one. */
class ScanScope {
  readonly #roots: readonly RelativePath[];
  readonly #onTheWay = new Set<RelativePath>();

  constructor(roots: readonly RelativePath[]) {
    this.#roots = roots;
    for (const path of roots) {
      for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
        this.#onTheWay.add(path.slice(0, slash));
      }
    }
  }

  /** Everything below a scoped subtree is read; above it, only the way down. */
  covers(path: RelativePath): boolean {
    return this.#roots.some((root) => path === root || path.startsWith(`${root}/`));
  }

  isOnTheWay(path: RelativePath): boolean {
    return this.#onTheWay.has(path);
  }
}

interface Folder {
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

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}

/**
 * Walks `root` and returns what would be synced. Never throws for a file system problem: the root's is
 * in `root`, an item's is a skipped item. Synchronous on purpose: for 100,000 files a promise per lstat
 * costs several times the walk itself (issue 5 measured 0.19 s against 1.2-1.5 s).
 */
export function scanLocalFolder(root: string, options: ScanOptions = {}): ScanResult {
  const fs = options.fs ?? nodeScanFs;
  const result: ScanResult = { root: 'ok', entries: [], skipped: [], clashes: [], portability: [] };
  let rootStats: BigIntStats | undefined;
  try {
    rootStats = fs.stat(root);
  } catch (error) {
    return { ...result, root: 'unreadable', rootDetail: errorCode(error) };
  }
  if (rootStats === undefined) return { ...result, root: 'missing', rootDetail: 'ENOENT' };
  if (!rootStats.isDirectory()) return { ...result, root: 'not-a-folder' };

  const scope =
    options.within === undefined || options.within.includes('') ? undefined : new ScanScope(options.within);
  const walk = new Walk(fs, result, options.portabilityWarnings ?? true, scope);
  const rules = IgnoreRules.empty(options.ignoreCase === undefined ? {} : { ignoreCase: options.ignoreCase });
  const stack: Folder[] = [
    { absolute: root, relative: '', rules, whole: scope === undefined, entryIndex: -1 },
  ];
  const withdrawn = new Set<number>();
  for (let folder = stack.pop(); folder !== undefined; folder = stack.pop()) {
    const problem = walk.readFolder(folder, stack);
    if (problem === undefined) continue;
    if (folder.relative === '') {
      const missing = problem === 'ENOENT';
      return {
        ...result,
        entries: [],
        skipped: [],
        root: missing ? 'missing' : 'unreadable',
        rootDetail: problem,
      };
    }
    result.skipped.push({
      path: folder.relative,
      reason: 'retry-later',
      detail: `could not be read: ${problem}`,
    });
    // Unknown this pass, like its contents: listing it would make its missing children look deleted.
    withdrawn.add(folder.entryIndex);
  }
  if (withdrawn.size > 0) result.entries = result.entries.filter((_, index) => !withdrawn.has(index));
  // A scoped scan sees only part of the tree: finding nothing there says nothing about the rest.
  if (result.entries.length === 0 && scope === undefined) result.root = 'empty';
  return result;
}

/** The state of one walk; one method per folder keeps the hot loop free of closures. */
class Walk {
  readonly #fs: ScanFs;
  readonly #result: ScanResult;
  readonly #portability: boolean;
  readonly #scope: ScanScope | undefined;

  constructor(fs: ScanFs, result: ScanResult, portability: boolean, scope: ScanScope | undefined) {
    this.#fs = fs;
    this.#result = result;
    this.#portability = portability;
    this.#scope = scope;
  }

  /** Lists one folder into the result and pushes its subfolders; returns an errno code if it cannot. */
  readFolder(folder: Folder, stack: Folder[]): string | undefined {
    let dirents: Dirent[];
    let rules = folder.rules;
    try {
      dirents = this.#fs.readdir(folder.absolute);
      // The folder's own rules apply to its entries, so they are read before any entry is judged.
      const ignoreFile = dirents.find((dirent) => dirent.name === IGNORE_FILE_NAME && dirent.isFile());
      if (ignoreFile) {
        const text = this.#fs.readText(folder.absolute + sep + IGNORE_FILE_NAME);
        rules = rules.withFile(folder.relative, text);
      }
    } catch (error) {
      return errorCode(error);
    }
    const { entries, skipped } = this.#result;
    const prefix = folder.relative === '' ? '' : `${folder.relative}/`;
    const synced: string[] = [];
    for (const dirent of dirents) {
      const name = dirent.name;
      const path = prefix + name;
      const whole = folder.whole || this.#scope?.covers(path) === true;
      if (!whole && !(dirent.isDirectory() && this.#scope?.isOnTheWay(path) === true)) continue;
      if (name === STATE_FOLDER_NAME) {
        skipped.push(item(path, 'state-folder', "the client's own state folder"));
        continue;
      }
      const temporary = temporaryOrSystemReason(name);
      if (temporary !== undefined) {
        skipped.push(item(path, 'temporary-or-system', temporary));
        continue;
      }
      const invalid = deviceNameProblem(name);
      if (invalid !== undefined) {
        skipped.push(item(path, 'invalid-name', invalid));
        continue;
      }
      // Judged on the directory entry's type so that an ignored tree costs no lstat at all.
      if (!rules.isEmpty && rules.ignores(path, dirent.isDirectory())) {
        skipped.push(item(path, 'ignored', `matches a pattern in ${IGNORE_FILE_NAME}`));
        continue;
      }
      const absolute = folder.absolute + sep + name;
      let stats: BigIntStats | undefined;
      try {
        stats = this.#fs.lstat(absolute);
      } catch (error) {
        skipped.push(item(path, 'retry-later', `could not be read: ${errorCode(error)}`));
        continue;
      }
      if (stats === undefined) {
        // readdir decodes names as UTF-8; a name that is not valid UTF-8 comes back with U+FFFD and
        // then cannot be found under that name.
        if (name.includes('\uFFFD')) skipped.push(item(path, 'invalid-name', 'is not valid UTF-8'));
        else skipped.push(item(path, 'retry-later', 'disappeared during the scan'));
        continue;
      }
      if (stats.isSymbolicLink()) {
        skipped.push(item(path, 'symlink', 'a symbolic link (not followed)'));
        continue;
      }
      const isFolder = stats.isDirectory();
      if (!isFolder && !stats.isFile()) {
        skipped.push(item(path, 'special-file', 'a socket, pipe or device'));
        continue;
      }
      if (this.#portability) {
        const problem = windowsNameProblem(name);
        if (problem !== undefined) this.#result.portability.push({ path, detail: `the name ${problem}` });
      }
      synced.push(name);
      entries.push({
        path,
        kind: isFolder ? 'folder' : 'file',
        inode: stats.ino.toString(),
        size: isFolder ? 0 : Number(stats.size),
        mtimeNs: stats.mtimeNs,
      });
      if (isFolder) stack.push({ absolute, relative: path, rules, whole, entryIndex: entries.length - 1 });
    }
    this.#findClashes(folder.relative, prefix, synced);
    return undefined;
  }

  #findClashes(folder: RelativePath, prefix: string, names: string[]): void {
    if (names.length < 2) return;
    const byKey = new Map<string, string[]>();
    let clash = false;
    for (const name of names) {
      const key = caseFoldKey(name);
      const group = byKey.get(key);
      if (group) {
        group.push(name);
        clash = true;
      } else byKey.set(key, [name]);
    }
    if (!clash) return;
    for (const group of byKey.values()) {
      if (group.length < 2) continue;
      const first = nameKey(group[0] as string);
      const kind = group.every((name) => nameKey(name) === first) ? 'unicode' : 'case';
      this.#result.clashes.push({ folder, paths: group.map((name) => prefix + name), kind });
    }
  }
}
