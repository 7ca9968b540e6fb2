// The reconciler: items paired by inode and remote id, and each side's change against the index.
import { describe, expect, it } from 'vitest';
import type { ReconciledItem } from '../../../../../app/sync/plan/reconcile.ts';
import { World } from './planner-world.ts';

function changes(world: World): string[] {
  return world
    .reconcile()
    .map(
      (item: ReconciledItem) =>
        `${item.index?.path ?? item.remote?.path ?? item.local?.path}: ${item.localChange}/${item.remoteChange}`,
    );
}

describe('reconcile', () => {
  it('sees nothing changed when all three agree', () => {
    expect(changes(new World().synced('d/').synced('d/a.txt'))).toEqual([
      'd: none/none',
      'd/a.txt: none/none',
    ]);
  });
  it('pairs a local item by inode at its new path (a move, not a delete and a create)', () => {
    const items = new World().synced('d/').synced('a.txt').moveLocal('a.txt', 'd/b.txt').reconcile();
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({
      local: { path: 'd/b.txt' },
      localChange: 'moved',
      remoteChange: 'none',
    });
  });
  it('does not call the children of a moved folder moved', () => {
    expect(changes(new World().synced('d/').synced('d/a.txt').moveLocal('d', 'e'))).toEqual([
      'd: moved/none',
      'd/a.txt: none/none',
    ]);
    expect(changes(new World().synced('d/').synced('d/a.txt').moveRemote('d', 'e'))).toEqual([
      'd: none/moved',
      'd/a.txt: none/none',
    ]);
  });
  it('sees a local edit by size or mtime, and a remote edit by eTag with size or time', () => {
    expect(changes(new World().synced('a.txt').editLocal('a.txt'))).toEqual(['a.txt: modified/none']);
    expect(changes(new World().synced('a.txt').editRemote('a.txt'))).toEqual(['a.txt: none/modified']);
  });
  it('ignores a folder mtime change (a child was added)', () => {
    const world = new World().synced('d/');
    const folder = world.local.get('d');
    if (folder) folder.mtimeNs += 5n;
    expect(changes(world)).toEqual(['d: none/none']);
  });
  it('sees deletes on either side and type changes', () => {
    expect(changes(new World().synced('a.txt').deleteLocal('a.txt').deleteRemote('a.txt'))).toEqual([
      'a.txt: deleted/deleted',
    ]);
    expect(changes(new World().synced('a.txt').typeChangeLocal('a.txt'))).toEqual([
      'a.txt: type-changed/none',
    ]);
    expect(changes(new World().synced('a.txt').typeChangeRemote('a.txt'))).toEqual([
      'a.txt: none/type-changed',
    ]);
  });
  it('does not read a row whose download never finished as a local delete', () => {
    const world = new World().synced('a.txt');
    world.local.clear();
    const row = world.index.get('r:a.txt');
    if (row) row.inode = null;
    expect(changes(world)).toEqual(['a.txt: none/none']);
  });
  it('pairs items new on both sides at the same path into one', () => {
    expect(changes(new World().newLocal('n.txt').newRemote('n.txt'))).toEqual(['n.txt: created/created']);
  });

  // Seeds 5151 and 5028 (--items 14 --changes 6), when the file system reused the inode.
  it("does not read a new folder that reused a deleted folder's inode as that folder renamed", () => {
    const world = new World().synced('keep.txt').synced('d/').synced('d/a.txt').deleteLocal('d');
    world.newLocal('r\u00e9sum\u00e9/');
    const reused = world.local.get('r\u00e9sum\u00e9');
    if (reused) reused.inode = 'i:d';
    expect(changes(world)).toEqual([
      'keep.txt: none/none',
      'd: deleted/none',
      'd/a.txt: deleted/none',
      'r\u00e9sum\u00e9: created/none',
    ]);
  });
  it('still pairs a renamed folder by inode when it holds one of its synced children', () => {
    const world = new World().synced('d/').synced('d/a.txt').moveLocal('d', 'e');
    expect(changes(world)).toEqual(['d: moved/none', 'd/a.txt: none/none']);
  });
  it('still pairs a folder moved elsewhere under its own name by inode, empty or not', () => {
    const world = new World().synced('p/').synced('d/').moveLocal('d', 'p/d');
    expect(changes(world)).toEqual(['p: none/none', 'd: moved/none']);
  });

  // Seed 321: the engine made `Docs` again, and the file system gave it the inode `Docs/Docs` had.
  it('pairs a local item with one row only: the row at its path when two rows hold its inode', () => {
    const world = new World().synced('Docs/').synced('Docs/Docs/').deleteLocal('Docs/Docs');
    const remade = world.local.get('Docs');
    const row = world.index.get('r:Docs');
    if (remade) remade.inode = 'i:Docs/Docs';
    if (row) row.inode = 'i:Docs/Docs';
    expect(changes(world)).toEqual(['Docs: none/none', 'Docs/Docs: deleted/none']);
  });
});
