// The state of every path of one pair, kept as the live service works: what the index knows, plus what is waiting, moving, in conflict or left out.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type {
  FileStateAnswer,
  FileStateEntry,
  FileSyncState,
  NotSyncedReason,
} from '../../common/file-state.ts';
import type { SyncProgress } from '../../common/sync-status.ts';
import type { IndexStore } from '../index/index-store.ts';
import { STATE_FOLDER_NAME } from '../profile/folder-pairs.ts';
import { temporaryOrSystemReason } from '../sync/local/local-names.ts';
import { isPlaceholder } from '../sync/local/placeholders.ts';
import type { PassIssue, PassReport } from '../sync/pass-report.ts';
import { conflictedPaths } from './conflicted-paths.ts';
import { StateTree, urgency, type Exception } from './state-tree.ts';

export interface PairStatesOptions {
  /** The pair's folder as the user sees it (an on-demand pair's mount point), absolute. */
  folder: string;
  /** The folder synced (an on-demand pair's cache folder, else `folder`). */
  syncRoot: string;
  index: IndexStore;
  /** An on-demand pair: files may be placeholders, and kept ones are pinned. */
  onDemand: boolean;
  /** The remote ids of the items kept on this computer (and everything below them). */
  pinnedIds?: () => ReadonlySet<string>;
  /** The device folders selective sync leaves out, relative to the pair. */
  excluded?: () => readonly string[];
  /** The remote ids of the items shared by a link, asked after passes. */
  sharedIds?: () => Promise<ReadonlySet<string>>;
  /** Paths (relative) whose state may have changed. */
  onChange: (paths: string[]) => void;
}

// Layers in the order a path shows them: what moves now, then what waits, then a conflict, then an issue.
const LAYERS = ['transfer', 'waiting', 'conflict', 'issue'] as const;
const WAITING: Exception = { state: 'waiting' };
const MAX_PUSHED_BELOW = 10_000;

export type PathAnswer = Omit<FileStateAnswer, 'path' | 'folder' | 'from'> & { from?: string };

export class PairStates {
  readonly #options: PairStatesOptions;
  readonly #tree = new StateTree(LAYERS);
  /** Waiting paths with the number of the batch that brought them (what a pass that started later covers). */
  readonly #waiting = new Map<string, number>();
  #batch = 0;
  #coveredUpTo = 0;
  #pinnedPaths: readonly string[] = [];
  #excluded: readonly string[] = [];
  #sharedPaths = new Set<string>();
  #closed = false;
  /** The synced files named as conflicted copies, as the last pass that changed files left them. */
  #namedCopies: readonly string[] = [];

  constructor(options: PairStatesOptions) {
    this.#options = options;
    this.refreshRecords();
    this.#namedCopies = options.index.versions.conflictedCopyPaths();
    this.#changed(this.#tree.replace('conflict', conflictsOf(options.index, this.#namedCopies)));
  }

  get folder(): string {
    return this.#options.folder;
  }

  get onDemand(): boolean {
    return this.#options.onDemand;
  }

