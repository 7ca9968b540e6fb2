// Scenarios of the randomized sync test: a seed becomes an initial tree plus changes on each side, as data.
import {
  applyChange,
  depthOf,
  exactKey,
  foldedKey,
  isWithin,
  itemsOf,
  join,
  nameOf,
  parentOf,
  treeOf,
  type Change,
  type NameKey,
  type Side,
  type Tree,
  type TreeItem,
} from './model.ts';
import { Random } from './random.ts';
import { drawOnDemand, type OnDemandPlan } from './on-demand-plan.ts';
import { drawSelection, type SelectionPlan } from './selection-plan.ts';

export interface Scenario {
  seed: number;
  /** The engine is told the local volume is case-insensitive; local changes then never clash in case. */
  caseInsensitive: boolean;
  /** Where the initial tree is made before the first pass (which brings it to the other side). */
  initialSide: Side;
  initial: TreeItem[];
  local: Change[];
  remote: Change[];
  /** Issue 29: folders excluded after the first pass, changes in and around them, some included again. */
  selection?: SelectionPlan;
  /** Issue 30: the local client is an on-demand pair: pins, placeholders hydrated, freed, overwritten. */
  onDemand?: OnDemandPlan;
}

export interface GeneratorOptions {
  maxInitialItems: number;
  maxChangesPerSide: number;
  /** Deepest path of the initial tree, in names. */
  maxDepth: number;
  /**
   * The local volume itself folds case or normalisation (macOS, Windows): every seed must then tell
   * the engine so, and make no local names that volume would merge.
   */
  foldingVolume?: boolean;
  /** Share of seeds with a selective sync plan (selection-plan.ts, a stream of its own); 0 or absent: none. */
  selectionRate?: number;
  /**
   * Share of seeds whose local client is an on-demand pair (on-demand-plan.ts, a stream of its own; such
   * a seed has no selection plan); 0 or absent: none.
   */
  onDemandRate?: number;
}

export const DEFAULT_GENERATOR: GeneratorOptions = {
  maxInitialItems: 8,
  maxChangesPerSide: 4,
  maxDepth: 3,
  selectionRate: 0.3,
};

const E_NFC = '\u00e9';
const E_NFD = 'e\u0301';
/** Few names, so both sides often pick the same one; some differ only in case or normalisation. */
const FILE_NAMES = [
  'a.txt',
  'A.txt',
  'b.md',
  'notes',
  'Notes',
  `caf${E_NFC}.txt`,
  `caf${E_NFD}.txt`,
  'x.bin',
];
const FOLDER_NAMES = ['docs', 'Docs', 'd', `r${E_NFC}sum${E_NFC}`, `r${E_NFD}sum${E_NFD}`, 'sub', 'notes'];

/** How sibling names compare on each side: the device is exact; the local side as the engine is told. */
export function nameKeyOf(scenario: Pick<Scenario, 'caseInsensitive'>, side: Side): NameKey {
  return side === 'local' && scenario.caseInsensitive ? foldedKey : exactKey;
}

