// A seed of the SIGKILL runs: a tree of a few hundred files, the work a killed `mch-sync run` does, when it dies.
import {
  applyChange,
  exactKey,
  isWithin,
  join,
  nameOf,
  parentOf,
  type Change,
  type Tree,
} from '../canopy/model.ts';
import { Random } from '../canopy/random.ts';
import type { Scenario } from '../canopy/scenario.ts';
import { generateLateChanges, type LateChanges } from './late-changes.ts';

/**
 * What the killed runs are doing: the first upload of a tree, a download (the first one, or of the
 * device's changes), local or remote renames and moves of files and folders, or edits on both sides.
 */
export type WorkKind = 'upload' | 'download' | 'local-moves' | 'remote-moves' | 'mixed';

/** When one run is killed: at the device's k-th work request since it started (then maybe a few ms on), or after a delay. */
export type KillMoment =
  | { at: 'request'; request: number; thenMs: number; live: boolean }
  /** At the k-th change the run makes in the local folder (downloads, the local side of remote moves). */
  | { at: 'local'; event: number; live: boolean }
  | { at: 'delay'; ms: number; live: boolean };

export interface KillScenario {
  /** The canopy form: initial tree, each side's changes; its ledger says which versions must survive. */
  scenario: Scenario;
  kind: WorkKind;
  /** A pass (not killed) syncs the initial tree before the changes are made; without one the first pass is the work. */
  setupPass: boolean;
  kills: KillMoment[];
  /** The last changes of each side in `scenario`, made after the first kill and before the next run. */
  late: LateChanges;
}

/**
 * Most files tiny, some of tens of KB, a few of megabytes (those are in flight when a kill comes), and
 * one in 200 above the client's 8 MB resumable threshold (a session and chunks: more moments to die in).
 */
function fileSize(random: Random): number {
  const roll = random.next();
  if (roll < 0.7) return random.int(20, 400);
  if (roll < 0.955) return random.int(1_000, 64_000);
  if (roll < 0.995) return random.int(500_000, 3_000_000);
  return random.int(8_500_000, 10_000_000);
}

/** Unique content per version (the ledger and the duplicate check trace versions by content). */
export class Contents {
  readonly #seed: number;
  readonly #random: Random;
  #count = 0;

  constructor(seed: number, random: Random) {
    this.#seed = seed;
    this.#random = random;
  }

