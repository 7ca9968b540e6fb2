// The invariant checker of the randomized test catches each kind of broken outcome, and passes a good one.
import { describe, expect, it } from 'vitest';
import type { IndexEntry } from '../../../app/model/items.ts';
import { emptyCounts, type PassReport } from '../../../app/sync/pass-report.ts';
import {
  checkReport,
  checkStable,
  checkState,
  requiredContents,
  type PassState,
  type SnapshotItem,
  type ViolationCode,
} from '../../reliability/canopy/invariants.ts';
import type { Scenario } from '../../reliability/canopy/scenario.ts';

/** Local edits a.txt and deletes c.txt; the device deletes docs/ (a.txt's folder) and edits b.txt. */
const SCENARIO: Scenario = {
  seed: 1,
  caseInsensitive: false,
  initialSide: 'local',
  initial: [
    { path: 'docs', kind: 'folder' },
    { path: 'docs/a.txt', kind: 'file', content: 'A0' },
    { path: 'b.txt', kind: 'file', content: 'B0' },
    { path: 'c.txt', kind: 'file', content: 'C0' },
  ],
  local: [
    { op: 'edit', path: 'docs/a.txt', content: 'A1 local' },
    { op: 'delete', path: 'c.txt' },
  ],
  remote: [
    { op: 'delete', path: 'docs' },
    { op: 'edit', path: 'b.txt', content: 'B1 remote' },
  ],
};

const REQUIRED = requiredContents(SCENARIO);

interface State extends PassState {
  local: SnapshotItem[];
  remote: SnapshotItem[];
  index: IndexEntry[];
  trashed: string[];
  skipped?: string[];
}

/** The right outcome: the edit beat the folder's delete, both edits are in, the copy b.txt's edit replaced is a version. */
function goodState(): State {
  const local: SnapshotItem[] = [
    { path: 'docs', kind: 'folder', inode: '11' },
    { path: 'docs/a.txt', kind: 'file', content: 'A1 local', inode: '12' },
    { path: 'b.txt', kind: 'file', content: 'B1 remote', inode: '13' },
  ];
  const remote: SnapshotItem[] = [
    { path: 'docs', kind: 'folder', id: 'r-docs', eTag: '"1"' },
    { path: 'docs/a.txt', kind: 'file', content: 'A1 local', id: 'r-a', eTag: '"2"', size: 8, mTimeMs: 1000 },
    { path: 'b.txt', kind: 'file', content: 'B1 remote', id: 'r-b', eTag: '"3"', size: 9, mTimeMs: 2000 },
  ];
  const index = remote.map((item, position) => row(item, local[position]?.inode ?? null));
  const versions = {
    files: [{ blob: 'k1', content: 'B0', path: 'b.txt', reason: 'replaced' }],
    disagreements: [],
  };
  return { local, remote, index, trashed: [], versions, remoteRootId: 'root' };
}

function row(item: SnapshotItem, inode: string | null): IndexEntry {
  return {
    remoteId: item.id ?? '',
    parentRemoteId: item.path.includes('/') ? 'r-docs' : 'root',
    path: item.path,
    name: item.path.slice(item.path.lastIndexOf('/') + 1),
    kind: item.kind === 'folder' ? 'folder' : 'file',
    eTag: item.eTag ?? '',
    size: item.size ?? 0,
    mTimeMs: item.mTimeMs ?? 0,
    inode,
    localSize: null,
    localMtimeNs: null,
    contentHash: null,
  };
}

function codes(state: PassState): ViolationCode[] {
  return [...new Set(checkState(state, REQUIRED).map((violation) => violation.code))];
}