  /** Local changes the watcher saw: waiting until a pass that starts after them ends. */
  localChanges(paths: readonly string[]): void {
    this.#batch += 1;
    const changed: string[] = [];
    for (const path of paths) {
      if (isOwnFolder(path)) continue;
      this.#waiting.set(path, this.#batch);
      changed.push(...this.#tree.set('waiting', path, WAITING));
    }
    this.#changed(changed);
  }

  /** A pass starts: the changes seen so far are what it covers; a pin or exclusion made for it is read. */
  passStarted(): void {
    this.#coveredUpTo = this.#batch;
    this.#changed(this.refreshRecords());
  }

  /** The transfers running now are `syncing`, the others no longer. */
  progress(progress: SyncProgress): void {
    const moving = new Map<string, Exception>();
    for (const transfer of progress.transfers) {
      moving.set(transfer.path, { state: transfer.direction === 'up' ? 'syncing-up' : 'syncing-down' });
    }
    this.#changed(this.#tree.replace('transfer', moving));
  }

  /**
   * A pass ended: with its report (then what it covered is no longer waiting, and its issues are the
   * ones shown), or without (it failed: everything still waits).
   */
  passEnded(report: PassReport | null): void {
    const changed = this.#tree.replace('transfer', new Map());
    if (report !== null && report.hold === null) {
      for (const [path, batch] of this.#waiting) {
        if (batch > this.#coveredUpTo) continue;
        this.#waiting.delete(path);
        changed.push(...this.#tree.set('waiting', path, undefined));
      }
      changed.push(...this.#tree.replace('issue', issuesOf(report.issues)));
    }
    // The copies known by their name need a scan of every row: read again only after a pass that changed
    // files (a quiet poll every 30 s changes none); the conflicts table itself is small and read each time.
    if (report !== null && Object.values(report.counts).some((count) => count > 0)) {
      this.#namedCopies = this.#options.index.versions.conflictedCopyPaths();
    }
    changed.push(...this.#tree.replace('conflict', conflictsOf(this.#options.index, this.#namedCopies)));
    changed.push(...this.refreshRecords());
    this.#changed(changed);
    void this.refreshShares();
  }

  /** The pins and exclusions read again (after a pass, or an action that changed them). */
  refreshRecords(): string[] {
    const before = [...this.#pinnedPaths, ...this.#excluded];
    const index = this.#options.index;
    const pinned = this.#options.pinnedIds?.() ?? new Set<string>();
    this.#pinnedPaths = [...pinned].flatMap((id) => {
      const row = index.get(id);
      return row === undefined ? [] : [row.path];
    });
    this.#excluded = [...(this.#options.excluded?.() ?? [])];
    const after = [...this.#pinnedPaths, ...this.#excluded];
    if (before.join('\0') === after.join('\0')) return [];
    const changed = new Set([...before, ...after]);
    // Everything below a folder pinned or excluded changes with it: said item by item, up to a bound
    // (past it a file manager learns of the rest when it next shows them).
    for (const folder of [...changed]) {
      for (const row of index.below(folder)) {
        if (changed.size >= MAX_PUSHED_BELOW) break;
        changed.add(row.path);
      }
    }
    return [...changed];
  }

  /**
   * The pair's service stopped: its index is about to close, so an answer still on its way (the shares)
   * is dropped when it comes.
   */
  close(): void {
    this.#closed = true;
  }

  /** The shared items asked again; a failure keeps the last answer (offline, signed out). Never rejects. */
  async refreshShares(): Promise<void> {
    const ask = this.#options.sharedIds;
    if (ask === undefined || this.#closed) return;
    let shared: ReadonlySet<string>;
    try {
      shared = await ask();
    } catch {
      return;
    }
    if (this.#closed) return;
    const index = this.#options.index;
    const paths = new Set<string>();
    for (const id of shared) {
      const row = index.get(id);
      if (row !== undefined) paths.add(row.path);
    }
    const changed = [...paths].filter((path) => !this.#sharedPaths.has(path));
    changed.push(...[...this.#sharedPaths].filter((path) => !paths.has(path)));
    this.#sharedPaths = paths;
    this.#changed(changed);
  }

  /** The state of a path of the pair ('' its folder). */
  stateOf(path: string): PathAnswer {
    const onDemand = this.#options.onDemand;
    if (isOwnFolder(path)) {
      return { onDemand, shared: this.#sharedPaths.has(path), state: 'outside', kind: null };
    }
    const indexed = path === '' ? undefined : this.#options.index.byPath(path)?.kind;
    const kind = path === '' ? 'folder' : (indexed ?? this.#diskKind(path));
    const entry = this.#entryOf(path, kind, indexed, 0);
    if (typeof entry === 'string') {
      return {
        onDemand,
        shared: false,
        state: entry,
        kind: entry === 'excluded' ? (kind ?? 'folder') : kind,
      };
    }
    const { shared, ...rest } = entry;
    return {
      onDemand,
      shared: shared === true,
      ...rest,
      kind: rest.state === 'excluded' ? (kind ?? 'folder') : kind,
    };
  }

  /**
   * The entries of a folder (on disk or in the index) by name, each as a `children` answer says it
   * (`from` relative to the folder). Built for a folder of 10,000: three columns of its rows, no
   * path per entry beyond the one its state is looked up by, and an entry that is only a state is the
   * state's own string.
   */
  entriesOf(folder: string): Record<string, FileStateEntry> {
    // No prototype: a file named `__proto__` is an entry like any other.
    const entries = Object.create(null) as Record<string, FileStateEntry>;
    const prefix = folder === '' ? '' : `${folder}/`;
    const cut = prefix.length;
    const add = (name: string, indexed: 'file' | 'folder' | undefined): void => {
      if (entries[name] !== undefined || (cut === 0 && name === STATE_FOLDER_NAME)) return;
      const path = `${prefix}${name}`;
      entries[name] = this.#entryOf(path, indexed ?? this.#diskKind(path), indexed, cut);
    };
    // An entry's row is the one stored at `folder/name`. Nearly always that row's name is the name;
    // a row whose stored path ends otherwise (another Unicode form) is set aside, so each name finds
    // exactly the row byPath would, without a map of every row.
    const renamed = new Map<string, 'file' | 'folder'>();
    const names: string[] = [];
    for (const row of this.#options.index.folderNames.of(folder)) {
      if (row.path.length === cut + row.name.length && row.path.endsWith(row.name)) {
        add(row.name, row.kind);
      } else {
        renamed.set(row.path.slice(cut), row.kind);
        names.push(row.name);
      }
    }
    for (const name of names) add(name, renamed.get(name));
    let here: string[] = [];
    try {
      here = readdirSync(join(this.#options.syncRoot, folder));
    } catch {
      // A folder not here (excluded, gone): what the index knows of it.
    }
    for (const name of here) add(name, renamed.get(name));
    return entries;
  }

  /**
   * A path's state as an entry says it: the state alone unless more must be said. `kind`: what is at
   * the path (null: nothing); `indexed`: its index row's kind, undefined when it has none; `cut`: how
   * much of a `from` path to leave out (the folder an entry is named in).
   */
  #entryOf(
    path: string,
    kind: 'file' | 'folder' | null,
    indexed: 'file' | 'folder' | undefined,
    cut: number,
  ): FileStateEntry {
    const shared = this.#sharedPaths.size > 0 && this.#sharedPaths.has(path);
    const own = this.#tree.own(path);
    if (kind === 'folder') {
      const level = this.#tree.urgencyBelow(path);
      if (level > 0 && (own === undefined || urgency(own) < level)) {
        const source = this.#tree.sourceBelow(path, level);
        if (source !== undefined) return exceptionEntry(source[1], shared, source[0].slice(cut));
      }
    }
    if (own !== undefined) return exceptionEntry(own, shared, undefined);
    let state: FileSyncState = 'up-to-date';
    if (this.#isExcluded(path)) state = 'excluded';
    else if (indexed === undefined && path !== '') {
      if (kind === null) state = 'outside';
      else {
        // Temporary and system files are left out without an issue (nobody needs to act on them).
        const temporary = temporaryOrSystemReason(path.slice(path.lastIndexOf('/') + 1));
        if (temporary !== undefined) {
          return {
            state: 'not-synced',
            ...(shared ? { shared } : {}),
            reason: 'ignored',
            code: 'TEMPORARY_OR_SYSTEM',
            message: `Never synced: ${temporary}.`,
          };
        }
        // Here and not in the index: new, and the next pass takes it (ignored ones carry an issue).
        state = 'waiting';
      }
    } else if (this.#options.onDemand) {
      if (kind === 'file' && isPlaceholder(join(this.#options.syncRoot, path))) state = 'online-only';
      else if (this.#isPinned(path)) state = 'kept';
    }
    return shared ? { state, shared } : state;
  }

  #diskKind(path: string): 'file' | 'folder' | null {
    try {
      return statSync(join(this.#options.syncRoot, path)).isDirectory() ? 'folder' : 'file';
    } catch {
      return null;
    }
  }

  #isExcluded(path: string): boolean {
    return this.#excluded.some((folder) => path === folder || path.startsWith(`${folder}/`));
  }

  #isPinned(path: string): boolean {
    return this.#pinnedPaths.some((kept) => kept === '' || path === kept || path.startsWith(`${kept}/`));
  }

  #changed(paths: readonly string[]): void {
    if (paths.length > 0) this.#options.onChange([...new Set(paths)]);
  }
}

/** An exception as an entry: its state alone when nothing else is to be said. */
function exceptionEntry(exception: Exception, shared: boolean, from: string | undefined): FileStateEntry {
  const { state, reason, code, message } = exception;
  if (!shared && reason === undefined && code === undefined && message === undefined && from === undefined) {
    return state;
  }
  return {
    state,
    ...(shared ? { shared } : {}),
    ...(reason === undefined ? {} : { reason }),
    ...(code === undefined ? {} : { code }),
    ...(message === undefined ? {} : { message }),
    ...(from === undefined ? {} : { from }),
  };
}

/** The pass's issues as exceptions: a skipped item is `ignored`; a warning is synced and shows nothing. */
function issuesOf(issues: readonly PassIssue[]): Map<string, Exception> {
  const found = new Map<string, Exception>();
  for (const issue of issues) {
    if (issue.kind === 'warning' || isOwnFolder(issue.path)) continue;
    found.set(issue.path, {
      state: 'not-synced',
      reason: reasonOf(issue),
      code: issue.code,
      message: issue.message,
    });
  }
  return found;
}

function reasonOf(issue: PassIssue): NotSyncedReason {
  if (issue.kind === 'skipped') return 'ignored';
  if (issue.code === 'NAME_CLASH' || issue.code === 'KEPT_COPY_HOLDS_NAME') return 'name-clash';
  if (issue.code === 'FILE_TOO_LARGE') return 'too-large';
  return 'error';
}

function conflictsOf(index: IndexStore, namedCopies: readonly string[]): Map<string, Exception> {
  const found = new Map<string, Exception>();
  for (const path of conflictedPaths(index, namedCopies)) found.set(path, { state: 'conflict' });
  return found;
}

function isOwnFolder(path: string): boolean {
  return path === STATE_FOLDER_NAME || path.startsWith(`${STATE_FOLDER_NAME}/`);
}
