// The planner's table, one synced file per cell: local change × remote change, with an index row.
import { describe as group, expect, it } from 'vitest';
import { World } from './planner-world.ts';

/** A folder `d` with a synced file `d/a.txt`, and an empty folder `e` to move into. */
function base(): World {
  return new World().synced('d/').synced('e/').synced('d/a.txt');
}

group('local none', () => {
  it('remote none: nothing changed plans nothing', () => {
    expect(base().ops()).toEqual([]);
  });
  it('remote modified: downloads the new content in place', () => {
    expect(base().editRemote('d/a.txt').ops()).toEqual(['download-content d/a.txt from r:d/a.txt']);
  });
  it('remote renamed: one local rename, no download', () => {
    expect(base().moveRemote('d/a.txt', 'd/b.txt').ops()).toEqual(['local-move d/a.txt -> d/b.txt']);
  });
  it('remote moved: one local move, no download', () => {
    expect(base().moveRemote('d/a.txt', 'e/a.txt').ops()).toEqual(['local-move d/a.txt -> e/a.txt']);
  });
  it('remote moved and modified: a local move, then the content', () => {
    expect(base().moveRemote('d/a.txt', 'e/a.txt').editRemote('e/a.txt').ops()).toEqual([
      'local-move d/a.txt -> e/a.txt',
      'download-content e/a.txt from r:d/a.txt',
    ]);
  });
  it('remote deleted: the local file goes to the trash', () => {
    expect(base().deleteRemote('d/a.txt').ops()).toEqual(['local-trash d/a.txt']);
  });
  it('remote type change: the old local file is trashed before the folder is made', () => {
    expect(base().typeChangeRemote('d/a.txt').ops()).toEqual([
      'local-trash d/a.txt',
      'local-mkdir d/a.txt from r:new:d/a.txt',
    ]);
  });
});

group('local modified', () => {
  it('remote none: PUT new content with the index eTag', () => {
    expect(base().editLocal('d/a.txt').ops()).toEqual(['upload-content d/a.txt to r:d/a.txt if-match "e0"']);
  });
  it('remote modified differently: conflict, both kept', () => {
    expect(base().editLocal('d/a.txt', 10).editRemote('d/a.txt', 20).ops()).toEqual([
      'local-move d/a.txt -> d/a (conflicted copy 2026-11-22 030405).txt',
      'download d/a.txt from r:d/a.txt',
      'upload d/a (conflicted copy 2026-11-22 030405).txt in r:d',
    ]);
  });
  it('remote modified the same way: no conflict, the index learns the new state', () => {
    const world = base();
    world.editLocal('d/a.txt', 10).editRemote('d/a.txt', 10);
    const remote = [...world.remote.values()].find((entry) => entry.path === 'd/a.txt');
    const local = world.local.get('d/a.txt');
    if (!remote || !local) throw new Error('missing');
    local.mtimeNs = BigInt(remote.mTimeMs) * 1_000_000n;
    expect(world.ops()).toEqual(['index-update r:d/a.txt']);
  });
  it('remote renamed: uploads the content and renames locally', () => {
    expect(base().editLocal('d/a.txt').moveRemote('d/a.txt', 'd/b.txt').ops()).toEqual([
      'local-move d/a.txt -> d/b.txt',
      'upload-content d/b.txt to r:d/a.txt if-match "e1"',
    ]);
  });
  it('remote deleted: the edit wins, the file goes back up as a new item', () => {
    expect(base().editLocal('d/a.txt').deleteRemote('d/a.txt').ops()).toEqual([
      'upload d/a.txt in r:d replaces r:d/a.txt',
    ]);
  });
  it('remote type change: the local file becomes a conflicted copy, the folder comes down', () => {
    expect(base().editLocal('d/a.txt').typeChangeRemote('d/a.txt').ops()).toEqual([
      'local-move d/a.txt -> d/a (conflicted copy 2026-11-22 030405).txt',
      'local-mkdir d/a.txt from r:new:d/a.txt',
      'upload d/a (conflicted copy 2026-11-22 030405).txt in r:d replaces r:d/a.txt',
    ]);
  });
});

