// The planner on trees: folder moves as one request, deletes kept for what they hold, ordering.
import { describe, expect, it } from 'vitest';
import { World } from './planner-world.ts';

function bigFolder(files: number): World {
  const world = new World().synced('big/').synced('dest/');
  for (let n = 0; n < files; n++) world.synced(`big/f${n}.txt`);
  return world;
}

describe('folder moves and renames', () => {
  it('a local move of a folder holding 10,000 files is one PATCH', () => {
    expect(bigFolder(10_000).moveLocal('big', 'dest/big').ops()).toEqual([
      'remote-move r:big name=- parent=r:dest if-match "e0"',
    ]);
  });
  it('a remote rename of a folder holding 1,000 files is one local rename', () => {
    expect(bigFolder(1000).moveRemote('big', 'huge').ops()).toEqual(['local-move big -> huge']);
  });
  it('a local move into a folder created in the same plan comes after the create', () => {
    expect(new World().synced('a.txt').newLocal('n/').moveLocal('a.txt', 'n/a.txt').ops()).toEqual([
      'remote-create-folder n in root-id',
      'remote-move r:a.txt name=- parent=planned:n if-match "e0"',
    ]);
  });
  it('a remote move into a new remote folder: mkdir, then the local move', () => {
    const world = new World().synced('a.txt').newRemote('n/');
    expect(world.moveRemote('a.txt', 'n/a.txt').ops()).toEqual([
      'local-mkdir n from r:new:n',
      'local-move a.txt -> n/a.txt',
    ]);
  });
  it('a remote folder rename and a remote edit inside it: one rename, one download at the new path', () => {
    const world = new World().synced('d/').synced('d/a.txt').moveRemote('d', 'e').editRemote('e/a.txt');
    expect(world.ops()).toEqual(['local-move d -> e', 'download-content e/a.txt from r:d/a.txt']);
  });
  it('a local folder rename and a local edit inside it: one PATCH and one PUT, no upload', () => {
    const world = new World().synced('d/').synced('d/a.txt').moveLocal('d', 'e').editLocal('e/a.txt');
    expect(world.ops()).toEqual([
      'remote-move r:d name=e parent=- if-match "e0"',
      'upload-content e/a.txt to r:d/a.txt if-match "e0"',
    ]);
  });
  it('nested remote moves use the path the parent move left behind', () => {
    const world = new World().synced('d/').synced('d/s/').synced('d/s/a.txt');
    world.moveRemote('d', 'e').moveRemote('e/s/a.txt', 'e/b.txt');
    expect(world.ops()).toEqual(['local-move d -> e', 'local-move e/s/a.txt -> e/b.txt']);
  });
});

describe('folder deletes', () => {
  it('a remote folder delete trashes the folder once, not each file', () => {
    expect(bigFolder(20).deleteRemote('big').ops()).toEqual(['local-trash big']);
  });
  it('a local folder delete is one DELETE', () => {
    expect(bigFolder(20).deleteLocal('big').ops()).toEqual(['remote-delete r:big if-match "e0"']);
  });
  it('a remote folder delete keeps a local file never synced, and the folder around it', () => {
    const world = new World().synced('d/').synced('d/old.txt').newLocal('d/new.txt').deleteRemote('d');
    expect(world.ops()).toEqual([
      'remote-create-folder d in root-id replaces r:d',
      'upload d/new.txt in planned:d',
      'local-trash d/old.txt',
    ]);
  });
  it('a local folder delete keeps a remote edit inside it (edit beats delete)', () => {
    const world = new World().synced('other.txt').synced('d/').synced('d/a.txt').synced('d/b.txt');
    world.deleteLocal('d').editRemote('d/a.txt');
    expect(world.ops()).toEqual([
      'local-mkdir d from r:d',
      'download d/a.txt from r:d/a.txt',
      'remote-delete r:d/b.txt if-match "e0"',
    ]);
  });
  it('a file moved out of a folder before the folder was deleted locally survives', () => {
    const world = new World().synced('d/').synced('d/a.txt').moveLocal('d/a.txt', 'a.txt').deleteLocal('d');
    expect(world.ops()).toEqual([
      'remote-move r:d/a.txt name=- parent=root-id if-match "e0"',
      'remote-delete r:d if-match "e0"',
    ]);
  });
  // Seed 321: the folder made again under the name the file left must not follow the file aside.
  it('a folder replaced by a local file while a remote file arrived inside: the folder comes back whole', () => {
    const world = new World().synced('Docs/').synced('Docs/Docs/').typeChangeLocal('Docs');
    world.newRemote('Docs/Docs/notes');
    expect(world.ops()).toEqual([
      'local-move Docs -> Docs (conflicted copy 2026-11-22 030405)',
      'local-mkdir Docs from r:Docs',
      'local-mkdir Docs/Docs from r:Docs/Docs',
      'upload Docs (conflicted copy 2026-11-22 030405) in root-id',
      'download Docs/Docs/notes from r:new:Docs/Docs/notes',
    ]);
  });
  it('children are deleted before their parents when they are separate operations', () => {
    const world = new World().synced('d/').synced('d/s/').synced('d/s/a.txt').newLocal('d/keep.txt');
    world.deleteRemote('d');
    expect(world.ops()).toEqual([
      'remote-create-folder d in root-id replaces r:d',
      'upload d/keep.txt in planned:d',
      'local-trash d/s',
    ]);
  });
});

