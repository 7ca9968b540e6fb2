// The window's calls of versions, "Recently deleted", conflicts and a pair's versions policy, on a real folder and index: what each lists, what a restore or a settle changes on disk, that the pair is asked to sync, and what is refused (at the boundary and by the handlers).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvokeName, InvokeRequest, InvokeResponse, UiError } from '../../../../common/contract.ts';
import type { EngineState } from '../../../../common/sync-status.ts';
import { folderKey, openIndexDb, type IndexDb } from '../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../app/index/index-store.ts';
import { registerFolderPair } from '../../../../app/profile/folder-pairs.ts';
import {
  carryOutVersions,
  changesFolder,
  type VersionsAction,
} from '../../../../app/versions/versions-actions.ts';
import { readPairVersions } from '../../../../app/profile/pair-versions.ts';
import { VersionStore } from '../../../../app/sync/versions/version-store.ts';
import { moveToTrash } from '../../../../app/sync/trash/local-trash.ts';
import { dispatch, type ContractHandlers } from '../../../../app/ui/dispatch.ts';
import type { HandlerCore } from '../../../../app/ui/handler-core.ts';
import { PairHistory } from '../../../../app/ui/pairs/pair-history.ts';
import { PairConflicts } from '../../../../app/ui/versions/conflict-paths.ts';
import { conflictHandlers } from '../../../../app/ui/versions/conflict-handlers.ts';
import { policyHandlers } from '../../../../app/ui/versions/policy-handlers.ts';
import { versionHandlers } from '../../../../app/ui/versions/version-handlers.ts';
import { minimalPng } from '../../../helpers/images.ts';

let base: string;
let root: string;
let profile: string;
let db: IndexDb;
let index: IndexStore;
let store: VersionStore;
let pairId: string;
let handlers: ContractHandlers;
let conflicts: PairConflicts;
/** What the pair's live service was asked, and the events the window heard. */
let asked: string[];
let events: string[];
/** Runs before the next change, as a pass that ends first would (the change waits for it). */
let passFirst: (() => Promise<void>) | undefined;
/** The state of the pair's live sync, which says when a change reaches the device. */
let liveState: EngineState;

const COPY = 'plan (conflicted copy 2026-11-25 101500).txt';

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'mch-ui-versions-'));
  root = join(base, 'Docs');
  profile = join(base, 'profile');
  mkdirSync(root);
  await registerFolderPair(profile, { localRoot: root, remoteFolder: '/Docs' });
  db = openIndexDb(':memory:');
  index = new IndexStore(db);
  store = new VersionStore(root, index.versions);
  pairId = folderKey(root);
  asked = [];
  events = [];
  passFirst = undefined;
  liveState = 'idle';
  conflicts = new PairConflicts(new PairHistory());
  const pair = { localRoot: root, remoteFolder: '/Docs', indexPath: '' };
  const manager = {
    pairs: () => [pair],
    ids: () => [pairId],
    // `stopped`: a pair whose live service does not run (its folder missing, busy...).
    selectionTarget: (id: string) => (id === 'stopped' ? { pair } : { pair, store: index, service }),
  };
  // As the live service does it (pair-service.ts), without the passes it waits for.
  const service = {
    live: { status: () => ({ state: liveState }) },
    versions: async (action: VersionsAction) => {
      const pass = passFirst;
      passFirst = undefined;
      await pass?.();
      const outcome = await carryOutVersions({ index, root }, action);
      if (changesFolder(outcome)) asked.push('syncNow');
      return outcome;
    },
  };
  const core = {
    options: { profileDir: profile, env: { HOME: join(base, 'home') } },
    conflicts,
    connection: () => ({ pairs: manager }),
    emit: (name: string) => events.push(name),
    pairViews: () => [],
  } as unknown as HandlerCore;
  handlers = {
    ...versionHandlers(core),
    ...conflictHandlers(core),
    ...policyHandlers(core),
  } as ContractHandlers;
});

afterEach(() => {
  db.close();
  rmSync(base, { recursive: true, force: true });
});

async function call<N extends InvokeName>(name: N, request: InvokeRequest<N>): Promise<InvokeResponse<N>> {
  const result = await dispatch(handlers, name, request);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value as InvokeResponse<N>;
}

async function failure(name: InvokeName, request: unknown): Promise<UiError> {
  const result = await dispatch(handlers, name, request);
  if (result.ok) throw new Error(`${name} succeeded`);
  return result.error;
}

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