describe('requiredContents', () => {
  it('keeps what a user wrote and the copy a device edit replaced here, and excuses what this side deleted', () => {
    expect(REQUIRED.map((version) => version.content).sort()).toEqual(['A1 local', 'B0', 'B1 remote']);
    expect(REQUIRED.find((version) => version.content === 'B0')?.in).toBe('versions');
  });

  it('requires a local copy the device deleted (versions or trash) and one the device overwrote (a version)', () => {
    const required = requiredContents({
      ...SCENARIO,
      local: [],
      remote: [
        { op: 'delete', path: 'b.txt' },
        { op: 'edit', path: 'c.txt', content: 'C1' },
      ],
    });
    expect(required.map((version) => version.content).sort()).toEqual(['A0', 'B0', 'C0', 'C1']);
  });

  it('requires a version the other side only moved, or deleted in a folder it was not in', () => {
    const required = requiredContents({
      ...SCENARIO,
      local: [{ op: 'move', from: 'b.txt', to: 'docs/b.txt' }],
      remote: [{ op: 'delete', path: 'docs' }],
    });
    // A0 stayed in docs/ untouched: the device's delete sends the local copy to the trash.
    expect(required.map((version) => version.content).sort()).toEqual(['A0', 'B0', 'C0']);
  });
});

describe('checkState', () => {
  it('finds nothing wrong with a correct outcome', () => {
    expect(checkState(goodState(), REQUIRED)).toEqual([]);
  });

  it('sees a file missing on one side', () => {
    const state = goodState();
    state.remote = state.remote.filter((item) => item.path !== 'docs/a.txt');
    expect(codes(state)).toEqual(['trees-differ', 'index-mismatch']);
  });

  it('sees one differing byte', () => {
    const state = goodState();
    state.remote = state.remote.map((item) =>
      item.path === 'b.txt' ? { ...item, content: 'B1 remotE' } : item,
    );
    expect(checkState(state, REQUIRED)).toEqual([
      { code: 'trees-differ', message: expect.stringContaining('"b.txt" differs') as string },
    ]);
  });

  it('sees a file on one side and a folder on the other', () => {
    const state = goodState();
    state.local = state.local.map((item) =>
      item.path === 'b.txt' ? { path: 'b.txt', kind: 'folder', inode: '13' } : item,
    );
    expect(codes(state)).toContain('trees-differ');
  });

  it('takes NFC and NFD spellings of a path as the same path', () => {
    const state = goodState();
    const nfd = 'caf\u0065\u0301';
    state.local.push({ path: nfd, kind: 'folder', inode: '14' });
    state.remote.push({ path: nfd.normalize('NFC'), kind: 'folder', id: 'r-cafe', eTag: '"4"' });
    state.index.push(row({ path: nfd.normalize('NFC'), kind: 'folder', id: 'r-cafe' }, '14'));
    expect(checkState(state, REQUIRED)).toEqual([]);
  });

  it('sees an index row with a wrong path', () => {
    const state = goodState();
    state.index = state.index.map((entry) =>
      entry.path === 'docs/a.txt' ? { ...entry, path: 'docs/A.txt' } : entry,
    );
    const found = checkState(state, REQUIRED);
    expect(found.map((violation) => violation.code)).toEqual([
      'index-mismatch',
      'index-mismatch',
      'index-mismatch',
    ]);
  });

  it('sees a missing row, a wrong kind, remote id, size, mTime, parent or inode', () => {
    const variants: ((index: IndexEntry[]) => IndexEntry[])[] = [
      (index) => index.filter((entry) => entry.path !== 'b.txt'),
      (index) => index.map((entry) => (entry.path === 'docs' ? { ...entry, kind: 'file' } : entry)),
      (index) => index.map((entry) => (entry.path === 'b.txt' ? { ...entry, remoteId: 'r-gone' } : entry)),
      (index) => index.map((entry) => (entry.path === 'b.txt' ? { ...entry, size: 2 } : entry)),
      (index) => index.map((entry) => (entry.path === 'b.txt' ? { ...entry, mTimeMs: 1 } : entry)),
      (index) =>
        index.map((entry) => (entry.path === 'b.txt' ? { ...entry, parentRemoteId: 'r-docs' } : entry)),
      (index) => index.map((entry) => (entry.path === 'b.txt' ? { ...entry, inode: '99' } : entry)),
    ];
    for (const change of variants) {
      const state = goodState();
      state.index = change(state.index);
      expect(codes(state)).toEqual(['index-mismatch']);
    }
  });

  it('sees a version that is nowhere, even when both sides agree', () => {
    const state = goodState();
    state.local = state.local.filter((item) => item.path !== 'b.txt');
    state.remote = state.remote.filter((item) => item.path !== 'b.txt');
    state.index = state.index.filter((entry) => entry.path !== 'b.txt');
    expect(checkState(state, REQUIRED)).toEqual([
      { code: 'content-lost', message: expect.stringContaining('B1 remote') as string },
    ]);
  });

  it('lets an item the pass reported as skipped be on one side only, but still requires its content', () => {
    const state = goodState();
    state.local.push({ path: 'docs/CON', kind: 'file', content: 'kept here', inode: '15' });
    state.skipped = ['docs/CON'];
    const required = [...REQUIRED, { content: 'kept here', why: 'test' }];
    expect(checkState(state, required)).toEqual([]);
    state.local.pop();
    expect(checkState(state, required).map((violation) => violation.code)).toEqual(['content-lost']);
  });

  it("hides a skip of one side only on that side: the other side's item of that spelling must match", () => {
    const state = goodState();
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    // The device's new NFD item clashes with its synced NFC one; this computer's NFD file is synced.
    state.local.push({ path: nfd, kind: 'file', content: 'mine', inode: '16' });
    const synced: SnapshotItem = {
      path: nfc,
      kind: 'file',
      content: 'mine',
      id: 'r-nfc',
      eTag: '"5"',
      size: 4,
      mTimeMs: 3000,
    };
    state.remote.push(synced, {
      path: nfd,
      kind: 'file',
      content: 'theirs',
      id: 'r-nfd',
      eTag: '"6"',
      size: 6,
      mTimeMs: 4000,
    });
    state.index.push(row(synced, '16'));
    state.skippedRemote = [nfd];
    const required = [...REQUIRED, { content: 'theirs', why: 'test' }];
    expect(checkState(state, required)).toEqual([]);
    // Hidden on both sides, the synced pair would look one-sided.
    expect(codes({ ...state, skippedRemote: [], skipped: [nfd] })).toContain('trees-differ');
  });

  it('counts a version in the trash as kept', () => {
    const state = goodState();
    state.local = state.local.filter((item) => item.path !== 'b.txt');
    state.remote = state.remote.filter((item) => item.path !== 'b.txt');
    state.index = state.index.filter((entry) => entry.path !== 'b.txt');
    state.trashed = ['B1 remote'];
    expect(checkState(state, REQUIRED)).toEqual([]);
  });

  it('wants the copy a device edit replaced among the versions, not only in the trash', () => {
    const state = goodState();
    state.versions = { files: [], disagreements: [] };
    state.trashed = ['B0'];
    expect(checkState(state, REQUIRED)).toEqual([
      { code: 'content-lost', message: expect.stringContaining('"B0" is not a version') as string },
    ]);
  });
});

