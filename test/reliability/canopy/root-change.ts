// Issue 26's replaced and remounted roots: the folder moved aside and made again, its disk unplugged or swapped; the user's way back; what must not change meanwhile.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isBookkeeping } from './bookkeeping.ts';
import { showPath, type SnapshotItem, type Violation } from './invariants.ts';
import type { LocalPlace } from './local-disk.ts';
import type { RootPlan } from './soak-plans.ts';
import { readLocalTree } from './snapshot.ts';

/** A file the user wrote into the folder that took the synced one's place. */
export interface StrayWrite {
  path: string;
  content: string;
}

/** One seed's change of its folder, and the way back the user takes. */
export class RootChange {
  readonly plan: RootPlan;
  /** What the user wrote into the new folder, the bare mount point or the other disk. */
  readonly writes: StrayWrite[] = [];
  readonly #place: LocalPlace;
  readonly #work: string;
  readonly #seed: number;

  constructor(plan: RootPlan, place: LocalPlace, work: string, seed: number) {
    this.plan = plan;
    this.#place = place;
    this.#work = work;
    this.#seed = seed;
  }

  get #root(): string {
    return this.#place.local.root;
  }

  /** The folder stops being the synced one; `syncedFiles` are the paths of files synced a moment ago. */
  apply(syncedFiles: readonly string[]): void {
    const { how, writes, atSynced } = this.plan;
    if (how === 'replace') {
      renameSync(this.#root, this.#aside);
      mkdirSync(this.#root);
    } else if (how === 'unmount') {
      this.#place.unplug();
    } else {
      this.#place.swapDisk();
    }
    for (let n = 0; n < writes; n++) {
      // Each at a path of its own: a second write over the first would be the harness's own loss.
      const synced = n < atSynced ? syncedFiles[n] : undefined;
      const path = synced ?? `stray-${n + 1}.txt`;
      const content = `${this.#seed}:root${n + 1} written in the ${how === 'replace' ? 'new folder' : how === 'unmount' ? 'bare mount point' : 'other disk'}\n`;
      const target = join(this.#root, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content, 'latin1');
      this.writes.push({ path, content });
    }
  }

  /** The user puts the synced folder back: the new one moved aside, or the right disk plugged in. */
  putBack(): void {
    const how = this.plan.how;
    if (how === 'replace') {
      renameSync(this.#root, join(this.#work, 'local.new'));
      renameSync(this.#aside, this.#root);
    } else if (how === 'unmount') {
      this.#place.plugBack();
    } else {
      this.#place.swapBack();
    }
  }

  /**
   * After a restore the folder that was synced stays where the user left it, with everything in it:
   * the folder moved aside, or the first disk's folder. Its files are the user's own, still on disk.
   */
  keptAside(): string | undefined {
    if (this.plan.how === 'replace') return this.#aside;
    if (this.plan.how === 'other-disk') return this.#place.firstDiskFolder;
    return undefined;
  }

  get #aside(): string {
    return join(this.#work, 'local.synced');
  }
}

/** The synced files of a local tree (not a disk's own folders), for writes at synced paths. */
export function syncedFilePaths(root: string): string[] {
  return readLocalTree(root)
    .filter((item) => item.kind === 'file' && !isBookkeeping(item.path))
    .map((item) => item.path);
}

/** Both sides as they are, to show that held passes changed nothing: paths, kinds, bytes, local inodes. */
export interface SidesSnapshot {
  local: SnapshotItem[];
  remote: SnapshotItem[];
}

/** What changed between two snapshots of both sides, as violations of a hold. */
export function checkUnchanged(before: SidesSnapshot, after: SidesSnapshot, during: string): Violation[] {
  const differences: string[] = [];
  for (const side of ['local', 'remote'] as const) {
    const key = (item: SnapshotItem): string => `${item.kind}:${item.inode ?? ''}:${item.content ?? ''}`;
    const was = new Map(before[side].map((item) => [item.path, key(item)]));
    const now = new Map(after[side].map((item) => [item.path, key(item)]));
    for (const [path, value] of now) {
      if (!was.has(path)) differences.push(`${side} ${showPath(path)} appeared`);
      else if (was.get(path) !== value) differences.push(`${side} ${showPath(path)} changed`);
    }
    for (const path of was.keys()) if (!now.has(path)) differences.push(`${side} ${showPath(path)} went`);
  }
  return differences.length === 0
    ? []
    : [
        {
          code: 'held-wrote',
          message: `${during}: ${differences.slice(0, 8).join(', ')}${differences.length > 8 ? '...' : ''}`,
        },
      ];
}

/** Requests that change the device, of those the relay saw (`METHOD /path`). */
export function writeRequests(seen: readonly string[]): string[] {
  return seen.filter((request) => !request.startsWith('GET ') && !request.startsWith('HEAD '));
}

/**
 * After a restore (merge): every version either side held just before it is in the merged local
 * tree (and so, trees being identical, on the device): nothing deleted, files that differ kept twice;
 * or in `kept`, the versions store, when the pair's conflict policy settled such a pair (issue 31).
 */
export function checkMerged(
  held: ReadonlySet<string>,
  local: readonly SnapshotItem[],
  kept: readonly string[] = [],
): Violation[] {
  const present = new Set(local.flatMap((item) => (item.content === undefined ? [] : [item.content])));
  for (const content of kept) present.add(content);
  return [...held]
    .filter((content) => !present.has(content))
    .map((content) => ({
      code: 'content-lost' as const,
      message: `after the restore the merged folder lacks ${JSON.stringify(content.slice(0, 30))}, which a side held before it`,
    }));
}