function read(path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

/** As a download does: the file kept by a hard link, then replaced with `text`. */
async function replaced(path: string, text: string): Promise<void> {
  const stats = statSync(join(root, path), { bigint: true });
  const keep = await store.linkBeforeReplace(
    path,
    { inode: stats.ino.toString() },
    { size: Number(stats.size), mTimeMs: Number(stats.mtimeMs), remoteId: null, contentHash: null },
    'replaced',
  );
  writeFileSync(join(root, 'incoming'), text);
  renameSync(join(root, 'incoming'), join(root, path));
  keep?.confirm();
}

/** A conflict this computer made: its edit in the copy, the device's version at the name. */
function conflict(copy = COPY, original = 'plan.txt'): void {
  write(copy, 'changed here\n');
  write(original, 'changed on the device\n');
  index.versions.putConflict({
    copyPath: copy,
    originalPath: original,
    madeAtMs: 1_000,
    madeHere: true,
    settled: null,
  });
}

describe('at the boundary', () => {
  it.each<[string, InvokeName, unknown]>([
    ['a way up', 'deleted:restore', { pairId: 'p', paths: ['../secret'] }],
    ['the state folder', 'deleted:restore', { pairId: 'p', paths: ['.mch-sync/versions/x'] }],
    ['an absolute path', 'versions:restore', { pairId: 'p', path: '/etc/passwd', versionId: 1 }],
    ['no path at all', 'conflicts:resolve', { pairId: 'p', copyPaths: [], keep: 'both' }],
    ['an answer that is none', 'conflicts:resolve', { pairId: 'p', copyPaths: ['a'], keep: 'mine' }],
    ['a version that is no number', 'versions:restore', { pairId: 'p', path: 'a', versionId: 'newest' }],
    ['no days', 'versions:settings', { pairId: 'p', keepDays: 0, capBytes: null, conflicts: 'ask' }],
    [
      'a policy that is none',
      'versions:settings',
      { pairId: 'p', keepDays: 30, capBytes: null, conflicts: 'coin' },
    ],
    ['a cap of nothing', 'versions:settings', { pairId: 'p', keepDays: 30, capBytes: 0, conflicts: 'ask' }],
  ])('refuses %s', async (_what, name, request) => {
    expect((await failure(name, request)).code).toBe('CONTRACT_BAD_REQUEST');
  });
});

describe('a file’s versions', () => {
  it('lists them by the file’s path here, newest first, with why each was kept', async () => {
    write('notes/a.txt', 'first\n');
    await replaced('notes/a.txt', 'second\n');
    await replaced('notes/a.txt', 'third, from the device\n');
    const file = await call('versions:list', { localPath: join(root, 'notes', 'a.txt') });
    expect(file).toMatchObject({ pairId, path: 'notes/a.txt', localPath: join(root, 'notes', 'a.txt') });
    expect(file.current?.size).toBe('third, from the device\n'.length);
    expect(file.versions.map((version) => [version.number, version.size, version.why])).toEqual([
      [1, 'second\n'.length, "replaced by the device's version"],
      [2, 'first\n'.length, "replaced by the device's version"],
    ]);
  });

  it('refuses a path outside the synced folders, the folder itself and its state folder', async () => {
    for (const path of ['/etc/passwd', root, join(root, '.mch-sync', 'index.db')]) {
      expect((await failure('versions:list', { localPath: path })).code).toBe('NOT_IN_SYNCED_FOLDER');
    }
  });

  it('restores the version named by its id; the file it replaces is kept in turn, and the pair syncs', async () => {
    write('a.txt', 'first\n');
    await replaced('a.txt', 'second\n');
    await replaced('a.txt', 'third\n');
    const [, oldest] = (await call('versions:list', { localPath: join(root, 'a.txt') })).versions;
    const outcome = await call('versions:restore', { pairId, path: 'a.txt', versionId: oldest!.id });
    expect(read('a.txt')).toBe('first\n');
    expect(asked).toEqual(['syncNow']);
    expect(outcome.words).toBe(
      'Version 2 of a.txt is back; the file it replaced is kept as a version. It syncs to the device now.',
    );
    expect(outcome.file.versions.map((version) => version.why)).toEqual([
      'replaced by a restore',
      "replaced by the device's version",
    ]);
  });

  it('puts back the version asked for when a pass kept a newer one first (the numbers shifted)', async () => {
    write('a.txt', 'first\n');
    await replaced('a.txt', 'second\n');
    const [wanted] = (await call('versions:list', { localPath: join(root, 'a.txt') })).versions;
    passFirst = () => replaced('a.txt', 'third, from the device\n');
    const outcome = await call('versions:restore', { pairId, path: 'a.txt', versionId: wanted!.id });
    expect(read('a.txt')).toBe('first\n');
    // Nothing is lost on the way: the device's edit and the version put back by mistake are both kept.
    expect(outcome.file.versions.map((version) => version.size).sort()).toEqual(
      ['second\n', 'third, from the device\n'].map((text) => text.length).sort(),
    );
  });

  it('says when a restore reaches the device: once a paused pair is resumed, once a stopped one syncs', async () => {
    write('a.txt', 'first\n');
    await replaced('a.txt', 'second\n');
    await replaced('a.txt', 'third\n');
    const restore = async (): Promise<string> => {
      const [newest] = (await call('versions:list', { localPath: join(root, 'a.txt') })).versions;
      return (await call('versions:restore', { pairId, path: 'a.txt', versionId: newest!.id })).words;
    };
    liveState = 'paused';
    expect(await restore()).toBe(
      'Version 1 of a.txt is back; the file it replaced is kept as a version. Syncing of Docs is paused: it goes to the device when you resume it.',
    );
    liveState = 'offline';
    expect(await restore()).toBe(
      'Version 1 of a.txt is back; the file it replaced is kept as a version. It goes to the device once Docs syncs again (its status says why it does not now).',
    );
  });

  it('refuses a version no longer kept, changing nothing', async () => {
    write('a.txt', 'first\n');
    await replaced('a.txt', 'second\n');
    const error = await failure('versions:restore', { pairId, path: 'a.txt', versionId: 9_999 });
    expect(error.code).toBe('VERSION_NOT_FOUND');
    expect(read('a.txt')).toBe('second\n');
    expect(asked).toEqual([]);
  });

  it('refuses a pair whose service does not run, saying so', async () => {
    const error = await failure('versions:restore', { pairId: 'stopped', path: 'a.txt', versionId: 1 });
    expect(error).toMatchObject({
      code: 'PAIR_NOT_SYNCING',
      message: `${root} is not syncing (see its state on the status view); its versions show once it syncs again.`,
    });
  });
});

describe('Recently deleted', () => {
  beforeEach(async () => {
    write('Photos/beach.jpg', 'sand');
    write('Photos/Beach hut.png', 'a hut');
    write('notes.txt', 'notes');
    await store.moveIn('Photos', 'deleted');
    await store.moveIn('notes.txt', 'deleted');
  });

  it('lists the deleted files, newest first, and finds them by name in any case', async () => {
    const all = await call('deleted:list', { pairId: null, query: null });
    expect(all.total).toBe(3);
    expect(all.files[0]).toMatchObject({
      path: 'notes.txt',
      size: 5,
      why: 'deleted on the device',
      versions: 1,
    });
    const found = await call('deleted:list', { pairId, query: '  BEACH ' });
    expect(found.files.map((file) => file.path).sort()).toEqual(['Photos/Beach hut.png', 'Photos/beach.jpg']);
    // The name, not the folder: "photos" finds none of the files in Photos.
    expect((await call('deleted:list', { pairId, query: 'photos' })).total).toBe(0);
  });

  it('restores the files asked for where they were, its folder made again, and says what it left', async () => {
    write('notes.txt', 'a new file of that name');
    const outcome = await call('deleted:restore', {
      pairId,
      paths: ['Photos/beach.jpg', 'notes.txt', 'gone.txt'],
    });
    expect(outcome.restored).toEqual(['Photos/beach.jpg']);
    expect(read('Photos/beach.jpg')).toBe('sand');
    expect(read('notes.txt')).toBe('a new file of that name');
    expect(outcome.skipped).toEqual([
      { path: 'notes.txt', reason: 'something is at its place now' },
      { path: 'gone.txt', reason: 'it is no longer kept' },
    ]);
    expect(outcome.words).toBe(
      '1 file restored. It syncs to the device now. 2 files were left as they are (something is at their place now, or they are no longer kept).',
    );
    expect(asked).toEqual(['syncNow']);
    // The new notes.txt stands at its place: the one deleted is no longer listed as gone.
    expect((await call('deleted:list', { pairId, query: null })).files.map((file) => file.path)).toEqual([
      'Photos/Beach hut.png',
    ]);
  });

  it('does not list a file restored before the pass that syncs it, though older versions of it are kept', async () => {
    write('a.txt', 'first\n');
    await replaced('a.txt', 'second\n');
    await store.moveIn('a.txt', 'deleted');
    expect((await call('deleted:list', { pairId, query: 'a.txt' })).files).toMatchObject([{ versions: 2 }]);
    await call('deleted:restore', { pairId, paths: ['a.txt'] });
    expect(read('a.txt')).toBe('second\n');
    expect(await call('deleted:list', { pairId, query: 'a.txt' })).toEqual({ files: [], total: 0 });
  });
});

describe('Recently deleted, from the trash', () => {
  it('lists a file deleted here that the trash holds, and puts it back from there', async () => {
    write('docs/letter.txt', 'dear');
    await moveToTrash(join(root, 'docs', 'letter.txt'), {
      syncRoot: root,
      env: { HOME: join(base, 'home') },
      platform: 'linux',
    });
    const listed = await call('deleted:list', { pairId, query: 'letter' });
    expect(listed.files).toMatchObject([
      { path: 'docs/letter.txt', reason: 'trashed-here', why: 'deleted here, in the trash', size: 4 },
    ]);
    const outcome = await call('deleted:restore', { pairId, paths: ['docs/letter.txt'] });
    expect(outcome.restored).toEqual(['docs/letter.txt']);
    expect(read('docs/letter.txt')).toBe('dear');
    expect((await call('deleted:list', { pairId, query: 'letter' })).total).toBe(0);
  });
});

describe('conflicts', () => {
  it('lists both sides with whose each is, their size, and their first lines', async () => {
    conflict();
    const [listed, ...others] = await call('conflicts:list', { pairId: null });
    expect(others).toEqual([]);
    expect(listed).toMatchObject({
      pairId,
      copyPath: COPY,
      originalPath: 'plan.txt',
      copy: {
        from: 'this-computer',
        fromWords: 'This computer',
        size: 13,
        preview: { kind: 'text', lines: ['changed here', ''] },
      },
      original: { from: 'device', fromWords: 'The device', localPath: join(root, 'plan.txt') },
    });
  });

  it('lists a copy another computer made, found by its name among the synced files', async () => {
    const copy = 'notes (conflicted copy 2026-11-25 101500).txt';
    write(copy, 'from the laptop\n');
    write('notes.txt', 'from the device\n');
    db.prepare(
      `INSERT INTO items (remote_id, parent_remote_id, path, name, kind, etag, size, m_time_ms)
       VALUES ('c1', 'root', :path, :path, 'file', '"1"', 16, 1)`,
    ).run({ path: copy });
    const [listed] = await call('conflicts:list', { pairId });
    expect(listed).toMatchObject({
      copyPath: copy,
      originalPath: 'notes.txt',
      copy: { from: 'other-computer', fromWords: 'Another computer' },
      original: { from: 'device' },
    });
    const outcome = await call('conflicts:resolve', { pairId, copyPaths: [copy], keep: 'this' });
    expect(outcome.words).toMatch(
      /^The conflict of notes\.txt is settled: the other computer's version keeps the name;/,
    );
    expect(read('notes.txt')).toBe('from the laptop\n');
  });

  it('shows a small image whole, as a data URL the window’s policy allows', async () => {
    const png = minimalPng(4, 3);
    write('pic (conflicted copy 2026-11-25 101500).png', 'x');
    writeFileSync(join(root, 'pic (conflicted copy 2026-11-25 101500).png'), png);
    writeFileSync(join(root, 'pic.png'), png);
    index.versions.putConflict({
      copyPath: 'pic (conflicted copy 2026-11-25 101500).png',
      originalPath: 'pic.png',
      madeAtMs: 1,
      madeHere: true,
      settled: null,
    });
    const [listed] = await call('conflicts:list', { pairId });
    expect(listed?.copy.preview).toEqual({
      kind: 'image',
      dataUrl: `data:image/png;base64,${png.toString('base64')}`,
    });
  });

  it('keeps this computer’s: its content takes the name, the device’s is kept as a version', async () => {
    conflict();
    const outcome = await call('conflicts:resolve', { pairId, copyPaths: [COPY], keep: 'this' });
    expect(outcome).toMatchObject({ settled: [COPY], failed: [] });
    expect(read('plan.txt')).toBe('changed here\n');
    expect(existsSync(join(root, COPY))).toBe(false);
    expect(index.versions.ofPath('plan.txt').map((row) => row.reason)).toEqual(['conflict']);
    expect(asked).toEqual(['syncNow']);
    expect(events).toEqual(['pairs:changed']);
    expect(await call('conflicts:list', { pairId })).toEqual([]);
  });

  it('keeps the device’s for two at once; the copies are kept as versions', async () => {
    conflict();
    conflict('b (conflicted copy 2026-11-25 101500).txt', 'b.txt');
    const outcome = await call('conflicts:resolve', {
      pairId,
      copyPaths: [COPY, 'b (conflicted copy 2026-11-25 101500).txt'],
      keep: 'device',
    });
    expect(outcome.settled).toHaveLength(2);
    expect(outcome.words).toBe(
      "2 conflicts are settled: the device's versions keep the names; the others are kept as versions. They sync to the device now.",
    );
    expect(read('plan.txt')).toBe('changed on the device\n');
    expect(existsSync(join(root, COPY))).toBe(false);
    expect(index.versions.ofPath(COPY).map((row) => row.reason)).toEqual(['conflict']);
  });

  it('keeps both: the files stay, the conflict leaves the list and the count, and nothing syncs', async () => {
    conflict();
    expect(conflicts.of(pairId, index, 1)).toEqual([{ path: COPY }]);
    await call('conflicts:resolve', { pairId, copyPaths: [COPY], keep: 'both' });
    expect(read(COPY)).toBe('changed here\n');
    expect(await call('conflicts:list', { pairId })).toEqual([]);
    expect(conflicts.of(pairId, index, 1)).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('says which could not be settled and settles the others', async () => {
    conflict();
    const outcome = await call('conflicts:resolve', {
      pairId,
      copyPaths: ['nope.txt', COPY],
      keep: 'device',
    });
    expect(outcome.settled).toEqual([COPY]);
    expect(outcome.failed).toEqual([
      {
        copyPath: 'nope.txt',
        code: 'NOT_A_CONFLICT',
        message: 'nope.txt is not a conflict waiting to be settled.',
      },
    ]);
  });
});

describe('the conflicts a pair’s view counts', () => {
  it('reads the index again only when a pass ended or a conflict was settled here', () => {
    conflict();
    expect(conflicts.of(pairId, index, 1)).toEqual([{ path: COPY }]);
    conflict('b (conflicted copy 2026-11-25 101500).txt', 'b.txt');
    // The same pass: the walk is not made again for every view.
    expect(conflicts.of(pairId, index, 1)).toHaveLength(1);
    expect(conflicts.of(pairId, index, 2)).toHaveLength(2);
    index.versions.putConflict({
      copyPath: COPY,
      originalPath: 'plan.txt',
      madeAtMs: 1,
      madeHere: true,
      settled: 'both',
    });
    conflicts.changed(pairId);
    expect(conflicts.of(pairId, index, 2)).toEqual([{ path: 'b (conflicted copy 2026-11-25 101500).txt' }]);
  });
});

describe('a pair’s versions policy', () => {
  it('shows the defaults and the room versions take', async () => {
    write('a.txt', 'first\n');
    await replaced('a.txt', 'second\n');
    const view = await call('versions:usage', { pairId });
    expect(view).toMatchObject({
      pairId,
      keepDays: 30,
      capBytes: null,
      conflicts: 'ask',
      count: 1,
      bytes: 6,
    });
    expect(view.defaultCapBytes).toBeGreaterThan(0);
    expect(view.defaultCapWords).toMatch(/^\d+ % of the disk: [\d.]+ [kMGT]?B$/);
  });

  it('saves the policy in the pair’s record, and a lower cap removes the oldest versions at once', async () => {
    write('a.txt', '1234567890');
    await replaced('a.txt', 'abcdefghij');
    await replaced('a.txt', 'ABCDEFGHIJ');
    const view = await call('versions:settings', { pairId, keepDays: 7, capBytes: 15, conflicts: 'device' });
    expect(readPairVersions(profile, root)).toEqual({ keepDays: 7, capBytes: 15, conflicts: 'device' });
    expect(view).toMatchObject({ keepDays: 7, capBytes: 15, conflicts: 'device', count: 1, bytes: 10 });
    expect(index.versions.ofPath('a.txt')[0]?.size).toBe(10);
  });

  it('clears every version, and the synced files stay', async () => {
    write('a.txt', 'first\n');
    await replaced('a.txt', 'second\n');
    write('b.txt', 'gone');
    await store.moveIn('b.txt', 'deleted');
    const view = await call('versions:clear', { pairId });
    expect(view).toMatchObject({ count: 0, bytes: 0 });
    expect(read('a.txt')).toBe('second\n');
    expect((await call('deleted:list', { pairId, query: null })).total).toBe(0);
  });
});