describe('mass-delete guard', () => {
  it('holds a pass deleting more than 50 items and 30% of the tree, with the counts', () => {
    const result = bigFolder(60).deleteLocal('big').plan();
    expect(result).toMatchObject({
      status: 'held',
      reason: 'mass-delete',
      operations: [],
      deletes: { remote: 61, remoteTotal: 62, local: 0 },
    });
  });
  it('holds remote deletes the same way (local trash counted)', () => {
    expect(bigFolder(60).deleteRemote('big').plan()).toMatchObject({
      status: 'held',
      deletes: { local: 61, localTotal: 62 },
    });
  });
  it('lets 60 deletes through in a tree of 1,000 (under 30%)', () => {
    const world = bigFolder(1000);
    for (let n = 0; n < 60; n++) world.deleteLocal(`big/f${n}.txt`);
    expect(world.plan().status).toBe('ready');
  });
  it('lets 40 deletes of 40 through (not more than 50)', () => {
    expect(bigFolder(39).deleteLocal('big').plan().status).toBe('ready');
  });
  it('goes ahead when the deletes are confirmed', () => {
    expect(bigFolder(60).deleteLocal('big').ops({ confirmDeletes: true })).toEqual([
      'remote-delete r:big if-match "e0"',
    ]);
  });
  it('takes its thresholds as parameters', () => {
    const result = bigFolder(5)
      .deleteLocal('big')
      .plan({ deleteGuard: { maxItems: 3, maxFraction: 0.5 } });
    expect(result.status).toBe('held');
    // The user is shown what would go: every path, sorted.
    expect(result.status === 'held' ? result.deletedPaths.remote.slice(0, 2) : []).toEqual([
      'big',
      'big/f0.txt',
    ]);
  });
});

describe('a missing or empty local root', () => {
  it('a missing root plans nothing at all', () => {
    const world = bigFolder(3);
    world.local.clear();
    expect(world.plan({ localRootMissing: true })).toMatchObject({
      status: 'held',
      reason: 'local-root-missing',
      operations: [],
    });
  });
  it('an emptied root is held: nothing deleted, nothing brought back, the deletes it would make counted', () => {
    const world = new World().synced('d/').synced('d/a.txt');
    world.local.clear();
    expect(world.plan()).toMatchObject({
      status: 'held',
      reason: 'emptied-root',
      operations: [],
      deletes: { local: 0, localTotal: 0, remote: 2, remoteTotal: 2 },
      deletedPaths: { local: [], remote: ['d', 'd/a.txt'] },
    });
  });
  it('an emptied root comes back from the device when the user asks to restore it', () => {
    const world = new World().synced('d/').synced('d/a.txt');
    world.local.clear();
    expect(world.ops({ restoreDeletes: true })).toEqual([
      'local-mkdir d from r:d',
      'download d/a.txt from r:d/a.txt',
    ]);
    // Restoring wins over deleting when both are asked for.
    expect(world.ops({ restoreDeletes: true, confirmDeletes: true })).toHaveLength(2);
  });
  it('an emptied root is deleted on the device when the user confirms the deletes', () => {
    const world = new World().synced('d/').synced('d/a.txt').synced('b.txt');
    world.local.clear();
    expect(world.ops({ confirmDeletes: true })).toEqual([
      'remote-delete r:d if-match "e0"',
      'remote-delete r:b.txt if-match "e0"',
    ]);
  });
  it('an emptied root whose items the device deleted too is no hold: the index lets them go', () => {
    const world = new World().synced('a.txt');
    world.local.clear();
    world.remote.clear();
    expect(world.plan()).toMatchObject({ status: 'ready' });
  });
  it('an emptied root whose items were edited on the device brings the edits back (an edit beats a delete)', () => {
    const world = new World().synced('a.txt').synced('b.txt');
    world.local.clear();
    world.editRemote('a.txt');
    expect(world.plan()).toMatchObject({ status: 'held', deletes: { remote: 1 } });
    expect(world.ops({ confirmDeletes: true })).toEqual([
      'download a.txt from r:a.txt',
      'remote-delete r:b.txt if-match "e0"',
    ]);
  });
  it('a scoped part of the tree is never read as an emptied root', () => {
    const world = new World().synced('a.txt');
    world.local.clear();
    expect(world.plan({ partOf: { localTotal: 5, remoteTotal: 5 } })).toMatchObject({ status: 'ready' });
  });
});