function report(overrides: Partial<PassReport>): PassReport {
  return {
    status: 'synced',
    counts: emptyCounts(),
    issues: [],
    hold: null,
    rounds: 1,
    operations: {},
    startedAtMs: 0,
    finishedAtMs: 0,
    ...overrides,
  };
}

describe('checkReport and checkStable', () => {
  it('accepts a synced pass with only skips and warnings', () => {
    const issues: PassReport['issues'] = [
      { kind: 'warning', path: 'CON', code: 'PORTABILITY', message: 'x' },
    ];
    expect(checkReport(report({ issues }), 'pass')).toEqual([]);
  });

  it('rejects a pass that threw, ended with errors, or left an item to retry', () => {
    expect(checkReport(new Error('boom'), 'pass')[0]?.code).toBe('pass-failed');
    expect(checkReport(report({ status: 'errors' }), 'pass')[0]?.code).toBe('pass-failed');
    const issues: PassReport['issues'] = [{ kind: 'retry', path: 'a', code: 'LOCAL_CHANGED', message: 'x' }];
    expect(checkReport(report({ issues }), 'pass')[0]?.code).toBe('pass-failed');
  });

  it('rejects a second pass that still does something', () => {
    expect(checkStable(report({ operations: { upload: 0 } }))).toEqual([]);
    expect(checkStable(report({ operations: { upload: 1 } }))[0]?.code).toBe('not-stable');
  });
});
