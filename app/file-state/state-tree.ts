// The items of one pair that are not simply up to date, with a count per folder of each urgent state below it, so a folder's state is one lookup.
import type { FileSyncState, NotSyncedReason } from '../../common/file-state.ts';

/** Something about one path that the index alone does not say. */
export interface Exception {
  state: Extract<FileSyncState, 'syncing-up' | 'syncing-down' | 'waiting' | 'conflict' | 'not-synced'>;
  reason?: NotSyncedReason;
  code?: string;
  message?: string;
}

/** How urgent a state is for the folders above it: 0 does not show above (an ignored item). */
export function urgency(exception: Exception): number {
  switch (exception.state) {
    case 'not-synced':
      return exception.reason === 'ignored' ? 0 : 4;
    case 'conflict':
      return 3;
    case 'syncing-up':
    case 'syncing-down':
      return 2;
    case 'waiting':
      return 1;
  }
}

const LEVELS = 5;

/**
 * Exceptions by path, in layers (a transfer over a waiting edit over an issue: what is happening now
 * wins), and for each folder above one of them how many of each urgency lie below. Setting a path
 * costs its depth; asking a folder costs one map lookup, never a walk of the tree.
 */
export class StateTree {
  readonly #layers = new Map<string, Map<string, Exception>>();
  readonly #order: readonly string[];
  /** path → the exception shown (the first layer in `order` that has one). */
  readonly #shown = new Map<string, Exception>();
  /** folder path ('' the root) → counts by urgency of the shown exceptions strictly below it. */
  readonly #below = new Map<string, number[]>();

  /** `order`: the layers, the one shown first when a path is in several. */
  constructor(order: readonly string[]) {
    this.#order = order;
    for (const layer of order) this.#layers.set(layer, new Map());
  }

  /** The exception shown for the path itself, if any. */
  own(path: string): Exception | undefined {
    return this.#shown.get(path);
  }

  /** The highest urgency below a folder (0 when nothing urgent is there). */
  urgencyBelow(folder: string): number {
    const counts = this.#below.get(folder);
    if (counts === undefined) return 0;
    for (let level = LEVELS - 1; level > 0; level -= 1) if ((counts[level] ?? 0) > 0) return level;
    return 0;
  }

  /** One path below `folder` whose exception has the given urgency (what a folder's state comes from). */
  sourceBelow(folder: string, level: number): [string, Exception] | undefined {
    const prefix = folder === '' ? '' : `${folder}/`;
    for (const [path, exception] of this.#shown) {
      if (path.startsWith(prefix) && path !== folder && urgency(exception) === level)
        return [path, exception];
    }
    return undefined;
  }

  /** The paths the layer holds now. */
  paths(layer: string): string[] {
    return [...(this.#layers.get(layer)?.keys() ?? [])];
  }

  /** Sets or clears (undefined) a path's exception in a layer; returns the paths whose state may have changed. */
  set(layer: string, path: string, exception: Exception | undefined): string[] {
    const map = this.#layer(layer);
    if (exception === undefined ? !map.has(path) : same(map.get(path), exception)) return [];
    if (exception === undefined) map.delete(path);
    else map.set(path, exception);
    return this.#reshow(path);
  }

  /** Replaces a whole layer; returns the paths whose state may have changed. */
  replace(layer: string, next: ReadonlyMap<string, Exception>): string[] {
    const map = this.#layer(layer);
    const touched = new Set<string>();
    for (const path of [...map.keys()]) {
      if (!next.has(path)) {
        map.delete(path);
        for (const changed of this.#reshow(path)) touched.add(changed);
      }
    }
    for (const [path, exception] of next) {
      if (same(map.get(path), exception)) continue;
      map.set(path, exception);
      for (const changed of this.#reshow(path)) touched.add(changed);
    }
    return [...touched];
  }

  #layer(layer: string): Map<string, Exception> {
    const map = this.#layers.get(layer);
    if (map === undefined) throw new Error(`no layer ${layer}`);
    return map;
  }

  /** The shown exception of a path chosen again, and the counts of its folders moved with it. */
  #reshow(path: string): string[] {
    let next: Exception | undefined;
    for (const layer of this.#order) {
      next = this.#layers.get(layer)?.get(path);
      if (next !== undefined) break;
    }
    const before = this.#shown.get(path);
    if (next === undefined) this.#shown.delete(path);
    else this.#shown.set(path, next);
    const from = before === undefined ? 0 : urgency(before);
    const to = next === undefined ? 0 : urgency(next);
    const changed = [path];
    if (from === to) return changed;
    for (const folder of foldersAbove(path)) {
      const old = this.urgencyBelow(folder);
      let counts = this.#below.get(folder);
      if (counts === undefined) {
        counts = new Array<number>(LEVELS).fill(0);
        this.#below.set(folder, counts);
      }
      if (from > 0) counts[from] = (counts[from] ?? 0) - 1;
      if (to > 0) counts[to] = (counts[to] ?? 0) + 1;
      if (counts.every((count) => count === 0)) this.#below.delete(folder);
      if (this.urgencyBelow(folder) !== old) changed.push(folder);
    }
    return changed;
  }
}

/** The folders that hold a path, nearest first, the root ('') last. */
export function foldersAbove(path: string): string[] {
  const folders: string[] = [];
  let end = path.lastIndexOf('/');
  while (end > 0) {
    folders.push(path.slice(0, end));
    end = path.lastIndexOf('/', end - 1);
  }
  if (path !== '') folders.push('');
  return folders;
}

function same(a: Exception | undefined, b: Exception): boolean {
  return (
    a !== undefined &&
    a.state === b.state &&
    a.reason === b.reason &&
    a.code === b.code &&
    a.message === b.message
  );
}
