// A SyncEngine for a bench's child process: the kept index, a counting client, the pair's folders.
import { openIndexDb } from '../../app/index/index-db.ts';
import { IndexStore } from '../../app/index/index-store.ts';
import { SyncEngine } from '../../app/sync/engine.ts';
import { countedClient } from './bench-client.ts';

/** Where a child process finds the pair: the device, the tree and the index. */
export interface EngineSetup {
  base: string;
  token: string;
  localRoot: string;
  indexPath: string;
}

/** The engine, the tally of the requests it sends (`GET 304` → count), and how to close its index. */
export function benchEngine(
  setup: EngineSetup,
  remoteFolder: string,
): { engine: SyncEngine; tally: Map<string, number>; close: () => void } {
  const db = openIndexDb(setup.indexPath);
  const { client, tally } = countedClient(setup.base, setup.token);
  const engine = new SyncEngine({
    client,
    index: new IndexStore(db),
    localRoot: setup.localRoot,
    remoteFolder,
  });
  return { engine, tally, close: () => db.close() };
}
