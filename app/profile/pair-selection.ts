// A pair's selective sync in its profile record: the excluded and waiting device folders, and when to ask.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { EMPTY_SELECTION, type PairSelection, type SelectionStore } from '../model/selection.ts';
import { pairFilePath } from './folder-pairs.ts';
import { ProfileError } from './profile-errors.ts';
import { writePrivateFileAtomic } from './private-file.ts';

const relativePath = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith('/') && !path.endsWith('/') && !path.split('/').some(isDotSegment), {
    message: 'not a path below the pair',
  });

function isDotSegment(segment: string): boolean {
  return segment === '' || segment === '.' || segment === '..';
}

const selectionSchema = z.object({
  excluded: z.array(
    z.object({ path: relativePath, id: z.string().min(1), localCopy: z.enum(['remove', 'keep']) }),
  ),
  waiting: z.array(
    z.object({
      path: relativePath,
      id: z.string().min(1),
      bytes: z.number().int().nonnegative(),
      files: z.number().int().nonnegative(),
    }),
  ),
  askOverBytes: z.number().int().positive().nullable(),
  askOverFiles: z.number().int().positive().nullable(),
});

/**
 * The selection of the pair of `localRoot`. No record, or a record without one (written before
 * selective sync): nothing excluded, and the default threshold. A selection that cannot be read
 * throws: taking it for "nothing excluded" would bring terabytes down.
 */
export function readPairSelection(profileDir: string, localRoot: string): PairSelection {
  const path = pairFilePath(profileDir, resolve(localRoot));
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_SELECTION;
    throw new ProfileError(`The folder pair's record ${path} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return selectionOfRecord(record, path);
}

/** The selection a parsed record holds (none: the defaults); one that cannot be read throws. */
function selectionOfRecord(record: unknown, path: string): PairSelection {
  const found = (record as { selection?: unknown } | null)?.selection;
  if (found === undefined) return EMPTY_SELECTION;
  const parsed = selectionSchema.safeParse(found);
  if (!parsed.success) {
    throw new ProfileError(
      `The selective sync of ${path} cannot be read (${z.prettifyError(parsed.error).replace(/\n/g, ' ')}); ` +
        'fix or remove its "selection" field.',
    );
  }
  return parsed.data;
}

/**
 * Changes the selection of a recorded pair (read, changed, written atomically). The pair must be
 * recorded: a selection is never written for a folder that is not a pair.
 */
export async function updatePairSelection(
  profileDir: string,
  localRoot: string,
  change: (selection: PairSelection) => PairSelection,
): Promise<PairSelection> {
  const path = pairFilePath(profileDir, resolve(localRoot));
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ProfileError(`The folder pair's record ${path} cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // The change is made to the selection of the very record it is written into.
  const next = change(selectionOfRecord(record, path));
  const checked = selectionSchema.parse(next);
  await writePrivateFileAtomic(path, `${JSON.stringify({ ...record, selection: checked }, null, 2)}\n`);
  return checked;
}

/**
 * The engine's view of one pair's selection, kept in its record. Read at every pass, it is parsed again
 * only when the file changed: every write is a new file renamed into place (a new inode), so the inode,
 * size and time tell. The object read is shared: the engine never changes it.
 */
export function pairSelectionStore(profileDir: string, localRoot: string): SelectionStore {
  const path = pairFilePath(profileDir, resolve(localRoot));
  let kept: { key: string; selection: PairSelection } | undefined;
  return {
    read: () => {
      const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
      const key = stats === undefined ? '' : `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
      if (kept?.key !== key) kept = { key, selection: readPairSelection(profileDir, localRoot) };
      return kept.selection;
    },
    update: async (change) => {
      await updatePairSelection(profileDir, localRoot, change);
    },
  };
}
