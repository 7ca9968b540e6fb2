// The soak harness's own checks and plans of issue 26, on hand-made states: what each check flags, and what the seeds draw.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBookkeeping, withoutBookkeeping } from './canopy/bookkeeping.ts';
import { bigTag, bigVersion, folderTree } from './canopy/bulk-tree.ts';
import type { PassState, SnapshotItem } from './canopy/invariants.ts';
import { Ledger } from './canopy/ledger.ts';
import { checkMerged, checkUnchanged, writeRequests } from './canopy/root-change.ts';
import { checkNoDuplicatesIn, checkNothingTorn } from './canopy/soak-invariants.ts';
import { bulkFolderItems, GUARD_FRACTION, GUARD_ITEMS } from './canopy/soak-plans.ts';
import {
  DEFAULT_SOAK_RATES,
  describeDisturbances,
  generateSoakScenario,
  SOAK_GENERATOR,
} from './canopy/soak-scenario.ts';
import { disturbancesHere } from './canopy/seed-setup.ts';
import { describeBytes } from './canopy/upload-change.ts';

const work = mkdtempSync(join(tmpdir(), 'mch-soak-checks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const file = (path: string, content: string): SnapshotItem => ({ path, kind: 'file', content });
const state = (local: SnapshotItem[], remote: SnapshotItem[]): PassState => ({
  local,
  remote,
  index: [],
  trashed: [],
});

describe('nothing torn', () => {
  it('flags a file on either side whose bytes are no version a user wrote', () => {
    const versions = new Set(['one\n', 'two\n']);
    expect(checkNothingTorn(state([file('a', 'one\n')], [file('a', 'two\n')]), versions)).toEqual([]);
    const torn = checkNothingTorn(state([file('a', 'one\n')], [file('a', 'onw\n')]), versions);
    expect(torn.map((violation) => violation.code)).toEqual(['torn']);
    expect(torn[0]?.message).toContain('the device holds "a"');
  });

  it("big.bin's versions differ on every line, so the bytes of two side by side are told apart", () => {
    const first = bigVersion(7, 1, 64 * 100);
    const second = bigVersion(7, 2, 64 * 100);
    expect(first).toHaveLength(6400);
    expect(
      first
        .split('\n')
        .slice(0, -1)
        .every((line) => line.includes(bigTag(7, 1))),
    ).toBe(true);
    const torn = first.slice(0, 64 * 30) + second.slice(64 * 30);
    expect(describeBytes(torn, 7)).toBe('6400 bytes: v1 lines 0-29, then v2 lines 30-99');
    expect(checkNothingTorn(state([], [file('big.bin', torn)]), new Set([first, second]))).toHaveLength(1);
  });
});

describe('nothing doubled (issue 31: the versions store too)', () => {
  it('flags a version kept more often than users wrote it', () => {
    const kept = (contents: string[]): PassState => ({
      ...state([file('a', 'new')], [file('a', 'new')]),
      versions: {
        files: contents.map((content, at) => ({ blob: `k${at}`, content, path: 'a' })),
        disagreements: [],
      },
    });
    const allowed = new Map([
      ['old', 1],
      ['new', 1],
    ]);
    expect(checkNoDuplicatesIn(kept(['old']), allowed)).toEqual([]);
    expect(checkNoDuplicatesIn(kept(['old', 'old']), allowed)).toEqual([
      { code: 'duplicate', message: 'the versions store holds "old" 2 times (written 1): "k0", "k1"' },
    ]);
  });
});

describe("a disk's own folders", () => {
  it('are left out of the trees compared, at any depth', () => {
    const items = [
      file('.Trash-0/files/a', 'x'),
      file('lost+found/#1', 'y'),
      file('d/.Trash/b', 'z'),
      file('d/a', 'w'),
    ];
    expect(withoutBookkeeping(items).map((item) => item.path)).toEqual(['d/a']);
  });

  it('never reach the other side: the device holds only what the other client put there', () => {
    const made = new Set(['.Trash-1000', '.Trash-1000/files', '.Trash-1000/files/old.txt']);
    const remote = [file('.Trash-1000/files/old.txt', 'theirs')];
    expect(checkBookkeeping([file('.Trash-0/files/a', 'mine')], remote, made)).toEqual([]);
    const up = checkBookkeeping([], [...remote, file('.Trash-0/files/a', 'mine')], made);
    expect(up.map((violation) => violation.message)).toEqual([
      `the device holds ".Trash-0/files/a", a disk's own folder`,
    ]);
    expect(checkBookkeeping([file('.Trash-1000/files/old.txt', 'theirs')], remote, made)).toHaveLength(1);
  });

  it("nor does the engine's state folder with its versions (issue 31)", () => {
    const up = checkBookkeeping([], [file('d/.mch-sync/versions/k1', 'kept')], new Set());
    expect(up.map((violation) => violation.message)).toEqual([
      `the device holds "d/.mch-sync/versions/k1", of this computer's state folder`,
    ]);
    expect(withoutBookkeeping([file('.mch-sync/versions/k1', 'kept')])).toEqual([]);
  });
});

describe('a held pass', () => {
  it('changed nothing: a file that appeared, changed (bytes or inode) or went is named', () => {
    const before = { local: [{ ...file('a', '1'), inode: '5' }], remote: [file('b', '2')] };
    expect(checkUnchanged(before, before, 'held')).toEqual([]);
    const after = { local: [{ ...file('a', '1'), inode: '6' }], remote: [file('c', '2')] };
    expect(checkUnchanged(before, after, 'held')[0]?.message).toBe(
      'held: local "a" changed, remote "c" appeared, remote "b" went',
    );
  });

  it('sent nothing but reads', () => {
    expect(writeRequests(['GET /sdk/v2/files/x', 'PATCH /sdk/v2/files/y', 'HEAD /z'])).toEqual([
      'PATCH /sdk/v2/files/y',
    ]);
  });

  it('after a restore, every version either side held is in the merged folder', () => {
    expect(checkMerged(new Set(['a', 'b']), [file('x', 'a'), file('x (conflicted copy)', 'b')])).toEqual([]);
    expect(checkMerged(new Set(['a', 'b']), [file('x', 'a')]).map((violation) => violation.code)).toEqual([
      'content-lost',
    ]);
    // Issue 31: a conflict of the merge that the pair's policy settled keeps the loser as a version.
    expect(checkMerged(new Set(['a', 'b']), [file('x', 'a')], ['b'])).toEqual([]);
  });
});

describe("the ledger's own writes", () => {
  it('a write it cannot say as a change removes what the file held and writes the new version', () => {
    const root = join(work, 'ledger');
    mkdirSync(root);
    writeFileSync(join(root, 'big.bin'), 'old');
    const ledger = new Ledger([{ path: 'big.bin', kind: 'file', content: 'old' }]);
    ledger.localWrite({ root, scratch: work }, 'big.bin', 'new', () =>
      writeFileSync(join(root, 'big.bin'), 'new'),
    );
    expect(readFileSync(join(root, 'big.bin'), 'utf8')).toBe('new');
    expect(ledger.required().map((version) => version.content)).toEqual(['new']);
    expect([...ledger.versions()].sort()).toEqual(['new', 'old']);
  });
});

describe("issue 26's draws", () => {
  const seeds = Array.from({ length: 400 }, (_, index) => index + 1);
  const none = { ...DEFAULT_SOAK_RATES, bulk: 0, root: 0, trash: 0, upload: 0, second: 0 };

  it('come from a stream of their own: the other disturbances of a seed stay as they were', () => {
    for (const seed of seeds) {
      const withThem = generateSoakScenario(seed, SOAK_GENERATOR).soak;
      const without = generateSoakScenario(seed, SOAK_GENERATOR, none).soak;
      // A bulk-delete seed is live, which drops its crash, faults and changes mid-pass.
      if (withThem.bulk !== null) continue;
      expect({ ...withThem, bulk: null, root: null, trash: null, upload: null, second: null }).toEqual(
        without,
      );
    }
  });

  it('every bulk delete passes the guard on its own: more than 50 items and 30 % of the tree', () => {
    const rates = { ...none, bulk: 1 };
    for (const seed of seeds) {
      const scenario = generateSoakScenario(seed, SOAK_GENERATOR, rates);
      const bulk = scenario.soak.bulk;
      if (bulk === undefined || bulk === null) throw new Error(`seed ${seed} has no bulk delete`);
      const deleted = bulk.deleted * bulkFolderItems(bulk.files);
      const total = scenario.initial.length + folderTree(seed, 'bulk', bulk.folders, bulk.files).length;
      expect(deleted).toBeGreaterThan(GUARD_ITEMS);
      expect(deleted).toBeGreaterThan(GUARD_FRACTION * total);
      expect(scenario.soak.live).toBe(true);
    }
  });

  it('without mounts, a disk of its own is a plain folder and an unplugged or swapped disk a folder moved aside', () => {
    const root = {
      how: 'unmount' as const,
      writes: 1,
      atSynced: 0,
      heldPasses: 1,
      answer: 'put-back' as const,
      extra: null,
    };
    const soak = {
      crash: null,
      faults: null,
      during: null,
      live: false,
      root,
      trash: { shared: true, foreign: false, lostFound: false },
    };
    const here = disturbancesHere(soak, 'mounting needs root');
    expect(here.trash).toBeNull();
    expect(here.root).toEqual({ ...root, how: 'replace' });
    expect(here.bulk).toBeNull();
    expect(disturbancesHere(soak, undefined)).toEqual({ ...soak, bulk: null, upload: null, second: null });
  });

  it('a reproduction kept before issue 26 (no such fields) is described as before', () => {
    const soak = { crash: null, faults: null, during: null, live: true };
    expect(describeDisturbances(soak)).toBe('live service');
  });
});
