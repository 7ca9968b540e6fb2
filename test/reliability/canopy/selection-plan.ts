// Selective sync in the randomized model (issue 29): the folders a seed excludes, the changes in and around them, the ones included again; drawn from a stream of their own.
import {
  applyChange,
  exactKey,
  foldedKey,
  isWithin,
  join,
  nameOf,
  parentOf,
  treeOf,
  type Change,
  type NameKey,
  type Tree,
} from './model.ts';
import { Random } from './random.ts';
import type { Scenario } from './scenario.ts';

export type LocalCopy = 'remove' | 'keep';

/** A device folder of the initial tree excluded after the first pass, and what becomes of its local copy. */
export interface ExcludeStep {
  path: string;
  localCopy: LocalCopy;
}

/**
 * A seed's selective sync, plain data like the rest of the scenario. After the first pass: the local
 * changes `before` (unsynced content in a copy about to be excluded), then the exclusions, a pass; then
 * the scenario's own changes with `local` and `remote` after them (inside and around the excluded
 * folders), a pass; then the folders of `include` (named by their path at exclusion) come back, a pass.
 */
export interface SelectionPlan {
  exclude: ExcludeStep[];
  before: Change[];
  local: Change[];
  remote: Change[];
  include: string[];
}

/** The scenario fields the plan is drawn from (scenario.ts imports this module: no cycle of values). */
type BaseScenario = Pick<Scenario, 'seed' | 'caseInsensitive' | 'initial' | 'local' | 'remote'>;

const FILE_NAMES = ['a.txt', 'A.txt', 'kept.md', 'b.md', 'caf\u00e9.txt', 'x.bin'];
const FOLDER_NAMES = ['sub', 'Sub', 'd', 'moved'];

/**
 * The seed's plan, or undefined (no folder to exclude, or not drawn at `rate`). Its own stream: the
 * trees and changes of the seed are those it has without selective sync.
 */
export function drawSelection(scenario: BaseScenario, rate: number): SelectionPlan | undefined {
  const random = new Random(scenario.seed ^ 0x295e1ec7);
  if (!random.chance(rate)) return undefined;
  const folders = scenario.initial.filter((item) => item.kind === 'folder').map((item) => item.path);
  if (folders.length === 0) return undefined;
  const exclude: ExcludeStep[] = [];
  const wanted = folders.length > 1 && random.chance(0.3) ? 2 : 1;
  for (let count = 0; count < wanted; count++) {
    const free = folders.filter((path) =>
      exclude.every((step) => !isWithin(path, step.path) && !isWithin(step.path, path)),
    );
    if (free.length === 0) break;
    // Nested folders more often: their local parents are what a user deletes or renames around them.
    const nested = free.filter((path) => path.includes('/'));
    const path = random.pick(nested.length > 0 && random.chance(0.6) ? nested : free);
    exclude.push({ path, localCopy: random.chance(0.5) ? 'keep' : 'remove' });
  }
  const maker = new PlanMaker(scenario, random);
  return maker.plan(exclude);
}

/** Where an excluded folder is on each side as the changes go: null once gone (or, locally, moved away). */
interface Whereabouts {
  step: ExcludeStep;
  local: string | null;
  remote: string | null;
  /** The local copy was changed by the user while excluded (worth including again). */
  keptEdited: boolean;
}

/** The path `path` has after `change` (its folder moved), or null when the change removes it. */
function follow(path: string | null, change: Change, selfMoveKeeps: boolean): string | null {
  if (path === null) return null;
  if (change.op === 'move') {
    if (!isWithin(path, change.from)) return path;
    if (path === change.from && !selfMoveKeeps) return null;
    return change.to + path.slice(change.from.length);
  }
  if (change.op === 'create-file' || change.op === 'create-folder' || change.op === 'edit') return path;
  return isWithin(path, change.path) ? null : path;
}

class PlanMaker {
  readonly #scenario: BaseScenario;
  readonly #random: Random;
  readonly #localKey: NameKey;
  #count = 0;

  constructor(scenario: BaseScenario, random: Random) {
    this.#scenario = scenario;
    this.#random = random;
    this.#localKey = scenario.caseInsensitive ? foldedKey : exactKey;
  }