export function generateScenario(seed: number, options: GeneratorOptions = DEFAULT_GENERATOR): Scenario {
  const random = new Random(seed);
  // Drawn either way, so the rest of the seed's numbers do not depend on the volume.
  const caseInsensitive = random.chance(0.25) || options.foldingVolume === true;
  const initialSide: Side = random.chance(0.5) ? 'local' : 'remote';
  const contents = new ContentMaker(seed, random);
  const base: Tree = new Map();
  const itemCount = random.int(Math.min(3, options.maxInitialItems), options.maxInitialItems);
  for (let attempt = 0; base.size < itemCount && attempt < itemCount * 4; attempt++) {
    const parents = ['', ...folders(base)].filter((path) => depthOf(path) < options.maxDepth);
    const parent = random.pick(parents);
    const kind = random.chance(0.6) ? 'file' : 'folder';
    const path = join(parent, pickName(random, kind));
    // The initial tree is what both sides agreed on, so it holds no clash under any volume's rules.
    applyChange(
      base,
      kind === 'file'
        ? { op: 'create-file', path, content: contents.next('i') }
        : { op: 'create-folder', path },
      foldedKey,
    );
  }
  const scenario: Scenario = {
    seed,
    caseInsensitive,
    initialSide,
    initial: itemsOf(base),
    local: [],
    remote: [],
  };
  const sides = {
    local: new SideMaker('local', scenario, random, contents),
    remote: new SideMaker('remote', scenario, random, contents),
  };
  const wanted = {
    local: random.int(0, options.maxChangesPerSide),
    remote: random.int(0, options.maxChangesPerSide),
  };
  // Interleaved, so each side can aim at what the other touched (same file, same new name).
  while (scenario.local.length < wanted.local || scenario.remote.length < wanted.remote) {
    const localDone = scenario.local.length >= wanted.local;
    const remoteDone = scenario.remote.length >= wanted.remote;
    const side: Side = localDone ? 'remote' : remoteDone ? 'local' : random.chance(0.5) ? 'local' : 'remote';
    const other = side === 'local' ? 'remote' : 'local';
    const change = sides[side].make(scenario[other]);
    if (change === null) {
      wanted[side] = scenario[side].length;
      continue;
    }
    scenario[side].push(change);
  }
  const onDemand = drawOnDemand(scenario, options.onDemandRate ?? 0);
  if (onDemand !== undefined) return { ...scenario, onDemand };
  const selection = drawSelection(scenario, options.selectionRate ?? 0);
  return selection === undefined ? scenario : { ...scenario, selection };
}

function folders(tree: Tree): string[] {
  return [...tree.values()].filter((item) => item.kind === 'folder').map((item) => item.path);
}

function pickName(random: Random, kind: 'file' | 'folder'): string {
  const own = kind === 'file' ? FILE_NAMES : FOLDER_NAMES;
  return random.pick(random.chance(0.85) ? own : [...FILE_NAMES, ...FOLDER_NAMES]);
}

/** The same name with another case or the other Unicode normalisation (what a user's rename may do). */
function variantOf(name: string, random: Random): string {
  const nfc = name.normalize('NFC');
  if (nfc !== name.normalize('NFD') && random.chance(0.5)) {
    return name === nfc ? name.normalize('NFD') : nfc;
  }
  const first = name.charAt(0);
  const flipped = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
  return flipped + name.slice(1);
}

/** Unique content per version (`<seed>:<side><n>` and filler), sizes that change with every edit. */
class ContentMaker {
  #count = 0;
  readonly #seed: number;
  readonly #random: Random;

  constructor(seed: number, random: Random) {
    this.#seed = seed;
    this.#random = random;
  }

  next(prefix: string, notLength?: number): string {
    this.#count += 1;
    const filler = 'abcdefghijklmnopqrstuvwxyz'.repeat(2).slice(0, this.#random.int(0, 40));
    const content = `${this.#seed}:${prefix}${this.#count} ${filler}\n`;
    // Linux file times are coarse (a few ms): a same-size edit right after a sync could go unseen.
    return content.length === notLength ? `${content}.` : content;
  }
}

/** Makes one side's changes against its simulated tree. */
class SideMaker {
  readonly tree: Tree;
  readonly #side: Side;
  readonly #key: NameKey;
  readonly #random: Random;
  readonly #contents: ContentMaker;

  constructor(side: Side, scenario: Scenario, random: Random, contents: ContentMaker) {
    this.#side = side;
    this.tree = treeOf(scenario.initial);
    this.#key = nameKeyOf(scenario, side);
    this.#random = random;
    this.#contents = contents;
  }