group('local renamed or moved', () => {
  it('remote none: a local rename is exactly one PATCH of the name', () => {
    expect(base().moveLocal('d/a.txt', 'd/b.txt').ops()).toEqual([
      'remote-move r:d/a.txt name=b.txt parent=- if-match "e0"',
    ]);
  });
  it('remote none: a local move is exactly one PATCH of the parent', () => {
    expect(base().moveLocal('d/a.txt', 'e/a.txt').ops()).toEqual([
      'remote-move r:d/a.txt name=- parent=r:e if-match "e0"',
    ]);
  });
  it('remote none: a move and rename at once is still one PATCH', () => {
    expect(base().moveLocal('d/a.txt', 'e/b.txt').ops()).toEqual([
      'remote-move r:d/a.txt name=b.txt parent=r:e if-match "e0"',
    ]);
  });
  it('remote modified: one PATCH and a download of the new content', () => {
    expect(base().moveLocal('d/a.txt', 'e/a.txt').editRemote('d/a.txt').ops()).toEqual([
      'remote-move r:d/a.txt name=- parent=r:e if-match "e1"',
      'download-content e/a.txt from r:d/a.txt',
    ]);
  });
  it('remote moved to the same place: only the index changes', () => {
    expect(base().moveLocal('d/a.txt', 'e/a.txt').moveRemote('d/a.txt', 'e/a.txt').ops()).toEqual([
      'index-update r:d/a.txt',
    ]);
  });
  it('remote moved elsewhere: the remote location wins, one local move', () => {
    expect(base().moveLocal('d/a.txt', 'e/a.txt').moveRemote('d/a.txt', 'd/z.txt').ops()).toEqual([
      'local-move e/a.txt -> d/z.txt',
    ]);
  });
  // Seed 5533: the copy takes the row over; else the row of the file the device no longer has stays.
  it('remote type change: the moved file becomes a conflicted copy that takes the row over', () => {
    expect(base().moveLocal('d/a.txt', 'e/a.txt').typeChangeRemote('d/a.txt').ops()).toEqual([
      'local-move e/a.txt -> e/a (conflicted copy 2026-11-22 030405).txt',
      'local-mkdir d/a.txt from r:new:d/a.txt',
      'upload e/a (conflicted copy 2026-11-22 030405).txt in r:e replaces r:d/a.txt',
    ]);
  });
  it('remote deleted: the move beats the delete, uploaded again where it is now', () => {
    expect(base().moveLocal('d/a.txt', 'e/a.txt').deleteRemote('d/a.txt').ops()).toEqual([
      'upload e/a.txt in r:e replaces r:d/a.txt',
    ]);
  });
});

group('local deleted', () => {
  it('remote none: DELETE with the index eTag', () => {
    expect(base().deleteLocal('d/a.txt').ops()).toEqual(['remote-delete r:d/a.txt if-match "e0"']);
  });
  it('remote modified: the edit beats the delete, the file comes back', () => {
    expect(base().deleteLocal('d/a.txt').editRemote('d/a.txt').ops()).toEqual([
      'download d/a.txt from r:d/a.txt',
    ]);
  });
  it('remote moved: the move beats the delete, downloaded at its new place', () => {
    expect(base().deleteLocal('d/a.txt').moveRemote('d/a.txt', 'e/a.txt').ops()).toEqual([
      'download e/a.txt from r:d/a.txt',
    ]);
  });
  it('remote deleted: only the index row goes', () => {
    expect(base().deleteLocal('d/a.txt').deleteRemote('d/a.txt').ops()).toEqual(['index-remove r:d/a.txt']);
  });
  it('remote type change: the new folder comes down, the row of the gone file goes', () => {
    expect(base().deleteLocal('d/a.txt').typeChangeRemote('d/a.txt').ops()).toEqual([
      'local-mkdir d/a.txt from r:new:d/a.txt',
      'index-remove r:d/a.txt',
    ]);
  });
});

group('local type change', () => {
  it('remote none: DELETE the old file, then create the folder', () => {
    expect(base().typeChangeLocal('d/a.txt').ops()).toEqual([
      'remote-delete r:d/a.txt if-match "e0"',
      'remote-create-folder d/a.txt in r:d replaces r:d/a.txt',
    ]);
  });
  it('remote deleted: the folder is created', () => {
    expect(base().typeChangeLocal('d/a.txt').deleteRemote('d/a.txt').ops()).toEqual([
      'remote-create-folder d/a.txt in r:d replaces r:d/a.txt',
    ]);
  });
  it('remote modified: the remote file keeps the name, the local folder becomes a conflicted copy', () => {
    expect(base().typeChangeLocal('d/a.txt').editRemote('d/a.txt').ops()).toEqual([
      'local-move d/a.txt -> d/a (conflicted copy 2026-11-22 030405).txt',
      'remote-create-folder d/a (conflicted copy 2026-11-22 030405).txt in r:d',
      'download d/a.txt from r:d/a.txt',
    ]);
  });
  it('both sides made the same folder: only the index changes', () => {
    expect(base().typeChangeLocal('d/a.txt').typeChangeRemote('d/a.txt').ops()).toEqual([
      'index-update r:new:d/a.txt',
    ]);
  });
});