describe('an item left under a temporary name on the device', () => {
  it('moves back to its place even when neither side moved it', () => {
    const world = new World().synced('d/').synced('a.txt');
    const entry = world.remote.get('r:a.txt');
    if (entry) entry.parkedAs = { name: '.mch-moving-0123456789ab', parentId: 'r:d' };
    expect(world.ops()).toEqual(['remote-move r:a.txt name=a.txt parent=root-id if-match "e0"']);
  });
  it('goes where the local side moved it, with its whole place', () => {
    const world = new World().synced('d/').synced('a.txt');
    const entry = world.remote.get('r:a.txt');
    if (entry) entry.parkedAs = { name: '.mch-moving-0123456789ab', parentId: 'r:d' };
    world.moveLocal('a.txt', 'd/b.txt');
    expect(world.ops()).toEqual(['remote-move r:a.txt name=b.txt parent=- if-match "e0"']);
  });
});

describe('names', () => {
  it('an NFC/NFD-only difference is no change', () => {
    const world = new World().synced('caf\u00e9.txt');
    world.moveLocal('caf\u00e9.txt', 'cafe\u0301.txt');
    expect(world.ops()).toEqual([]);
  });
  // Seed 22705: the plan renamed the file to the device's spelling, which a local name clash held.
  it('moved on both sides to one name spelled in two normal forms: it keeps its spelling on disk', () => {
    const world = new World().synced('docs/').synced('docs/caf\u00e9.txt');
    world.moveLocal('docs/caf\u00e9.txt', 'caf\u00e9.txt').moveRemote('docs/caf\u00e9.txt', 'cafe\u0301.txt');
    expect(world.ops()).toEqual(['index-update r:docs/caf\u00e9.txt']);
  });
  it('moved on the device to another folder and another normal form: one local move, the spelling kept', () => {
    const world = new World().synced('docs/').synced('x/').synced('docs/caf\u00e9.txt');
    world.moveRemote('docs/caf\u00e9.txt', 'x/cafe\u0301.txt');
    expect(world.ops()).toEqual(['local-move docs/caf\u00e9.txt -> x/caf\u00e9.txt']);
  });
  it('on a case-insensitive file system a second name differing in case becomes a case clash', () => {
    const world = new World().synced('Readme.txt').newRemote('README.txt');
    expect(world.ops({ caseInsensitive: true })).toEqual([
      'remote-move r:new:README.txt name=README (case clash).txt parent=- if-match "e0"',
      'download README (case clash).txt from r:new:README.txt',
    ]);
  });
  it('on a case-sensitive file system both names stay', () => {
    const world = new World().synced('Readme.txt').newRemote('README.txt');
    expect(world.ops()).toEqual(['download README.txt from r:new:README.txt']);
  });
  it('a remote rename that only changes case is one local rename', () => {
    expect(new World().synced('a.txt').moveRemote('a.txt', 'A.txt').ops({ caseInsensitive: true })).toEqual([
      'local-move a.txt -> A.txt',
    ]);
  });
});

