// The local half of a pass: one walk, a folder at a time, listing what is synced and what is skipped, and why.
import type { BigIntStats } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { IgnoreRules } from './ignore-rules.ts';
import type { RelativePath } from '../../model/items.ts';
import { nativeListFolder } from './native-scan.ts';
import { PLACEHOLDER_XATTR } from '../../mount/hydration-protocol.ts';
import { OnDemandUnavailableError } from './placeholders.ts';
import { errorCode } from './local-paths.ts';
import { nodeScanFs, type ScanFs } from './scan-fs.ts';
import type { ScanResult } from './scan-result.ts';
import { ScanScope, Walk, type ScanFolder } from './scan-walk.ts';

// The scan's result types and its file system seam have files of their own (scan-walk.ts and
// folder-entries.ts need them too); the scan's users keep finding them here.
export type {
  NameClash,
  PortabilityWarning,
  RootState,
  ScannedFolder,
  ScanResult,
  SkippedItem,
  SkipReason,
} from './scan-result.ts';
export { nodeScanFs, type ScanFs } from './scan-fs.ts';

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
  /** Also give each folder's digest (`folders`), to compare with the index's. */
  digests?: boolean;
  /**
   * Rules of the user's own (gitignore syntax) for the whole folder, read as a `.mchignore` at its
   * root would be: the folder's own files come after them and win.
   */
  extraRules?: string;
  /** Folders excluded from this computer (`nameKey` of each path): skipped with all they hold. */
  excluded?: ReadonlySet<string>;
  /** Kept copies of excluded folders by inode, with their `birthIdentity`: skipped wherever they went. */
  excludedInodes?: ReadonlyMap<string, string>;
  /** An on-demand pair: tell placeholders (`placeholders` of the result). Needs the native lister. */
  placeholders?: boolean;
}

/**
 * One scan, driven one folder at a time: `scanLocalFolder` runs it through, `scanLocalFolderAsync` lets
 * other work (the remote walk's answers) in between folders.
 */
class ScanRun {
  readonly #result: ScanResult = { root: 'ok', entries: [], skipped: [], clashes: [], portability: [] };
  readonly #walk: Walk | undefined;
  readonly #scope: ScanScope | undefined;
  readonly #stack: ScanFolder[] = [];
  readonly #withdrawn = new Set<number>();
  /** Set once the scan ended early (the root could not be read): the whole answer. */
  #early: ScanResult | undefined;

  constructor(root: string, options: ScanOptions) {
    const fs = options.fs ?? nodeScanFs;
    const result = this.#result;
    let rootStats: BigIntStats | undefined;
    try {
      rootStats = fs.stat(root);
    } catch (error) {
      this.#early = { ...result, root: 'unreadable', rootDetail: errorCode(error) };
      return;
    }
    if (rootStats === undefined) this.#early = { ...result, root: 'missing', rootDetail: 'ENOENT' };
    else if (!rootStats.isDirectory()) this.#early = { ...result, root: 'not-a-folder' };
    if (this.#early !== undefined) return;

    const scope =
      options.within === undefined || options.within.includes('') ? undefined : new ScanScope(options.within);
    this.#scope = scope;
    if (options.digests === true) result.folders = [];
    // The native lister reads the real disk; a file system given by a test goes through node:fs calls.
    const list = options.fs === undefined ? nativeListFolder(options.placeholders === true) : undefined;
    // Without the native lister placeholders would look like files of zeros: no scan at all then.
    if (options.placeholders === true && options.fs === undefined && list === undefined) {
      throw new OnDemandUnavailableError('The native folder lister is off or was not built.');
    }
    this.#walk = new Walk(fs, list, result, {
      portability: options.portabilityWarnings ?? true,
      scope,
      digests: options.digests === true,
      excluded: options.excluded,
      excludedInodes: options.excludedInodes,
      placeholderAttribute: options.placeholders === true ? PLACEHOLDER_XATTR : undefined,
    });
    const base = IgnoreRules.empty(
      options.ignoreCase === undefined ? {} : { ignoreCase: options.ignoreCase },
    );
    const rules =
      options.extraRules === undefined || options.extraRules.trim() === ''
        ? base
        : base.withFile('', options.extraRules);
    this.#stack.push({ absolute: root, relative: '', rules, whole: scope === undefined, entryIndex: -1 });
  }

  /** Reads the next folder; false when the scan is over (then `result()`). */
  step(): boolean {
    const folder = this.#early === undefined ? this.#stack.pop() : undefined;
    if (folder === undefined || this.#walk === undefined) return false;
    const problem = this.#walk.readFolder(folder, this.#stack);
    if (problem === undefined) return true;
    if (folder.relative === '') {
      const missing = problem === 'ENOENT';
      this.#early = {
        root: missing ? 'missing' : 'unreadable',
        rootDetail: problem,
        entries: [],
        skipped: [],
        clashes: [],
        portability: [],
      };
      return false;
    }
    this.#result.skipped.push(
      problem === 'ENOENT'
        ? { path: folder.relative, reason: 'retry-later', detail: 'disappeared during the scan' }
        : {
            path: folder.relative,
            reason: 'unreadable',
            detail: `could not be read: ${problem}`,
            errno: problem,
          },
    );
    // Unknown this pass, like its contents: listing it would make its missing children look deleted.
    this.#withdrawn.add(folder.entryIndex);
    return true;
  }

  result(): ScanResult {
    if (this.#early !== undefined) return this.#early;
    const result = this.#result;
    if (this.#withdrawn.size > 0) {
      result.entries = result.entries.filter((_, index) => !this.#withdrawn.has(index));
      delete result.folders;
    }
    // A scoped scan sees only part of the tree: finding nothing there says nothing about the rest.
    if (result.entries.length === 0 && this.#scope === undefined) result.root = 'empty';
    return result;
  }
}

/**
 * Walks `root` and returns what would be synced. Never throws for a file system problem: the root's is
 * in `root`, an item's is a skipped item. Synchronous on purpose: for 100,000 files a promise per lstat
 * costs several times the walk itself (issue 5 measured 0.19 s against 1.2-1.5 s).
 */
export function scanLocalFolder(root: string, options: ScanOptions = {}): ScanResult {
  const run = new ScanRun(root, options);
  while (run.step());
  return run.result();
}

/**
 * The same scan, letting the event loop run between folders (still synchronous calls within one), so
 * requests in flight meanwhile are answered and the next ones sent: the remote walk of a pass runs
 * beside it at the cost of one turn of the loop per folder.
 */
export async function scanLocalFolderAsync(root: string, options: ScanOptions = {}): Promise<ScanResult> {
  const run = new ScanRun(root, options);
  while (run.step()) await nextTurn();
  return run.result();
}