group('no index row', () => {
  it('new local file: uploaded into its folder', () => {
    expect(base().newLocal('d/n.txt').ops()).toEqual(['upload d/n.txt in r:d']);
  });
  it('new remote file: downloaded', () => {
    expect(base().newRemote('e/n.txt').ops()).toEqual(['download e/n.txt from r:new:e/n.txt']);
  });
  it('new on both sides with the same content: no conflict, recorded', () => {
    const world = base().newLocal('n.txt', 9).newRemote('n.txt', 9);
    const local = world.local.get('n.txt');
    if (local) local.mtimeNs = 6_000_000_000n;
    expect(world.ops()).toEqual(['index-update r:new:n.txt']);
  });
  it('new on both sides with different content: conflict', () => {
    expect(base().newLocal('n.txt', 1).newRemote('n.txt', 2).ops()).toEqual([
      'local-move n.txt -> n (conflicted copy 2026-11-22 030405).txt',
      'download n.txt from r:new:n.txt',
      'upload n (conflicted copy 2026-11-22 030405).txt in root-id',
    ]);
  });
  it('a new local folder with a file: the folder is created before the upload into it', () => {
    expect(base().newLocal('n/').newLocal('n/x.txt').ops()).toEqual([
      'remote-create-folder n in root-id',
      'upload n/x.txt in planned:n',
    ]);
  });
  it('a new remote folder with a file: mkdir before the download', () => {
    expect(base().newRemote('n/').newRemote('n/x.txt').ops()).toEqual([
      'local-mkdir n from r:new:n',
      'download n/x.txt from r:new:n/x.txt',
    ]);
  });
});

group('local moved and modified', () => {
  /** `d/a.txt` moved into `e` and edited there. */
  function movedAndEdited(): World {
    return base().moveLocal('d/a.txt', 'e/a.txt').editLocal('e/a.txt', 40);
  }
  it('remote none: one PATCH and one PUT, no upload of a new file', () => {
    expect(movedAndEdited().ops()).toEqual([
      'remote-move r:d/a.txt name=- parent=r:e if-match "e0"',
      'upload-content e/a.txt to r:d/a.txt if-match "e0"',
    ]);
  });
  it('remote modified: conflict, the copy is made where the local file is now', () => {
    expect(movedAndEdited().editRemote('d/a.txt', 50).ops()).toEqual([
      'local-move e/a.txt -> e/a (conflicted copy 2026-11-22 030405).txt',
      'download d/a.txt from r:d/a.txt',
      'upload e/a (conflicted copy 2026-11-22 030405).txt in r:e',
    ]);
  });
  it('remote moved: the remote location wins, the local content goes up', () => {
    expect(movedAndEdited().moveRemote('d/a.txt', 'd/z.txt').ops()).toEqual([
      'local-move e/a.txt -> d/z.txt',
      'upload-content d/z.txt to r:d/a.txt if-match "e1"',
    ]);
  });
  it('remote deleted: the edit beats the delete', () => {
    expect(movedAndEdited().deleteRemote('d/a.txt').ops()).toEqual([
      'upload e/a.txt in r:e replaces r:d/a.txt',
    ]);
  });
});

group('remote moved and modified', () => {
  it('local modified: conflict, the remote version keeps its new place and name', () => {
    expect(
      base().editLocal('d/a.txt', 40).moveRemote('d/a.txt', 'e/a.txt').editRemote('e/a.txt', 50).ops(),
    ).toEqual([
      'local-move d/a.txt -> d/a (conflicted copy 2026-11-22 030405).txt',
      'download e/a.txt from r:d/a.txt',
      'upload d/a (conflicted copy 2026-11-22 030405).txt in r:d',
    ]);
  });
  it('local renamed: the remote location wins, then the new content comes down', () => {
    expect(
      base().moveLocal('d/a.txt', 'd/b.txt').moveRemote('d/a.txt', 'e/a.txt').editRemote('e/a.txt').ops(),
    ).toEqual(['local-move d/b.txt -> e/a.txt', 'download-content e/a.txt from r:d/a.txt']);
  });
  it('local deleted: the edit beats the delete, downloaded at the new place', () => {
    expect(
      base().deleteLocal('d/a.txt').moveRemote('d/a.txt', 'e/a.txt').editRemote('e/a.txt').ops(),
    ).toEqual(['download e/a.txt from r:d/a.txt']);
  });
});

group('folders on both sides', () => {
  it('a folder made on both sides is one item, recorded without a transfer', () => {
    expect(base().newLocal('n/').newRemote('n/').ops()).toEqual(['index-update r:new:n']);
  });
  it('a remote folder replaced by a file: the old folder is trashed once, with its children', () => {
    const world = new World().synced('x.txt').synced('d/').synced('d/a.txt').typeChangeRemote('d');
    expect(world.ops()).toEqual(['local-trash d', 'download d from r:new:d']);
  });
  it('a local folder replaced by a file: one DELETE of the old folder, then the upload', () => {
    const world = new World().synced('x.txt').synced('d/').synced('d/a.txt').typeChangeLocal('d');
    expect(world.ops()).toEqual(['remote-delete r:d if-match "e0"', 'upload d in root-id replaces r:d']);
  });
});
