// Reading the versions table of a pair's index with 100,000 kept versions: a file's versions (issue 31: under 10 ms) and the deleted files (under 200 ms), against plain reads of the same index.
//
// A real index (`openIndexDb` + `IndexStore`, in a temporary folder) is filled in one transaction each:
// `BENCH_VERSIONS_LISTING_ITEMS` items rows (default 100,000: 1,000 folders of 99 files), then
// `BENCH_VERSIONS_LISTING_VERSIONS` kept versions (default 100,000) over `BENCH_VERSIONS_LISTING_PATHS`
// paths (default 20,000, 5 versions each, kept at times spread over 30 days): half are paths of synced
// files (their replaced content), half of files no longer synced (deleted here). Then, timed one call
// at a time in turn with its baseline:
// - `versions.ofPath(path)` for paths with versions and without, against `byPath` of an item (the index's
//   point lookup), p50, p95 and the worst of `BENCH_VERSIONS_LISTING_LOOKUPS` calls (default 4,000);
// - `versions.deleted(folder, sinceMs)` over the whole pair, since 3 days, and one folder, against
//   `SELECT COUNT(*) FROM versions` (one pass over the table) and every kept row read (`versions.kept()`),
//   median and worst of `BENCH_VERSIONS_LISTING_ROUNDS` rounds (default 15, after 2 unmeasured).
// Each query's plan (`EXPLAIN QUERY PLAN`, as version-rows.ts words it) is printed below the tables.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIndexDb, type IndexDb } from '../app/index/index-db.ts';
import { IndexStore } from '../app/index/index-store.ts';
import type { NewVersion } from '../app/index/version-rows.ts';
import type { IndexEntry } from '../app/model/items.ts';
import { median, secondsSince } from './lib/timing.ts';

const ITEMS = Number(process.env['BENCH_VERSIONS_LISTING_ITEMS'] ?? 100_000);
const VERSIONS = Number(process.env['BENCH_VERSIONS_LISTING_VERSIONS'] ?? 100_000);
const PATHS = Number(process.env['BENCH_VERSIONS_LISTING_PATHS'] ?? 20_000);
const LOOKUPS = Number(process.env['BENCH_VERSIONS_LISTING_LOOKUPS'] ?? 4_000);
const ROUNDS = Number(process.env['BENCH_VERSIONS_LISTING_ROUNDS'] ?? 15);
const WARMUP = 2;
const FOLDERS = Math.max(1, Math.round(ITEMS / 100));
const FILES_PER_FOLDER = Math.ceil((ITEMS - FOLDERS) / FOLDERS);
const DAY_MS = 86_400_000;
const NOW_MS = Date.UTC(2026, 10, 28, 12);
/** Issue 31's goals, in ms. */
const OF_PATH_GOAL_MS = 10;
const DELETED_GOAL_MS = 200;

/** A deterministic sequence in [0, 1) (a linear congruential generator): the same index on every run. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The synced file `n` (0-based over the tree): `folder-F/file-I.txt`. */
function filePath(n: number): string {
  return `folder-${n % FOLDERS}/file-${Math.floor(n / FOLDERS)}.txt`;
}

function* itemRows(): Generator<IndexEntry> {
  const file = (remoteId: string, parent: string, path: string, name: string): IndexEntry => ({
    remoteId,
    parentRemoteId: parent,
    path,
    name,
    kind: 'file',
    eTag: `e-${remoteId}`,
    size: 1000,
    mTimeMs: NOW_MS,
    inode: remoteId.slice(1),
    localSize: 1000,
    localMtimeNs: BigInt(NOW_MS) * 1_000_000n,
    contentHash: null,
  });
  for (let f = 0; f < FOLDERS; f += 1) {
    const folder = `folder-${f}`;
    yield { ...file(`d${f}`, 'root', folder, folder), kind: 'folder', size: 0, localSize: null };
  }
  for (let n = 0; n < FOLDERS * FILES_PER_FOLDER && n < ITEMS - FOLDERS; n += 1) {
    const path = filePath(n);
    yield file(`f${n}`, `d${n % FOLDERS}`, path, path.slice(path.indexOf('/') + 1));
  }
}

/** Version path `p`: even ones are synced files (replaced content), odd ones deleted files. */
function versionPath(p: number): string {
  return p % 2 === 0 ? filePath(p * 3) : `folder-${p % FOLDERS}/gone-${p}.txt`;
}

function fill(store: IndexStore): void {
  store.upsertMany(itemRows());
  const random = sequence(31);
  store.versions.transaction(() => {
    for (let v = 0; v < VERSIONS; v += 1) {
      const p = v % PATHS;
      const deleted = p % 2 === 1 && v + PATHS >= VERSIONS;
      const version: NewVersion = {
        path: versionPath(p),
        blob: `k${v.toString(36)}-${Math.floor(random() * 2 ** 32).toString(16)}`,
        reason: deleted ? 'deleted' : 'replaced',
        size: 100 + Math.floor(random() * 10_000),
        mTimeMs: NOW_MS - 40 * DAY_MS,
        // Later rounds over the paths are newer: each path's last version is its newest.
        keptAtMs:
          NOW_MS - Math.floor(((VERSIONS - v) / VERSIONS) * 30 * DAY_MS) + Math.floor(random() * 1000),
        state: 'kept',
        inode: null,
        remoteId: `f${p}`,
        contentHash: null,
      };
      store.versions.add(version);
    }
  });
}

/** ms of one call. */
function timed(work: () => unknown): number {
  const started = process.hrtime.bigint();
  work();
  return secondsSince(started) * 1000;
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number;
}

