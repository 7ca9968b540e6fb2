// Remote items a round leaves out (a Unicode name clash, a refused name) keep the folders that hold them.
import { describe, expect, it } from 'vitest';
import type { RemoteEntry } from '../../../../../app/model/items.ts';
import { passInputs } from '../../../../../app/sync/pass/pass-inputs.ts';
import { plan } from '../../../../../app/sync/plan/planner.ts';
import { reconcile } from '../../../../../app/sync/plan/reconcile.ts';
import { describe as describeOperation, NOW, ROOT_ID, walkOf, World } from './planner-world.ts';

/** The plan of one round as the engine makes it: scan and walk through `passInputs`, then reconcile. */
function roundOps(world: World, extraRemote: RemoteEntry[] = []): string[] {
  const walk = walkOf([...world.remote.values(), ...extraRemote]);
  const scan = {
    root: 'ok' as const,
    entries: [...world.local.values()],
    skipped: [],
    clashes: [],
    portability: [],
  };
  const { input } = passInputs(scan, walk, world.index.values(), ROOT_ID);
  const result = plan({
    items: reconcile(input),
    remoteRootId: ROOT_ID,
    now: NOW,
    localRootMissing: false,
    caseInsensitive: false,
  });
  if (result.status !== 'ready') throw new Error(`plan held: ${result.reason}`);
  return result.operations.map(describeOperation);
}

/** A new remote file named like `path` in another Unicode normal form (NFD): the round leaves it out. */
function nfdTwin(world: World, path: string): RemoteEntry {
  const folder = [...world.remote.values()].find(
    (entry) => entry.path === path.slice(0, path.lastIndexOf('/')),
  );
  const name = path.slice(path.lastIndexOf('/') + 1).normalize('NFD');
  return {
    id: 'r:twin',
    parentId: folder?.id ?? ROOT_ID,
    path: `${path.slice(0, path.lastIndexOf('/'))}/${name}`,
    name,
    kind: 'file',
    eTag: '"t"',
    size: 5,
    mTimeMs: 7000,
  };
}

describe('folders holding remote items the round leaves out', () => {
  // Seed 5242 (--items 14 --changes 6): the DELETE of the replaced folder took the unseen twin with it.
  it('a folder replaced by a local file is not deleted on the device while it holds a name-clash twin', () => {
    const world = new World().synced('docs/').synced('docs/caf\u00e9.txt').typeChangeLocal('docs');
    const ops = roundOps(world, [nfdTwin(world, 'docs/caf\u00e9.txt')]);
    expect(ops.filter((op) => op.startsWith('remote-delete r:docs '))).toEqual([]);
    expect(ops).toContain('local-move docs -> docs (conflicted copy 2026-11-22 030405)');
    expect(ops).toContain('local-mkdir docs from r:docs');
  });
  it('a folder deleted locally comes back while it holds a name-clash twin; the synced file still goes', () => {
    const world = new World()
      .synced('keep.txt')
      .synced('docs/')
      .synced('docs/caf\u00e9.txt')
      .deleteLocal('docs');
    expect(roundOps(world, [nfdTwin(world, 'docs/caf\u00e9.txt')])).toEqual([
      'local-mkdir docs from r:docs',
      'remote-delete r:docs/caf\u00e9.txt if-match "e0"',
    ]);
  });
  it('every folder above the twin is kept, not only its own', () => {
    const world = new World()
      .synced('keep.txt')
      .synced('a/')
      .synced('a/docs/')
      .synced('a/docs/caf\u00e9.txt')
      .deleteLocal('a');
    const ops = roundOps(world, [nfdTwin(world, 'a/docs/caf\u00e9.txt')]);
    expect(ops.filter((op) => op.startsWith('remote-delete r:a '))).toEqual([]);
    expect(ops.filter((op) => op.startsWith('remote-delete r:a/docs '))).toEqual([]);
    expect(ops.slice(0, 2)).toEqual(['local-mkdir a from r:a', 'local-mkdir a/docs from r:a/docs']);
  });
  it('without a twin the same local delete is one DELETE', () => {
    const world = new World()
      .synced('keep.txt')
      .synced('docs/')
      .synced('docs/caf\u00e9.txt')
      .deleteLocal('docs');
    expect(roundOps(world)).toEqual(['remote-delete r:docs if-match "e0"']);
  });
});
