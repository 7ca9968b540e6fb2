// The user's side of selective sync in a run: the pair's selection as they set it, and what the harness knows of each excluded folder from the device's store and the disk (never from the client).
import { existsSync, lstatSync } from 'node:fs';
import type { PassIssue } from '../../../app/sync/pass-report.ts';
import { memorySelection, type MemorySelection } from '../../helpers/selection-store.ts';
import { absolute, resolve, type LocalSide, type RemoteSide } from './apply.ts';
import type { PassState, RequiredContent, SnapshotItem, Violation } from './invariants.ts';
import type { Ledger } from './ledger.ts';
import { type Change } from './model.ts';
import type { ExpectedIssue } from './report-checks.ts';
import {
  checkUntouched,
  contentsAt,
  devicePathOf,
  follow,
  isWithinKey,
  printFolder,
  type FolderPrint,
} from './selection-checks.ts';
import { checkSelection, requiredBy, viewOf } from './selection-verdict.ts';
import type { ExcludeStep, SelectionPlan } from './selection-plan.ts';
import { readLocalTree } from './snapshot.ts';
import { KeptCopyMoves } from './selection-kept.ts';

export interface Excluded {
  step: ExcludeStep;
  id: string;
  /** Where the device has it, as last seen (the engine keeps excluding that path once the folder is gone). */
  path: string;
  /**
   * Where its local copy is now, as this computer's changes moved it (a kept copy is known by its
   * inode: it stays kept wherever it goes); null once gone.
   */
  localPath: string | null;
  /** As the device held it after the other client's last change; undefined once it is gone. */
  print: FolderPrint | undefined;
  /** Paths below it (NFC) the exclusion's pass may write: what was unsynced in a copy to remove. */
  mayWrite: Set<string>;
  /** Versions the user wrote into a copy to remove just before: they must reach the device. */
  unsynced: string[];
  /** The removed local copy's versions: on the device or in the trash, unless a user removed them. */
  removedCopy: string[];
  /** The kept copy's inode: the engine knows it by it, wherever this computer's changes or its own put it. */
  keptInode: string | undefined;
  /** The user made something at its path here after the exclusion (then it is theirs). */
  userMade: boolean;
  /** A copy to remove still here when the last pass settled (it waits for something in it to sync). */
  waiting: boolean;
  included: boolean;
}

const nfc = (path: string): string => path.normalize('NFC');

export class SelectionWorld {
  readonly store: MemorySelection = memorySelection();
  readonly plan: SelectionPlan;
  readonly #folders: Excluded[] = [];
  readonly #moves = new KeptCopyMoves<Excluded>();
  /**
   * Versions the other client moved into an excluded folder, from a file this computer held: its local
   * copy goes to the trash, never unlinked.
   */
  readonly movedAway: { content: string; folder: string }[] = [];
  /** The versions this computer held when the last pass settled. */
  #heldHere = new Set<string>();

  constructor(plan: SelectionPlan) {
    this.plan = plan;
  }

  /**
   * Changes made while a pass runs, or after one that ran since the last check: where the index has an
   * item moved into a kept copy may be where that pass put it (a download's new inode: soak seed 470
   * with --conflict-rate 1), as in a live seed.
   */
  passMayHaveRun(): void {
    this.#moves.live = true;
  }