describe('identity by inode and id', () => {
  it('an atomic save (new inode, same path, new content) is an edit, not a delete and a create', () => {
    const world = new World().synced('a.txt').editLocal('a.txt');
    const entry = world.local.get('a.txt');
    if (entry) entry.inode = 'i:other';
    expect(world.ops()).toEqual(['upload-content a.txt to r:a.txt if-match "e0"']);
  });
  it('a reused inode at another path with other content is a new file, not a move', () => {
    const world = new World().synced('a.txt').deleteLocal('a.txt').newLocal('b.txt', 50);
    const entry = world.local.get('b.txt');
    if (entry) entry.inode = 'i:a.txt';
    expect(world.ops()).toEqual(['upload b.txt in root-id', 'remote-delete r:a.txt if-match "e0"']);
  });
  it('a folder eTag that changed because a child changed is no change of the folder', () => {
    const world = new World().synced('d/').synced('d/a.txt').editRemote('d/a.txt');
    const folder = world.remote.get('r:d');
    if (folder) folder.eTag = '"changed"';
    expect(world.ops()).toEqual(['download-content d/a.txt from r:d/a.txt']);
  });
  it('a remote metadata-only eTag change of a file is no content change', () => {
    const world = new World().synced('a.txt');
    const file = world.remote.get('r:a.txt');
    if (file) file.eTag = '"meta"';
    expect(world.ops()).toEqual([]);
  });
});

describe('local moves that depend on each other', () => {
  it('a rename chain frees each target before it is used', () => {
    const world = new World().synced('a.txt').synced('b.txt');
    world.moveRemote('b.txt', 'c.txt').moveRemote('a.txt', 'b.txt');
    expect(world.ops()).toEqual(['local-move b.txt -> c.txt', 'local-move a.txt -> b.txt']);
  });
  it('a swap goes through a temporary name', () => {
    const world = new World().synced('a.txt').synced('b.txt');
    world.moveRemote('a.txt', 'tmp').moveRemote('b.txt', 'a.txt').moveRemote('tmp', 'b.txt');
    expect(world.ops()).toEqual([
      'local-move a.txt -> .mch-moving-1-a.txt',
      'local-move b.txt -> a.txt',
      'local-move .mch-moving-1-a.txt -> b.txt',
    ]);
  });
});

describe('more trees', () => {
  it('two new remote names that differ only in case: the second is renamed on both sides', () => {
    const world = new World().newRemote('Notes.txt').newRemote('NOTES.txt');
    expect(world.ops({ caseInsensitive: true })).toEqual([
      'remote-move r:new:NOTES.txt name=NOTES (case clash).txt parent=- if-match "e0"',
      'download Notes.txt from r:new:Notes.txt',
      'download NOTES (case clash).txt from r:new:NOTES.txt',
    ]);
  });
  // Seed 2360: an empty folder renamed in case only reads as deleted and made again (reconcile.ts).
  it('an item the device replaced, pulled under a case-clash name: the row of the gone one goes', () => {
    const world = new World().synced('r/').synced('r/notes/').moveLocal('r/notes', 'r/Notes');
    world.typeChangeRemote('r/notes');
    expect(world.ops({ caseInsensitive: true })).toEqual([
      'remote-move r:new:r/notes name=notes (case clash) parent=- if-match "e0"',
      'remote-create-folder r/Notes in r:r',
      'download r/notes (case clash) from r:new:r/notes',
      'index-remove r:r/notes',
    ]);
  });
  it('a remote delete of nested folders keeps every folder above a file never synced', () => {
    const world = new World().synced('d/').synced('d/s/').synced('d/s/old.txt').newLocal('d/s/new.txt');
    world.deleteRemote('d');
    expect(world.ops()).toEqual([
      'remote-create-folder d in root-id replaces r:d',
      'remote-create-folder d/s in planned:d replaces r:d/s',
      'upload d/s/new.txt in planned:d/s',
      'local-trash d/s/old.txt',
    ]);
  });
  it('every remote write carries an If-Match', () => {
    const world = new World().synced('d/').synced('d/a.txt').synced('b.txt').synced('c.txt');
    world.moveLocal('d/a.txt', 'a.txt').editLocal('b.txt').deleteLocal('c.txt');
    const result = world.plan();
    if (result.status !== 'ready') throw new Error('held');
    const writes = result.operations.filter((op) => 'ifMatch' in op);
    expect(writes.map((op) => op.op)).toEqual(['remote-move', 'upload-content', 'remote-delete']);
    for (const op of writes) if ('ifMatch' in op) expect(op.ifMatch).toBe('"e0"');
  });
});
