// What a round's walk tells selective sync: excluded folders that moved on the device, and new folders to ask about.
import type { IndexStore } from '../../index/index-store.ts';
import type { PairSelection, SelectionStore } from '../../model/selection.ts';
import type { EngineLogLine } from '../engine-options.ts';
import type { RemoteWalkResult } from '../remote/remote-walk.ts';
import type { AppliedSelectionStore } from './applied-selection.ts';
import { foldersToAskAbout } from './new-folders.ts';
import { followExcludedMoves } from './selection-step.ts';

/**
 * After a walk: the exclusions follow their folders to where the walk met them (index and record), and
 * new folders over the threshold are recorded as waiting and left out of this round (`walk.excluded`).
 * A record that cannot be written is logged: the index still holds the move, and a new folder not
 * recorded is asked about again by the next walk that lists it. True when an exclusion followed its
 * folder to another path.
 */
export async function learnFromWalk(
  walk: RemoteWalkResult,
  context: {
    index: IndexStore;
    applied: AppliedSelectionStore;
    store: SelectionStore | undefined;
    selection: PairSelection;
    /** Folders this pass included again: never asked about. */
    included: ReadonlySet<string>;
    remoteRootId: string;
    log: (line: EngineLogLine) => void;
  },
): Promise<boolean> {
  const { index, store, selection, log } = context;
  const moves = followExcludedMoves(context.applied, walk.excluded);
  const waiting =
    store === undefined
      ? []
      : foldersToAskAbout(walk, index, context.remoteRootId, selection, context.included);
  if (waiting.length > 0) {
    // Applied now (they have no rows): an answer "sync it" is then a change the next pass sees, even
    // when it finds every listing unchanged since this walk.
    const applied = context.applied.read();
    const known = new Set(applied.folders.map((folder) => folder.id));
    applied.folders.push(
      ...waiting
        .filter(({ id }) => !known.has(id))
        .map(({ path, id }) => ({ path, id, waiting: true as const })),
    );
    context.applied.write(applied);
  }
  // The folders waiting for an answer say so in the round's issues.
  const answers = new Map(selection.waiting.map((folder) => [folder.id, folder]));
  for (const folder of walk.excluded) {
    const known = answers.get(folder.id);
    if (known !== undefined) folder.waiting = { bytes: known.bytes, files: known.files };
  }
  for (const folder of waiting) {
    walk.excluded.push({
      id: folder.id,
      path: folder.path,
      waiting: { bytes: folder.bytes, files: folder.files },
    });
    log({
      level: 'info',
      message: `new device folder waits for an answer (${folder.files} files, ${folder.bytes} bytes)`,
      path: folder.path,
    });
  }
  if (store === undefined || (moves.length === 0 && waiting.length === 0)) return moves.length > 0;
  const moved = new Map(moves.map((move) => [move.id, move.to]));
  try {
    await store.update((current) => ({
      ...current,
      excluded: current.excluded.map((folder) => ({ ...folder, path: moved.get(folder.id) ?? folder.path })),
      waiting: [
        ...current.waiting.map((folder) => ({ ...folder, path: moved.get(folder.id) ?? folder.path })),
        ...waiting.filter((folder) => !current.waiting.some((known) => known.id === folder.id)),
      ],
    }));
  } catch (error) {
    log({
      level: 'warn',
      message: `the selective sync record could not be written: ${(error as Error).message}`,
    });
  }
  return moves.length > 0;
}
