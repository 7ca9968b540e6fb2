// The paths a round knows nothing about (skipped, vanished, left out), asked for every item of the round.
import { nameKey, type RelativePath } from '../../model/items.ts';

/**
 * How far an unknown path reaches: the item itself and what is below it (skipped by the scan, left out
 * by name), or only what is below it (a folder gone from the walk: its entry is still known).
 */
export type UnknownReach = 'itself-and-below' | 'below';

/** Paths (NFC) below which nothing is known this round, and for some the path itself. */
export class UnknownPaths {
  readonly #paths: Array<{ key: string; prefix: string; self: boolean }> = [];
  /** For many paths, sets to look each ancestor up in (built on first need). */
  #sets: { self: Set<string>; below: Set<string> } | undefined;

  get size(): number {
    return this.#paths.length;
  }

  add(path: RelativePath, reach: UnknownReach): void {
    const key = nameKey(path);
    this.#paths.push({ key, prefix: `${key}/`, self: reach === 'itself-and-below' });
    this.#sets = undefined;
  }

  covers(path: RelativePath): boolean {
    if (this.#paths.length === 0) return false;
    const key = nameKey(path);
    // The usual few (the state folder, a locked file): one pass asks this for every item.
    if (this.#paths.length <= 16) {
      return this.#paths.some((known) => key.startsWith(known.prefix) || (known.self && key === known.key));
    }
    const sets = (this.#sets ??= this.#buildSets());
    if (sets.self.has(key)) return true;
    for (let slash = key.lastIndexOf('/'); slash > 0; slash = key.lastIndexOf('/', slash - 1)) {
      const ancestor = key.slice(0, slash);
      if (sets.self.has(ancestor) || sets.below.has(ancestor)) return true;
    }
    return false;
  }

  #buildSets(): { self: Set<string>; below: Set<string> } {
    const sets = { self: new Set<string>(), below: new Set<string>() };
    for (const { key, self } of this.#paths) (self ? sets.self : sets.below).add(key);
    return sets;
  }
}
