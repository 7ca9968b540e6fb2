// The versions of a pair as the engine uses them: kept content recovered at a pass's start, then after it the pair's conflict policy applied and the store thinned.
import { statfs } from 'node:fs/promises';
import type { IndexStore } from '../../index/index-store.ts';
import type { VersionRow } from '../../index/version-rows.ts';
import { DEFAULT_VERSIONS_POLICY, type EngineLogLine, type VersionsPolicy } from '../engine-options.ts';
import { localPath, statOrUndefined } from '../local/local-paths.ts';
import { policyKeep, settleConflict } from './conflict-settle.ts';
import { VersionStore } from './version-store.ts';
import { overCap, staggeredRemovals } from './version-thinning.ts';

const DAY_MS = 86_400_000;
/** The store is thinned after a pass that kept something, and at least this often besides. */
const THIN_EVERY_MS = 3_600_000;

/** Without a cap of its own, versions may take this share of the disk that holds the folder. */
const DEFAULT_CAP_SHARE = 0.05;

export interface ThinTally {
  removed: number;
  bytes: number;
}

export class PassVersions {
  /** Undefined when versions are off: content is replaced in place and deletes go to the trash. */
  readonly store: VersionStore | undefined;
  readonly #policyOf: () => VersionsPolicy;
  readonly #root: string;
  readonly #log: (line: EngineLogLine) => void;
  #lastThinMs = 0;
  #keptCount = -1;
  /** The policy the last look applied: a lower cap or fewer days apply at the next pass, not an hour later. */
  #lastPolicy = '';

  constructor(options: {
    index: IndexStore;
    localRoot: string;
    versions?: VersionsPolicy | (() => VersionsPolicy) | 'off';
    log?: (line: EngineLogLine) => void;
  }) {
    this.#root = options.localRoot;
    this.#log = options.log ?? (() => {});
    const policy = options.versions ?? DEFAULT_VERSIONS_POLICY;
    this.#policyOf =
      typeof policy === 'function' ? policy : () => (policy === 'off' ? DEFAULT_VERSIONS_POLICY : policy);
    this.store = policy === 'off' ? undefined : new VersionStore(options.localRoot, options.index.versions);
  }

  /** At a pass's start: keeps a crash left half done settled the way they went. */
  async begin(): Promise<void> {
    if (this.store !== undefined && this.store.rows.pending().length > 0) await this.store.recoverPending();
  }

  /**
   * After the rounds: the conflicts this pass made settled by the pair's policy (none for `ask`).
   * Returns how many were: their changes need another round.
   */
  async settleNew(passStartedAtMs: number): Promise<number> {
    const store = this.store;
    const policy = store === undefined ? 'ask' : this.#policyOf().conflicts;
    if (store === undefined || policy === 'ask') return 0;
    let settled = 0;
    for (const conflict of store.rows.conflicts()) {
      if (!conflict.madeHere || conflict.settled !== null || conflict.madeAtMs < passStartedAtMs) continue;
      const copy = await statOrUndefined(localPath(this.#root, conflict.copyPath));
      const original = await statOrUndefined(localPath(this.#root, conflict.originalPath));
      if (copy === undefined || original === undefined) continue;
      const keep = policyKeep(policy, { copyMs: Number(copy.mtimeMs), originalMs: Number(original.mtimeMs) });
      try {
        await settleConflict(store, this.#root, conflict, keep);
        settled += 1;
        this.#log({
          level: 'info',
          message: `conflict settled (${policy}): kept the ${keep === 'copy' ? "conflicted copy's content" : 'original'}`,
          path: conflict.originalPath,
        });
      } catch (error) {
        this.#log({
          level: 'warn',
          message: `conflict left to settle: ${(error as Error).message}`,
          path: conflict.originalPath,
        });
      }
    }
    return settled;
  }

  /**
   * After a pass: versions past the pair's age thinned away, and the oldest while over the cap. A
   * failure is logged, never the pass's: what stays is only kept longer.
   */
  async thin(nowMs: number = Date.now()): Promise<ThinTally> {
    try {
      return await this.#thin(nowMs);
    } catch (error) {
      this.#log({ level: 'warn', message: `versions could not be thinned: ${(error as Error).message}` });
      return { removed: 0, bytes: 0 };
    }
  }

  async #thin(nowMs: number): Promise<ThinTally> {
    const store = this.store;
    if (store === undefined) return { removed: 0, bytes: 0 };
    const usage = store.rows.usage();
    const policy = this.#policyOf();
    const policyKey = `${policy.keepDays}:${policy.capBytes}`;
    // Nothing kept since the last look, the same policy, and looked at lately: nothing can have grown
    // or aged much.
    const lately = policyKey === this.#lastPolicy && nowMs - this.#lastThinMs < THIN_EVERY_MS;
    if (lately && usage.count === this.#keptCount) return { removed: 0, bytes: 0 };
    const capBytes = policy.capBytes ?? (await defaultCapBytes(this.#root));
    // Looked at lately under the same policy: only the paths kept since can have a span to thin (a
    // walk of every version is 230 ms at 100,000); the whole store once an hour, as spans age.
    const paths = lately ? store.rows.pathsKeptSince(this.#lastThinMs) : undefined;
    const going = versionsToThin(store, policy, usage.bytes, capBytes, nowMs, paths);
    let bytes = 0;
    for (const version of going) {
      await store.remove(version);
      bytes += version.size;
    }
    this.#lastThinMs = nowMs;
    this.#keptCount = store.rows.usage().count;
    this.#lastPolicy = policyKey;
    if (going.length > 0) {
      this.#log({ level: 'info', message: `versions thinned: ${going.length} removed (${bytes} bytes)` });
    }
    return { removed: going.length, bytes };
  }
}

/**
 * The versions the policy removes now: staggered by age per path (every path, or only `paths`), then
 * the oldest while over the cap.
 */
export function versionsToThin(
  store: VersionStore,
  policy: Pick<VersionsPolicy, 'keepDays'>,
  totalBytes: number,
  capBytes: number,
  nowMs: number,
  paths?: readonly string[],
): VersionRow[] {
  const maxAgeMs = policy.keepDays * DAY_MS;
  const going: VersionRow[] = [];
  if (paths !== undefined) {
    for (const path of paths) going.push(...staggeredRemovals(store.rows.ofPath(path), nowMs, maxAgeMs));
  } else {
    let path: string | undefined;
    let ofPath: VersionRow[] = [];
    const flush = (): void => {
      going.push(...staggeredRemovals(ofPath, nowMs, maxAgeMs));
      ofPath = [];
    };
    for (const version of store.rows.kept()) {
      if (version.path !== path) flush();
      path = version.path;
      ofPath.push(version);
    }
    flush();
  }
  const goingIds = new Set(going.map((version) => version.id));
  const staying = totalBytes - going.reduce((sum, version) => sum + version.size, 0);
  going.push(...overCap(store.rows.oldestFirst(), staying, capBytes, goingIds));
  return going;
}

/** A few percent of the disk that holds the folder (5 %), at least 1 GB where the disk is that big. */
export async function defaultCapBytes(root: string): Promise<number> {
  try {
    const disk = await statfs(root);
    return Math.max(
      Math.floor(disk.blocks * disk.bsize * DEFAULT_CAP_SHARE),
      Math.min(1e9, disk.blocks * disk.bsize),
    );
  } catch {
    return 1e9;
  }
}
