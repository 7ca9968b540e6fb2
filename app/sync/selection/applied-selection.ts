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
      keptCopy: z
        .string()
        .regex(/^\d+@\d+$/)
        .optional(),
      waiting: z.literal(true).optional(),
    }),
  ),
  trash: z.array(z.string().min(1)),
});

const NOTHING_APPLIED = (): AppliedSelection => ({ folders: [], trash: [] });

function parsed(stored: string | undefined): AppliedSelection {
  if (stored === undefined) return NOTHING_APPLIED();
  let found: unknown;
  try {
    found = JSON.parse(stored);
  } catch {
    found = undefined;
  }
  const checked = appliedSchema.safeParse(found);
  // A value this version cannot read: nothing was applied (the next pass applies the record again,
  // which only drops rows below excluded folders).
  return checked.success ? checked.data : NOTHING_APPLIED();
}

/**
 * The applied selection of one index, parsed once for as long as its stored text is the same: a poll
 * reads it several times, and 900 exclusions take a quarter of a millisecond to parse and check. The
 * object read is the one kept: a caller that changes it writes it back.
 */
export class AppliedSelectionStore {
  readonly #index: IndexStore;
  #text: string | undefined | null = null;
  #value: AppliedSelection = NOTHING_APPLIED();

  constructor(index: IndexStore) {
    this.#index = index;
  }

  /** The stored text as last read or written (a change of it is a change of what is applied). */
  get text(): string | undefined {
    this.read();
    return this.#text ?? undefined;
  }

  read(): AppliedSelection {
    const text = this.#index.getMeta(META_SELECTION);
    if (text !== this.#text) {
      this.#value = parsed(text);
      this.#text = text;
    }
    return this.#value;
  }

  /** Written in the caller's transaction when it drops rows with it. */
  write(applied: AppliedSelection): void {
    if (applied.folders.length === 0 && applied.trash.length === 0) {
      this.#index.deleteMeta(META_SELECTION);
      this.#text = undefined;
    } else {
      const text = JSON.stringify(applied);
      this.#index.setMeta(META_SELECTION, text);
      this.#text = text;
    }
    this.#value = applied;
  }
}
