// Selective sync as the engine meets it, step by step: at a pass's start, after each walk and scan, and at its end.
import type { IndexStore } from '../../index/index-store.ts';
import { nameKey, type IndexRow, type RelativePath } from '../../model/items.ts';
import { EMPTY_SELECTION, type PairSelection, type SelectionStore } from '../../model/selection.ts';
import type { EngineLogLine } from '../engine-options.ts';
import type { EngineEvents } from '../engine-events.ts';
import type { LocalRoot } from '../local/local-root.ts';
import type { ScanOptions, ScanResult } from '../local/scanner.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';
import type { PassIssue } from '../pass-report.ts';
import { AppliedSelectionStore } from './applied-selection.ts';
import { ExcludedFolders } from './excluded-folders.ts';
import { forgetGoneKeptCopies, keptCopyInodes } from './kept-copies.ts';
import {
  applyAfterPass,
  applySelection,
  type SelectionContext,
  type SelectionStep,
} from './selection-step.ts';
import { learnFromWalk } from './selection-walk.ts';

/** The selection a pass took at its start, and what the index was made to match of it. */
export interface PassSelection {
  readonly selection: PairSelection;
  /** Its exclusions follow a folder the walk met elsewhere (`afterWalk`). */
  step: SelectionStep;
}

/** One engine's selective sync: the record's store, the applied selection, what it keeps between passes. */
export class SelectionKeeper {
  readonly #store: SelectionStore | undefined;
  readonly #context: SelectionContext;

  constructor(options: {
    index: IndexStore;
    local: LocalRoot;
    store: SelectionStore | undefined;
    ignoreRules?: string | undefined;
    env?: Readonly<Record<string, string | undefined>> | undefined;
    events?: EngineEvents | undefined;
    log?: ((line: EngineLogLine) => void) | undefined;
  }) {
    const { index, local, ignoreRules, env, events, log } = options;
    this.#store = options.store;
    const applied = new AppliedSelectionStore(index);
    this.#context = {
      index,
      applied,
      memory: undefined,
      local,
      ignoreRules,
      env,
      events,
      log: log ?? (() => {}),
    };
  }

  /** The pass's start: the record read and the index made to match it (selection-step.ts). */
  async begin(): Promise<PassSelection> {
    const selection = this.#store?.read() ?? EMPTY_SELECTION;
    return { selection, step: await applySelection(this.#context, selection) };
  }

  /** What the round's scan leaves out: excluded folders by path, kept copies by inode. */
  scanOptions(pass: PassSelection): Pick<ScanOptions, 'excluded' | 'excludedInodes'> {
    const { excluded } = pass.step;
    if (excluded.size === 0) return {};
    // A synced folder of this computer standing where an excluded one moved to on the device is not
    // its copy (its own move comes down in this round): only what the index does not know is skipped.
    const { index } = this.#context;
    const keys = new Set<string>();
    for (const folder of this.#context.applied.read().folders) {
      const row = syncedRowAt(index, folder.path);
      if (row === undefined || row.remoteId === folder.id) keys.add(nameKey(folder.path));
    }
    return { excluded: keys, excludedInodes: excluded.inodes };
  }

  /** After the scan: the inodes in kept copies (a file moved there is not deleted); gone copies forgotten. */
  afterScan(pass: PassSelection, scan: ScanResult, whole: boolean): ScanResult {
    if (pass.step.excluded.size === 0) return scan;
    const kept = { ...scan, keptInodes: keptCopyInodes(this.#context.local.path, scan) };
    if (whole && scan.root === 'ok')
      forgetGoneKeptCopies(this.#context.applied, this.#context.local.path, scan);
    return kept;
  }

  /**
   * After a walk: what the round leaves out of it, exclusions followed, new folders asked about. True
   * when an excluded folder was met at another path: the pass's exclusions follow it, and what the
   * round left out by the old path (a new folder made there) must be read again.
   */
  async afterWalk(pass: PassSelection, walk: RemoteWalkResult, remoteRootId: string): Promise<boolean> {
    for (const folder of pass.step.waitingToRemove) walk.excluded.push({ ...folder, newOnly: true });
    const moved = await learnFromWalk(walk, {
      index: this.#context.index,
      applied: this.#context.applied,
      store: this.#store,
      selection: pass.selection,
      included: pass.step.included,
      remoteRootId,
      log: this.#context.log,
    });
    if (moved)
      pass.step = { ...pass.step, excluded: new ExcludedFolders(this.#context.applied.read().folders) };
    return moved;
  }

  /** The pass's end: copies that waited to be synced go now. Whether the index changed after the rounds. */
  async afterPass(pass: PassSelection, issues: PassIssue[]): Promise<boolean> {
    const { changed, stillWaiting } = await applyAfterPass(this.#context, pass.selection, pass.step);
    // Said, so that a copy staying here is no mystery: what keeps it is among the pass's issues.
    for (const folder of stillWaiting) {
      issues.push({
        kind: 'skipped',
        path: folder.path,
        code: 'EXCLUDED_COPY_WAITING',
        message:
          'Excluded from this computer: its copy here goes to the trash once everything in it is synced, and something in it is not synced yet (see its other issues).',
      });
    }
    return changed;
  }
}

/**
 * The index's row at `path` in any Unicode spelling: the scan skips by `nameKey`, so a synced folder
 * spelled NFD here was skipped as the copy of an excluded folder the device moved to its NFC twin
 * (seed 624). Rows stored in another spelling are among `nonAsciiRows`.
 */
function syncedRowAt(index: IndexStore, path: RelativePath): IndexRow | undefined {
  const row = index.byPath(path);
  if (row !== undefined || ASCII.test(path)) return row;
  const key = nameKey(path);
  return index.nonAsciiRows().find((other) => nameKey(other.path) === key);
}

// Printable ASCII is its own NFC: no other spelling to look for.
const ASCII = /^[ -~]*$/;
