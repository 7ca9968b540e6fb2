// What the index was last made to match of the pair's selection, kept in its meta table.
import { z } from 'zod';
import type { IndexStore } from '../../index/index-store.ts';
import { META_SELECTION } from '../../index/meta-keys.ts';
import type { AppliedFolder } from './excluded-folders.ts';

/**
 * `folders`: the exclusions the index holds no row below (the walk and the scan leave them out).
 * `trash`: local copies whose rows went with their exclusion, still to be moved to the trash (a crash
 * came between the two).
 */
export interface AppliedSelection {
  folders: AppliedFolder[];
  trash: string[];
}

const appliedSchema = z.object({
  folders: z.array(
    z.object({
      path: z.string().min(1),
      id: z.string().min(1),
      keptInode: z.string().min(1).optional(),
      waiting: z.literal(true).optional(),
    }),
  ),
  trash: z.array(z.string().min(1)),
});

export function readAppliedSelection(index: IndexStore): AppliedSelection {
  const stored = index.getMeta(META_SELECTION);
  if (stored === undefined) return { folders: [], trash: [] };
  let found: unknown;
  try {
    found = JSON.parse(stored);
  } catch {
    found = undefined;
  }
  const parsed = appliedSchema.safeParse(found);
  // A value this version cannot read: nothing was applied (the next pass applies the record again,
  // which only drops rows below excluded folders).
  return parsed.success ? parsed.data : { folders: [], trash: [] };
}

/** Written in the caller's transaction when it drops rows with it. */
export function writeAppliedSelection(index: IndexStore, applied: AppliedSelection): void {
  if (applied.folders.length === 0 && applied.trash.length === 0) index.deleteMeta(META_SELECTION);
  else index.setMeta(META_SELECTION, JSON.stringify(applied));
}