  next(tag: string): string {
    this.#count += 1;
    const head = `k${this.#seed}-${tag}${this.#count}\n`;
    const size = Math.max(head.length, fileSize(this.#random));
    const filler = `${head.trim()} ${'0123456789abcdef'.repeat(4)}\n`;
    return (head + filler.repeat(Math.ceil(size / filler.length))).slice(0, size);
  }
}

function foldersOf(tree: Tree): string[] {
  return [...tree.values()].filter((item) => item.kind === 'folder').map((item) => item.path);
}

function filesOf(tree: Tree): string[] {
  return [...tree.values()].filter((item) => item.kind === 'file').map((item) => item.path);
}

/** A tree of `files` files in about files/12 folders, up to 3 deep. */
function initialTree(random: Random, contents: Contents, files: number): Tree {
  const tree: Tree = new Map();
  const folderCount = Math.max(2, Math.round(files / 12));
  for (let index = 0; index < folderCount; index += 1) {
    const parents = ['', ...foldersOf(tree)].filter((path) => path.split('/').length < 3);
    const path = join(random.pick(parents), `dir-${index}`);
    applyChange(tree, { op: 'create-folder', path }, exactKey);
  }
  const parents = ['', ...foldersOf(tree)];
  for (let index = 0; index < files; index += 1) {
    const path = join(random.pick(parents), `file-${index}.txt`);
    applyChange(tree, { op: 'create-file', path, content: contents.next('i') }, exactKey);
  }
  return tree;
}

/** Makes changes on one side's copy of the tree; each is applied to `tree` so the next one fits. */
class SideChanges {
  readonly changes: Change[] = [];
  readonly #tree: Tree;
  readonly #random: Random;
  readonly #contents: Contents;
  readonly #tag: string;
  #names = 0;

  constructor(tree: Tree, random: Random, contents: Contents, tag: string) {
    this.#tree = new Map([...tree].map(([path, item]) => [path, { ...item }]));
    this.#random = random;
    this.#contents = contents;
    this.#tag = tag;
  }

  #apply(change: Change): void {
    if (applyChange(this.#tree, change, exactKey) !== null) this.changes.push(change);
  }

  #newName(prefix: string, extension = ''): string {
    this.#names += 1;
    return `${prefix}-${this.#tag}${this.#names}${extension}`;
  }

  moveFile(): void {
    const from = this.#random.pick(filesOf(this.#tree));
    const to = this.#random.chance(0.5)
      ? join(parentOf(from), this.#newName('renamed', '.txt'))
      : join(
          this.#random.pick(['', ...foldersOf(this.#tree)]),
          this.#random.chance(0.5) ? nameOf(from) : this.#newName('moved', '.txt'),
        );
    this.#apply({ op: 'move', from, to });
  }

  moveFolder(): void {
    const folders = foldersOf(this.#tree);
    if (folders.length === 0) return;
    const from = this.#random.pick(folders);
    const targets = ['', ...folders].filter((path) => !isWithin(path, from));
    const to = this.#random.chance(0.5)
      ? join(parentOf(from), this.#newName('folder'))
      : join(this.#random.pick(targets), this.#random.chance(0.5) ? nameOf(from) : this.#newName('folder'));
    this.#apply({ op: 'move', from, to });
  }

  createFolder(): void {
    this.#apply({
      op: 'create-folder',
      path: join(this.#random.pick(['', ...foldersOf(this.#tree)]), this.#newName('new')),
    });
  }

  createFile(): void {
    const path = join(this.#random.pick(['', ...foldersOf(this.#tree)]), this.#newName('new', '.txt'));
    this.#apply({ op: 'create-file', path, content: this.#contents.next(this.#tag) });
  }

  edit(path = this.#random.pick(filesOf(this.#tree))): void {
    this.#apply({
      op: 'edit',
      path,
      content: this.#contents.next(this.#tag),
      atomic: this.#random.chance(0.3),
    });
  }

  deleteOne(): void {
    // Files mostly: a folder's delete counts all it holds against the mass-delete guard.
    const files = filesOf(this.#tree);
    this.#apply({ op: 'delete', path: this.#random.pick(files) });
  }

  has(path: string): boolean {
    return this.#tree.get(path)?.kind === 'file';
  }
}

/**
 * Each run after a kill has less left to do, so its moment is drawn from a shorter range (the k-th
 * kill from 1/k of the work). Delays: a run starts in well under a second here and a pass of a few
 * hundred items takes a second or two, so they stay within that.
 */
function killMoments(
  random: Random,
  expectedRequests: number,
  localWork: boolean,
  expectedEvents: number,
): KillMoment[] {
  const count = Number(random.weighted({ 1: 5, 2: 3, 3: 2 }));
  return Array.from({ length: count }, (_, index): KillMoment => {
    const share = (total: number): number => Math.max(2, Math.round(total / (index + 1)));
    const live = random.chance(0.2);
    const roll = random.next();
    if (localWork && roll < 0.5) return { at: 'local', event: random.int(1, share(expectedEvents)), live };
    if (roll < 0.8) {
      return {
        at: 'request',
        request: random.int(1, share(expectedRequests)),
        thenMs: random.chance(0.5) ? random.int(0, 40) : 0,
        live,
      };
    }
    return { at: 'delay', ms: random.int(300, 700 + share(expectedRequests) * 5), live };
  });
}

export function generateKillScenario(seed: number, files: number): KillScenario {
  const random = new Random(seed);
  const contents = new Contents(seed, random);
  const kind = random.weighted<WorkKind>({
    upload: 2,
    download: 2,
    'local-moves': 2,
    'remote-moves': 2,
    mixed: 2,
  });
  const tree = initialTree(random, contents, files);
  const local = new SideChanges(tree, random, contents, 'l');
  const remote = new SideChanges(tree, random, contents, 'r');
  // A download is the first one half the time, else the device's changes after a synced start.
  const setupPass = kind !== 'upload' && !(kind === 'download' && random.chance(0.5));
  const changes = Math.max(4, Math.round(files / 5));
  for (let index = 0; index < changes && setupPass; index += 1) {
    if (kind === 'download') {
      if (random.weighted({ create: 5, edit: 3, delete: 1 }) === 'create') remote.createFile();
      else if (random.chance(0.75)) remote.edit();
      else remote.deleteOne();
    } else if (kind === 'local-moves' || kind === 'remote-moves') {
      const side = kind === 'local-moves' ? local : remote;
      const what = random.weighted({ file: 6, folder: 2, create: 1 });
      if (what === 'file') side.moveFile();
      else if (what === 'folder') side.moveFolder();
      else side.createFolder();
    } else {
      const side = random.chance(0.5) ? local : remote;
      const what = random.weighted({ edit: 4, both: 1, create: 3, move: 3, folder: 1, delete: 1 });
      if (what === 'edit') side.edit();
      else if (what === 'both') {
        // The same file edited on both sides: a conflicted copy keeps one version.
        const path = random.pick(filesOf(tree));
        if (local.has(path) && remote.has(path)) {
          local.edit(path);
          remote.edit(path);
        }
      } else if (what === 'create') side.createFile();
      else if (what === 'move') side.moveFile();
      else if (what === 'folder') side.moveFolder();
      else side.deleteOne();
    }
  }
  const initialSide =
    kind === 'download' && !setupPass
      ? 'remote'
      : kind === 'upload'
        ? 'local'
        : random.chance(0.5)
          ? 'local'
          : 'remote';
  const work = setupPass ? local.changes.length + remote.changes.length : tree.size;
  const scenario: Scenario = {
    seed,
    caseInsensitive: false,
    initialSide,
    initial: [...tree.values()],
    local: local.changes,
    remote: remote.changes,
  };
  // Drawn from their own numbers, so adding them left the rest of each seed as it was.
  const lateRandom = new Random(seed + 0x40000000);
  const late = lateRandom.chance(0.5)
    ? generateLateChanges(
        scenario,
        setupPass ? ['local', 'remote'] : [initialSide],
        new Contents(seed, lateRandom),
        lateRandom,
      )
    : { local: [], remote: [] };
  return {
    scenario: {
      ...scenario,
      local: [...scenario.local, ...late.local],
      remote: [...scenario.remote, ...late.remote],
    },
    kind,
    setupPass,
    late,
    // About one work request per item worked on (and per folder, for a first pass).
    // Downloads and remote moves happen in the local folder: a few file-system events per item.
    kills: killMoments(
      random,
      Math.round(work * 1.1) + 2,
      kind === 'download' || kind === 'remote-moves' || kind === 'mixed',
      work * 3,
    ),
  };
}
