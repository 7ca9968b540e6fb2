// The folders above an item, by the parents its index rows name: what a pin of a folder above keeps.
import type { IndexStore } from './index-store.ts';

/** The ids of the folders above `remoteId`, nearest first, ending with the pair's own device folder. */
export function ancestorIds(index: IndexStore, remoteId: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>([remoteId]);
  for (let at = index.get(remoteId)?.parentRemoteId; at !== undefined && !seen.has(at);) {
    found.push(at);
    seen.add(at);
    at = index.get(at)?.parentRemoteId;
  }
  return found;
}