  /** A change that applies to this side's tree (and is applied), or null after many failed tries. */
  make(otherChanges: readonly Change[]): Change | null {
    for (let attempt = 0; attempt < 30; attempt++) {
      const change = this.#candidate(otherChanges);
      if (change !== null && applyChange(this.tree, change, this.#key) !== null) return change;
    }
    return null;
  }

  #candidate(otherChanges: readonly Change[]): Change | null {
    const random = this.#random;
    const op = random.weighted({ create: 3, edit: 3, delete: 2, move: 3, type: 1 });
    const echo = otherChanges.length > 0 && random.chance(0.4) ? random.pick(otherChanges) : undefined;
    switch (op) {
      case 'create': {
        // Same path as the other side's create (and sometimes the same content): a create-create clash.
        if (echo?.op === 'create-file' || echo?.op === 'create-folder') {
          if (echo.op === 'create-folder') return echo;
          return {
            ...echo,
            content: random.chance(0.5) ? echo.content : this.#contents.next(this.#side[0] ?? ''),
          };
        }
        const parent = random.pick(['', ...folders(this.tree)]);
        const kind = random.chance(0.65) ? 'file' : 'folder';
        const path = join(parent, pickName(random, kind));
        return kind === 'file'
          ? { op: 'create-file', path, content: this.#contents.next(this.#side[0] ?? '') }
          : { op: 'create-folder', path };
      }
      case 'edit': {
        const target = this.#target(echo, 'file');
        if (target === undefined) return null;
        const old = this.tree.get(target)?.content ?? '';
        const same = echo?.op === 'edit' && echo.path === target && echo.content.length !== old.length;
        const content =
          same && random.chance(0.6) ? echo.content : this.#contents.next(this.#side[0] ?? '', old.length);
        return this.#side === 'local' && random.chance(0.3)
          ? { op: 'edit', path: target, content, atomic: true }
          : { op: 'edit', path: target, content };
      }
      case 'delete': {
        const target = this.#target(echo);
        return target === undefined ? null : { op: 'delete', path: target };
      }
      case 'move':
        return this.#move(echo);
      case 'type': {
        const target = this.#target(echo);
        if (target === undefined) return null;
        return this.tree.get(target)?.kind === 'file'
          ? { op: 'file-to-folder', path: target }
          : { op: 'folder-to-file', path: target, content: this.#contents.next(this.#side[0] ?? '') };
      }
      default:
        return null;
    }
  }

  #move(echo: Change | undefined): Change | null {
    const random = this.#random;
    if (echo?.op === 'move' && this.tree.has(echo.from) && random.chance(0.5)) {
      // Both sides move one item: sometimes to the same place, sometimes elsewhere.
      return random.chance(0.5)
        ? echo
        : { op: 'move', from: echo.from, to: join(parentOf(echo.from), variantOf(nameOf(echo.to), random)) };
    }
    const from = this.#target(echo);
    if (from === undefined) return null;
    const roll = random.next();
    const name =
      roll < 0.25
        ? variantOf(nameOf(from), random)
        : roll < 0.6
          ? pickName(random, this.tree.get(from)?.kind ?? 'file')
          : nameOf(from);
    const parents = ['', ...folders(this.tree)].filter((path) => !isWithin(path, from));
    const parent = random.chance(0.5) ? parentOf(from) : random.pick(parents);
    return { op: 'move', from, to: join(parent, name) };
  }

  /** An item of this side's tree, often one the other side's change touched. */
  #target(echo: Change | undefined, kind?: 'file' | 'folder'): string | undefined {
    const fits = (path: string): boolean => {
      const item = this.tree.get(path);
      return item !== undefined && (kind === undefined || item.kind === kind);
    };
    const echoed = echo === undefined ? undefined : echo.op === 'move' ? echo.from : echo.path;
    if (echoed !== undefined && fits(echoed)) return echoed;
    const candidates = [...this.tree.keys()].filter(fits);
    return candidates.length === 0 ? undefined : this.#random.pick(candidates);
  }
}