interface Timings {
  name: string;
  ms: number[];
  detail: string;
  /** A read the goal is about (not a reference row). */
  goal: boolean;
}

function printTable(title: string, baseline: Timings, rows: readonly Timings[], goalMs: number): void {
  const p50 = (t: Timings): number => median(t.ms);
  console.log(`\n${title}`);
  console.log('| case | p50 (ms) | ratio to baseline | p95 (ms) | worst (ms) | detail |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const row of [baseline, ...rows]) {
    const ratio = row === baseline ? '1.00 (baseline)' : (p50(row) / p50(baseline)).toFixed(1);
    const cells = [p50(row), percentile(row.ms, 0.95), Math.max(...row.ms)].map((ms) => ms.toFixed(3));
    console.log(`| ${row.name} | ${cells[0]} | ${ratio} | ${cells[1]} | ${cells[2]} | ${row.detail} |`);
  }
  const worst = Math.max(...rows.filter((row) => row.goal).map((row) => percentile(row.ms, 0.95)));
  console.log(
    `goal: under ${goalMs} ms (p95): ${worst < goalMs ? 'met' : 'MISSED'} (${worst.toFixed(3)} ms)`,
  );
}

/** `EXPLAIN QUERY PLAN` of the two reads, spelled as version-rows.ts prepares them. */
function printPlans(db: IndexDb): void {
  const plans: Record<string, string> = {
    ofPath: `SELECT * FROM versions WHERE path = 'a' AND state = 'kept' ORDER BY kept_at_ms DESC, id DESC`,
    deleted: `SELECT * FROM (SELECT id, path, MAX(kept_at_ms) AS kept_at_ms FROM versions
      WHERE path >= '' AND path < 'z' AND state = 'kept' GROUP BY path) AS newest
      WHERE kept_at_ms >= 0 AND NOT EXISTS (SELECT 1 FROM items WHERE items.path = newest.path)
      ORDER BY kept_at_ms DESC, id DESC`,
  };
  for (const [name, sql] of Object.entries(plans)) {
    const steps = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
    console.log(`plan of ${name}: ${steps.map((step) => step.detail).join('; ')}`);
  }
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'mch-versions-listing-bench-'));
  const db = openIndexDb(join(dir, 'index.db'));
  try {
    const store = new IndexStore(db);
    const started = process.hrtime.bigint();
    fill(store);
    const megabytes = statSync(join(dir, 'index.db')).size / 2 ** 20;
    console.log(
      `index filled in ${secondsSince(started).toFixed(1)} s: ${store.count()} items, ${store.versions.usage().count} versions over ${PATHS} paths (${megabytes.toFixed(1)} MB before the WAL's checkpoint)`,
    );
    const random = sequence(7);
    const lookups = { byPath: [] as number[], withVersions: [] as number[], without: [] as number[] };
    let found = 0;
    for (let at = 0; at < LOOKUPS; at += 1) {
      const p = Math.floor(random() * PATHS);
      lookups.byPath.push(timed(() => store.byPath(filePath(Math.floor(random() * (ITEMS - FOLDERS))))));
      lookups.withVersions.push(timed(() => (found += store.versions.ofPath(versionPath(p)).length)));
      lookups.without.push(timed(() => store.versions.ofPath(filePath(p * 3 + 1))));
    }
    printTable(
      `A file's versions among ${VERSIONS} kept versions (${PATHS} paths) and ${ITEMS} items, ${LOOKUPS} calls each, in turn`,
      { name: 'items lookup by path (`byPath`)', ms: lookups.byPath, detail: 'one row', goal: false },
      [
        {
          name: '`versions.ofPath(path)`, a path with versions',
          ms: lookups.withVersions,
          detail: `${(found / LOOKUPS).toFixed(1)} rows a call, newest first`,
          goal: true,
        },
        {
          name: '`versions.ofPath(path)`, a path without',
          ms: lookups.without,
          detail: 'no row',
          goal: true,
        },
      ],
      OF_PATH_GOAL_MS,
    );
    const count = db.prepare('SELECT COUNT(*) FROM versions').pluck();
    const cases: Array<{ name: string; work: () => number; ms: number[]; rows: number }> = [
      { name: '`SELECT COUNT(*) FROM versions`', work: () => count.get() as number, ms: [], rows: 1 },
      {
        name: 'every kept row read (`versions.kept()`)',
        work: () => [...store.versions.kept()].length,
        ms: [],
        rows: 0,
      },
      {
        name: "`versions.deleted('', 0)`",
        work: () => store.versions.deleted('', 0).length,
        ms: [],
        rows: 0,
      },
      {
        name: "`versions.deleted('', now − 3 days)`",
        work: () => store.versions.deleted('', NOW_MS - 3 * DAY_MS).length,
        ms: [],
        rows: 0,
      },
      {
        name: "`versions.deleted('folder-7', 0)`",
        work: () => store.versions.deleted('folder-7', 0).length,
        ms: [],
        rows: 0,
      },
    ];
    for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
      for (const one of cases) {
        const ms = timed(() => (one.rows = one.work()));
        if (round >= WARMUP) one.ms.push(ms);
      }
    }
    const [baseline, ...rest] = cases.map((one): Timings => ({
      name: one.name,
      ms: one.ms,
      detail: `${one.rows} rows`,
      goal: one.name.includes('deleted'),
    })) as [Timings, ...Timings[]];
    baseline.detail = `${count.get() as number} versions counted`;
    printTable(
      `Deleted files among ${VERSIONS} kept versions and ${ITEMS} items, ${ROUNDS} rounds after ${WARMUP}, in turn`,
      baseline,
      rest,
      DELETED_GOAL_MS,
    );
    printPlans(db);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
