// Two pairs of one device folder for the selective sync benches (issue 29): one syncs all of it, the other leaves folders out.
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openIndexDb } from '../../app/index/index-db.ts';
import { IndexStore } from '../../app/index/index-store.ts';
import { passOptions } from '../../app/live-service/pass-requests.ts';
import type { ExcludedFolder } from '../../app/model/selection.ts';
import { registerFolderPair } from '../../app/profile/folder-pairs.ts';
import { pairSelectionStore, updatePairSelection } from '../../app/profile/pair-selection.ts';
import { SyncEngine, type SyncOptions } from '../../app/sync/engine.ts';
import { countedClient } from './bench-client.ts';

/**
 * One pair as `mch-sync folders add` records it: its selection is read from the profile's record at each
 * pass start, as `run --once` and the live service read it. Both pairs sync the same device folder, each
 * with its own local tree and index (two computers of one user), so they compare the same device data.
 */
export interface SelectionPair {
  profileDir: string;
  localRoot: string;
  indexPath: string;
  remoteFolder: string;
  /** HOME of the engine's trash: the local copies of excluded folders go there, inside the bench's folder. */
  home: string;
}

export function selectionPair(work: string, name: string, remoteFolder: string): SelectionPair {
  return {
    profileDir: join(work, 'profile'),
    localRoot: join(work, name),
    indexPath: join(work, `index-${name}.db`),
    remoteFolder,
    home: join(work, 'home'),
  };
}

export async function recordPair(pair: SelectionPair): Promise<void> {
  mkdirSync(join(pair.home, '.local', 'share'), { recursive: true });
  await registerFolderPair(pair.profileDir, { localRoot: pair.localRoot, remoteFolder: pair.remoteFolder });
}

/**
 * A copy of a tree with the same bytes and modification times: a first pass of the copy's pair finds
 * every item on both sides with equal size and time and adopts it without a transfer.
 */
export function copyTree(from: string, to: string): void {
  cpSync(from, to, { recursive: true, preserveTimestamps: true });
}

/** The pair's engine (as `run --once` builds it: its record's selection, its index) and its request tally. */
export function pairEngine(
  device: { base: string; token: string },
  pair: SelectionPair,
): { engine: SyncEngine; tally: Map<string, number>; close: () => void } {
  const db = openIndexDb(pair.indexPath);
  const { client, tally } = countedClient(device.base, device.token);
  const engine = new SyncEngine({
    client,
    index: new IndexStore(db),
    localRoot: pair.localRoot,
    remoteFolder: pair.remoteFolder,
    env: { HOME: pair.home, XDG_DATA_HOME: join(pair.home, '.local', 'share') },
    selection: pairSelectionStore(pair.profileDir, pair.localRoot),
  });
  return { engine, tally, close: () => db.close() };
}

/**
 * Records `paths` (folders below the pair's device folder, synced) as excluded with their local copy
 * removed, as `mch-sync exclude PATH --remove-local` does: the next pass applies it. Returns how many.
 */
export async function excludeFolders(pair: SelectionPair, paths: readonly string[]): Promise<number> {
  const db = openIndexDb(pair.indexPath);
  const excluded: ExcludedFolder[] = [];
  try {
    const index = new IndexStore(db);
    for (const path of paths) {
      const row = index.byPath(path);
      if (row?.kind !== 'folder') throw new Error(`${path} is not a synced folder of ${pair.localRoot}`);
      excluded.push({ path, id: row.remoteId, localCopy: 'remove' });
    }
  } finally {
    db.close();
  }
  await updatePairSelection(pair.profileDir, pair.localRoot, (selection) => ({ ...selection, excluded }));
  return excluded.length;
}

/**
 * What the live service's poll timer asks of the engine (app/live-service/pass-requests.ts): mode
 * `poll`, no answer, the watcher's unwatched paths as scope (none here), no deletions waiting.
 */
export function pollOptions(): SyncOptions {
  return passOptions('poll', null, [], new AbortController().signal, {
    mark: () => 0,
    arrivedSince: async () => false,
  });
}