  /**
   * The local changes made just before, then the exclusions, as the user sets them. `live`: a pass the
   * watcher starts may sync those changes before the exclusions apply, a kept copy's too.
   */
  exclude(ledger: Ledger, local: LocalSide, remote: RemoteSide, options: { live?: boolean } = {}): void {
    this.#moves.live = options.live === true;
    for (const change of this.plan.before) ledger.local(local, change);
    for (const step of this.plan.exclude) {
      const id = this.#idOf(remote, step.path);
      if (id === undefined) continue;
      const path = devicePathOf(remote.device, remote.folderId, id) ?? step.path;
      const within = this.plan.before.filter(
        (change) => change.op !== 'move' && isWithinKey(change.path, path),
      );
      const copy = absolute(local, path);
      const folder: Excluded = {
        step,
        id,
        path,
        localPath: path,
        print: printFolder(remote.device, id),
        mayWrite: new Set(),
        unsynced: [],
        removedCopy: [],
        keptInode:
          step.localCopy === 'keep' && existsSync(copy)
            ? lstatSync(copy, { bigint: true }).ino.toString()
            : undefined,
        userMade: false,
        waiting: false,
        included: false,
      };
      for (const change of step.localCopy === 'remove' || options.live === true ? within : [])
        folder.mayWrite.add(nfc(change.op === 'move' ? change.to : change.path).slice(nfc(path).length + 1));
      if (step.localCopy === 'remove') {
        for (const change of within)
          if (change.op === 'edit' || change.op === 'create-file') folder.unsynced.push(change.content);
        if (existsSync(copy))
          for (const item of readLocalTree(copy))
            if (item.content !== undefined) folder.removedCopy.push(item.content);
      }
      this.#folders.push(folder);
      this.store.exclude(path, id, step.localCopy);
    }
  }

  /**
   * The folders of the plan's `include` come back (the ones still excluded). A kept copy is merged as
   * a first sync merges: what it holds that the folder lacks (a file the other client moved out, the
   * whole copy when it is no longer at the folder's path) goes up, one more copy of each version.
   */
  include(local: LocalSide): void {
    for (const path of this.plan.include) {
      const folder = this.#folders.find((candidate) => !candidate.included && candidate.step.path === path);
      if (folder === undefined) continue;
      // Merged as a first sync merges: what the copy holds that the folder lacks goes up.
      if (folder.step.localCopy === 'keep' && folder.localPath !== null)
        this.#moves.noteNew(absolute(local, folder.localPath));
      folder.included = true;
      this.store.include(folder.id);
      this.#moves.forget(folder);
    }
  }

  get excluded(): readonly Excluded[] {
    return this.#folders.filter((folder) => !folder.included);
  }

  get all(): readonly Excluded[] {
    return this.#folders;
  }

  /** Where synced items were before the user moved them into a kept copy (the device keeps them there). */
  get movedIntoFrom(): string[] {
    return this.#moves.from;
  }

  /** A local change, as the user makes it; what it means for the kept copies is noted. */
  local(ledger: Ledger, side: LocalSide, change: Change): void {
    const kept = this.keptCopies();
    const leaving = this.#moves.leaving(change, kept);
    const impossible = ledger.impossible.length;
    ledger.local(side, change);
    if (ledger.impossible.length > impossible) return;
    const target = change.op === 'move' ? change.to : change.path;
    for (const folder of this.excluded) {
      const at = [folder.path, folder.localPath].some((path) => path !== null && isWithinKey(target, path));
      if (folder.step.localCopy === 'remove' && at) folder.userMade = true;
      folder.localPath = follow(folder.localPath, change, folder.step.localCopy === 'keep');
    }
    this.#moves.made(side, change, leaving, kept, this.keptCopies());
  }

  /** The kept copies here, where this computer's changes (or the engine's renames) put them. */
  keptCopies(): { folder: Excluded; path: string }[] {
    return this.excluded.flatMap((folder) =>
      folder.step.localCopy === 'keep' && folder.localPath !== null
        ? [{ folder, path: folder.localPath }]
        : [],
    );
  }