  plan(exclude: ExcludeStep[]): SelectionPlan {
    const random = this.#random;
    const scenario = this.#scenario;
    const local = treeOf(scenario.initial);
    const remote = treeOf(scenario.initial);
    const before: Change[] = [];
    for (const step of exclude) {
      if (!random.chance(0.4)) continue;
      for (let count = random.int(1, 2); count > 0; count--) {
        const change = this.#inside(local, step.path, false);
        if (change !== null && applyChange(local, change, this.#localKey) !== null) before.push(change);
      }
    }
    // What is unsynced in a copy to remove goes up first; a kept copy's stays here.
    for (const change of before) {
      const target = change.op === 'move' ? change.to : change.path;
      if (exclude.some((step) => step.localCopy === 'remove' && isWithin(target, step.path)))
        applyChange(remote, change, exactKey);
    }
    for (const step of exclude)
      if (step.localCopy === 'remove') applyChange(local, { op: 'delete', path: step.path }, exactKey);
    const where: Whereabouts[] = exclude.map((step) => ({
      step,
      local: step.path,
      remote: step.path,
      keptEdited: false,
    }));
    for (const change of scenario.local) this.#apply(local, change, where, 'local');
    for (const change of scenario.remote) this.#apply(remote, change, where, 'remote');
    const localChanges = this.#changes(local, where, 'local', random.int(0, 2));
    const remoteChanges = this.#changes(remote, where, 'remote', random.int(0, 3));
    const include = where
      .filter((folder) => random.chance(folder.keptEdited ? 0.8 : 0.5))
      .map((folder) => folder.step.path);
    return { exclude, before, local: localChanges, remote: remoteChanges, include };
  }

  #apply(tree: Tree, change: Change, where: Whereabouts[], side: 'local' | 'remote'): boolean {
    if (applyChange(tree, change, side === 'local' ? this.#localKey : exactKey) === null) return false;
    for (const folder of where) {
      if (side === 'remote') {
        folder.remote = follow(folder.remote, change, true);
        continue;
      }
      const target = change.op === 'move' ? change.to : change.path;
      const kept = folder.local;
      // A kept copy is known by its inode: moved here, it stays kept.
      folder.local = follow(folder.local, change, folder.step.localCopy === 'keep');
      if (kept !== null && folder.step.localCopy === 'keep' && isWithin(target, kept) && target !== kept)
        folder.keptEdited = true;
    }
    return true;
  }

  #changes(tree: Tree, where: Whereabouts[], side: 'local' | 'remote', wanted: number): Change[] {
    const made: Change[] = [];
    for (let attempt = 0; made.length < wanted && attempt < wanted * 8; attempt++) {
      const folder = this.#random.pick(where);
      const change =
        side === 'local' ? this.#localChange(tree, folder, where) : this.#remoteChange(tree, folder);
      if (change !== null && this.#apply(tree, change, where, side)) made.push(change);
    }
    return made;
  }

  /** The other computer: moves into and out of the folder, changes inside it, the folder itself moved. */
  #remoteChange(tree: Tree, folder: Whereabouts): Change | null {
    const at = folder.remote;
    if (at === null) return null;
    const random = this.#random;
    const outside = (path: string): boolean => !isWithin(path, at) && !isWithin(at, path);
    switch (random.weighted({ into: 3, out: 3, inside: 3, itself: 1 })) {
      case 'into': {
        const item = this.#pickItem(tree, outside);
        if (item === undefined) return null;
        return { op: 'move', from: item, to: join(this.#folderWithin(tree, at), this.#name(item)) };
      }
      case 'out': {
        const item = this.#pickItem(tree, (path) => isWithin(path, at) && path !== at);
        if (item === undefined) return null;
        const parents = ['', ...this.#folders(tree)].filter((path) => path === '' || outside(path));
        return { op: 'move', from: item, to: join(random.pick(parents), this.#name(item)) };
      }
      case 'inside':
        return this.#inside(tree, at, true);
      case 'itself': {
        const parents = ['', ...this.#folders(tree)].filter((path) => path === '' || outside(path));
        const parent = random.chance(0.6) ? parentOf(at) : random.pick(parents);
        return { op: 'move', from: at, to: join(parent, this.#pickName('folder')) };
      }
      default:
        return null;
    }
  }

  /** This computer: the folder's local parent deleted or moved; a file moved into a kept copy, or one edited there. */
  #localChange(tree: Tree, folder: Whereabouts, where: Whereabouts[]): Change | null {
    const at = folder.local;
    if (at === null) return null;
    const random = this.#random;
    const keep = folder.step.localCopy === 'keep' && tree.get(at)?.kind === 'folder';
    const excluded = where.flatMap((other) => (other.local === null ? [] : [other.local]));
    const free = (path: string): boolean => excluded.every((other) => !isWithin(path, other));
    const ancestors: string[] = [];
    for (let parent = parentOf(at); parent !== ''; parent = parentOf(parent)) ancestors.push(parent);
    const op = random.weighted({
      'parent-move': ancestors.length > 0 ? 3 : 0,
      'parent-delete': ancestors.length > 0 ? 2 : 0,
      'into-kept': keep ? 3 : 0,
      'edit-kept': keep ? 2 : 0,
      'make-again': !keep && !tree.has(at) && (parentOf(at) === '' || tree.has(parentOf(at))) ? 1 : 0,
      none: 1,
    });
    switch (op) {
      case 'parent-move': {
        const moved = random.pick(ancestors);
        const parents = ['', ...this.#folders(tree)].filter((path) => !isWithin(path, moved) && free(path));
        const parent = random.chance(0.6) ? parentOf(moved) : random.pick(parents);
        return { op: 'move', from: moved, to: join(parent, this.#pickName('folder')) };
      }
      case 'parent-delete':
        return { op: 'delete', path: random.pick(ancestors) };
      case 'into-kept': {
        const item = this.#pickItem(tree, (path) => free(path) && !isWithin(at, path));
        if (item === undefined) return null;
        return { op: 'move', from: item, to: join(this.#folderWithin(tree, at), this.#name(item)) };
      }
      case 'edit-kept':
        return this.#inside(tree, at, false);
      case 'make-again':
        return { op: 'create-folder', path: at };
      case 'none':
      default:
        return null;
    }
  }

  /** An edit or a new file inside `folder` (and, `anything`: a new folder or a delete too). */
  #inside(tree: Tree, folder: string, anything: boolean): Change | null {
    const random = this.#random;
    const files = [...tree.values()].filter((item) => item.kind === 'file' && isWithin(item.path, folder));
    const op = random.weighted({
      edit: files.length > 0 ? 3 : 0,
      create: 3,
      'create-folder': anything ? 1 : 0,
      delete: anything ? 1 : 0,
    });
    if (op === 'edit') {
      const file = random.pick(files);
      return { op: 'edit', path: file.path, content: this.#content(file.content?.length) };
    }
    if (op === 'delete') {
      const item = this.#pickItem(tree, (path) => isWithin(path, folder) && path !== folder);
      return item === undefined ? null : { op: 'delete', path: item };
    }
    const path = join(this.#folderWithin(tree, folder), this.#pickName(op === 'create' ? 'file' : 'folder'));
    return op === 'create'
      ? { op: 'create-file', path, content: this.#content() }
      : { op: 'create-folder', path };
  }

  #folders(tree: Tree): string[] {
    return [...tree.values()].filter((item) => item.kind === 'folder').map((item) => item.path);
  }

  /** `folder` or one of its subfolders. */
  #folderWithin(tree: Tree, folder: string): string {
    const within = this.#folders(tree).filter((path) => isWithin(path, folder));
    return this.#random.chance(0.7) || within.length === 0 ? folder : this.#random.pick(within);
  }

  /** An item that fits, files more often than folders. */
  #pickItem(tree: Tree, fits: (path: string) => boolean): string | undefined {
    const items = [...tree.values()].filter((item) => fits(item.path));
    if (items.length === 0) return undefined;
    const files = items.filter((item) => item.kind === 'file');
    return this.#random.pick(files.length > 0 && this.#random.chance(0.7) ? files : items).path;
  }

  #name(path: string): string {
    return this.#random.chance(0.6) ? nameOf(path) : this.#pickName('file');
  }

  #pickName(kind: 'file' | 'folder'): string {
    return this.#random.pick(kind === 'file' ? FILE_NAMES : FOLDER_NAMES);
  }

  /** Unique per version (`<seed>:s<n>`), and never the length of the version it replaces. */
  #content(notLength?: number): string {
    this.#count += 1;
    const filler = 'abcdefghijklmnopqrstuvwxyz'.repeat(2).slice(0, this.#random.int(0, 40));
    const content = `${this.#scenario.seed}:s${this.#count} ${filler}\n`;
    return content.length === notLength ? `${content}.` : content;
  }
}
