// Which versions thinning removes: staggered spans by age, the age limit, then the oldest while over the cap; a new policy applied at the next look.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openIndexDb } from '../../../../../app/index/index-db.ts';
import { IndexStore } from '../../../../../app/index/index-store.ts';
import type { VersionsPolicy } from '../../../../../app/sync/engine-options.ts';
import { PassVersions } from '../../../../../app/sync/versions/pass-versions.ts';
import { VersionStore } from '../../../../../app/sync/versions/version-store.ts';
import type { VersionRow } from '../../../../../app/index/version-rows.ts';
import { overCap, staggeredRemovals } from '../../../../../app/sync/versions/version-thinning.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-11-28T12:00:00Z');

let nextId = 1;
function version(ageMs: number, size = 10): VersionRow {
  return {
    id: nextId++,
    path: 'a.txt',
    blob: `b${nextId}`,
    reason: 'replaced',
    size,
    mTimeMs: 0,
    keptAtMs: NOW - ageMs,
    state: 'kept',
    inode: null,
    remoteId: null,
    contentHash: null,
  };
}

const ages = (rows: VersionRow[]): number[] => rows.map((row) => NOW - row.keptAtMs);

describe('staggered thinning', () => {
  it('keeps every version of the last hour', () => {
    const rows = [1, 5, 10, 30, 59].map((minutes) => version(minutes * MINUTE));
    expect(staggeredRemovals(rows, NOW, 30 * DAY)).toEqual([]);
  });

  it('keeps the oldest of each hour within the day, and of each day after', () => {
    const rows = [
      version(2 * HOUR + 10 * MINUTE),
      version(2 * HOUR + 40 * MINUTE),
      version(5 * HOUR),
      version(3 * DAY + HOUR),
      version(3 * DAY + 5 * HOUR),
      version(3 * DAY + 20 * HOUR),
    ];
    expect(ages(staggeredRemovals(rows, NOW, 30 * DAY))).toEqual([
      2 * HOUR + 10 * MINUTE,
      3 * DAY + HOUR,
      3 * DAY + 5 * HOUR,
    ]);
  });

  it('removes every version older than the age limit, the newest too', () => {
    const rows = [version(31 * DAY), version(40 * DAY)];
    expect(staggeredRemovals(rows, NOW, 30 * DAY)).toEqual(rows);
  });
});

describe('the size cap', () => {
  it('removes the oldest until what stays fits, skipping those already going', () => {
    const rows = [version(5 * DAY, 40), version(4 * DAY, 40), version(3 * DAY, 40), version(DAY, 40)];
    const going = new Set([rows[1]!.id]);
    // 160 bytes, 40 already going: 120 stay; a cap of 50 takes the two oldest of the others.
    expect(overCap(rows, 120, 50, going).map((row) => row.id)).toEqual([rows[0]!.id, rows[2]!.id]);
  });

  it('removes nothing under the cap', () => {
    expect(overCap([version(DAY, 10)], 10, 10, new Set())).toEqual([]);
  });
});

describe('thinning after a pass', () => {
  it('applies a lower cap at the next look, not an hour later', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mch-thin-'));
    const db = openIndexDb(':memory:');
    try {
      const index = new IndexStore(db);
      let policy: VersionsPolicy = { keepDays: 30, capBytes: 1_000_000, conflicts: 'ask' };
      const versions = new PassVersions({ index, localRoot: root, versions: () => policy });
      const store = new VersionStore(root, index.versions);
      for (const name of ['a', 'b', 'c']) {
        writeFileSync(join(root, name), '0123456789');
        await store.moveIn(name, 'deleted');
      }
      expect(await versions.thin(NOW)).toEqual({ removed: 0, bytes: 0 });
      policy = { ...policy, capBytes: 15 };
      expect(await versions.thin(NOW + MINUTE)).toEqual({ removed: 2, bytes: 20 });
      expect(index.versions.usage()).toEqual({ count: 1, bytes: 10 });
    } finally {
      db.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