  /**
   * A change of the other client, with the device to itself: first (a) (the engine changed nothing
   * excluded since the other client last did), then what a move into an excluded folder takes from
   * this computer, then the new baseline.
   */
  async remote(ledger: Ledger, remote: RemoteSide, change: Change): Promise<Violation[]> {
    const violations = this.untouched(remote, 'before a change of the other client');
    const into =
      change.op === 'move'
        ? this.excluded.find(
            (folder) =>
              folder.print !== undefined &&
              isWithinKey(change.to, folder.path) &&
              !isWithinKey(change.from, folder.path),
          )
        : undefined;
    const moved = into === undefined || change.op !== 'move' ? [] : contentsAt(remote, change.from);
    const impossible = ledger.impossible.length;
    await ledger.remote(remote, change);
    if (ledger.impossible.length === impossible && into !== undefined)
      for (const content of moved)
        if (this.#heldHere.has(content)) this.movedAway.push({ content, folder: into.step.path });
    this.observe(remote);
    return violations;
  }

  /**
   * (a) Before the other client changes anything, and at quiet: nothing below an excluded folder
   * changed since the other client last did (`mayWrite`: what the exclusion's pass may send up).
   */
  untouched(remote: RemoteSide, phase: string): Violation[] {
    return this.excluded.flatMap((folder) =>
      checkUntouched(
        `${folder.step.path} (${folder.step.localCopy}), ${phase}`,
        folder.print,
        printFolder(remote.device, folder.id),
        folder.mayWrite,
      ),
    );
  }

  /** After the other client's changes, or a pass that may write (the exclusion's): the new baseline. */
  observe(remote: RemoteSide): void {
    for (const folder of this.#folders) {
      folder.print = printFolder(remote.device, folder.id);
      folder.path = devicePathOf(remote.device, remote.folderId, folder.id) ?? folder.path;
      // A copy that waits (an NFC twin in it, seed 650) still sends its unsynced files up once they can go.
      if (!folder.waiting) folder.mayWrite.clear();
    }
  }

  /**
   * After a pass settled: the device's paths of the folders (a local parent moved here moved them
   * there too); where a copy was removed, its path here is the device's; a kept copy is where its inode
   * is (a conflicted copy's name may have been given to its parent).
   */
  settled(remote: RemoteSide, local: readonly SnapshotItem[]): void {
    this.#heldHere = new Set(local.flatMap((item) => (item.content === undefined ? [] : [item.content])));
    this.#moves.settled(local);
    for (const folder of this.#folders) {
      folder.path = devicePathOf(remote.device, remote.folderId, folder.id) ?? folder.path;
      const copy = folder.localPath;
      folder.waiting =
        folder.step.localCopy === 'remove' &&
        copy !== null &&
        !folder.userMade &&
        local.some((item) => isWithinKey(item.path, copy));
      if (folder.step.localCopy === 'remove') folder.localPath = folder.path;
      else if (folder.localPath !== null)
        folder.localPath =
          local.find((item) => item.kind === 'folder' && item.inode === folder.keptInode)?.path ?? null;
    }
  }

  /** The issues the run expects: a synced file moved into a kept copy is left out, needing the user. */
  readonly expected: ExpectedIssue = (issue: PassIssue) => this.#moves.expects(issue);

  /** `state` with the excluded folders (and kept copies) left out of the usual checks. */
  view(state: PassState): PassState {
    return viewOf(this, state);
  }

  /** Versions that must be somewhere: a removed local copy's (on the device or in the trash). */
  required(ledger: Ledger): RequiredContent[] {
    return requiredBy(this, ledger);
  }

  /** Issue 29's invariants at quiet beside the usual ones (selection-verdict.ts). */
  check(state: PassState, remote: RemoteSide, ledger: Ledger, phase: string): Violation[] {
    return checkSelection(this, state, remote, ledger, phase);
  }

  /** How many files may hold each version: the ledger's count, and one more per time it left a kept copy. */
  allowedCopies(ledger: Ledger): Map<string, number> {
    return this.#moves.allowedCopies(ledger);
  }

  #idOf(remote: RemoteSide, path: string): string | undefined {
    try {
      const id = resolve(remote, path);
      return remote.device.items.getLive(id)?.is_dir === 1 ? id : undefined;
    } catch {
      // The shrinker dropped the folder from the initial tree: nothing to exclude.
      return undefined;
    }
  }
}
