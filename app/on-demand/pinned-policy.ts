// Which device files an on-demand pair keeps whole: those pinned, and everything below a pinned folder.
import type { RemoteEntry } from '../model/items.ts';
import type { OnDemandPolicy } from '../sync/engine-options.ts';

/**
 * A policy over the ids `pinned()` gives at each question (the pair's record, read as it changes).
 * `rootId` gives the pair's own device folder: pinned, it keeps everything (`mch-sync pin` of the folder).
 */
export function pinnedPolicy(
  pinned: () => ReadonlySet<string>,
  rootId: () => string | undefined,
): OnDemandPolicy {
  // The pair's device folder is found once (its first pass records it) and never changes after.
  let knownRoot: string | undefined;
  const root = (): string | undefined => (knownRoot ??= rootId());
  return {
    keptVersion: () => [...pinned()].sort().join('\n'),
    keepsContent(remote: RemoteEntry, parentOf: (id: string) => string | undefined): boolean {
      const ids = pinned();
      if (ids.size === 0) return false;
      // The walk up stops below the pair's folder (parentOf gives undefined there).
      const pairRoot = root();
      if (pairRoot !== undefined && ids.has(pairRoot)) return true;
      // A folder's depth bounds the walk up; the seen set guards against a cycle in a broken index.
      const seen = new Set<string>();
      for (let id: string | undefined = remote.id; id !== undefined && !seen.has(id); id = parentOf(id)) {
        if (ids.has(id)) return true;
        seen.add(id);
      }
      return false;
    },
  };
}
