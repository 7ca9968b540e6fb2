// Text search latency on a device with 100,000 files, over HTTP, beside full scans of the same rows.
//
// The files are written straight into a fresh data folder in one transaction (as a migrated device
// would have them), then `mch-device` starts on it and indexes them in the background. Each query is
// timed over HTTP (sequential requests, default page of 20) against two scans in this process: the
// production matcher over every row (what search would cost without its index) and the test oracle.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIR_MIME_TYPE } from '../common/wire/device-api.ts';
import { openDatabase, type Db } from '../device/db/database.ts';
import { guessMimeType } from '../device/files/mime.ts';
import type { UserPrincipal } from '../device/http/auth.ts';
import { Permissions } from '../device/permissions.ts';
import { rankOf } from '../device/search/matching.ts';
import { searchTerms } from '../device/search/query.ts';
import type { TextSearchResponse } from '../device/search/types.ts';
import { ItemStore, type ItemRow } from '../device/store/items.ts';
import { newId } from '../device/store/tags.ts';
import { UserStore } from '../device/store/users.ts';
import { oracleSearch } from '../test/unit/device/search/oracle.ts';
import { startBenchDevice } from './lib/device.ts';

const FILES = Number(process.env['BENCH_SEARCH_FILES'] ?? 100_000);
const FOLDERS = 500;
const REQUESTS = Number(process.env['BENCH_SEARCH_REQUESTS'] ?? 100);

/** label, q, and whether the (slow) oracle runs too; BENCH_SEARCH_ORACLE=all runs it for every query. */
const QUERIES: [string, string, boolean][] = [
  ['1 term, common', 'photo', true],
  ['1 term, rare', 'zeppelin', false],
  ['1 term, every image', 'jpg', false],
  ['2 terms', 'summer beach', true],
  ['2 terms, name + camera', 'canon 2019', false],
  ['3 terms', 'holiday photo pdf', true],
  ['3 terms, rare', 'zeppelin draft docx', false],
  ['2 letters, common', 'ca', true],
  ['2 letters, rare', 'qx', false],
  ['accented', 'café', false],
  ['no match', 'nonexistent', false],
];
const ORACLE_ALL = process.env['BENCH_SEARCH_ORACLE'] === 'all';

// Word frequencies fall off like Zipf's law: the first words are in many names, the last in few.
const WORDS = `photo report notes scan draft final summer beach holiday invoice budget project meeting family
  party trip garden house music video letter contract receipt backup archive wedding birthday mountain city
  river forest winter spring autumn school work team plan idea sketch design model chart table list agenda
  minutes review proposal offer order payment tax bank insurance health travel ticket map guide manual
  recipe menu kitchen dinner lunch breakfast paris london berlin rome tokyo lisbon oslo zeppelin aurora`
  .split(/\s+/)
  .filter(Boolean);
const EXTENSIONS = ['.pdf', '.docx', '.txt', '.xlsx', '.png', '.mp4', '.heic', '.mov', '.md', ''];
const ACCENTED = ['café', 'Straße', 'Ωmega', '日本', 'Åsa', 'ñandú', '😀'];
const CAMERAS: [string, string][] = [
  ['Canon', 'Canon EOS 5D Mark IV'],
  ['NIKON CORPORATION', 'NIKON D750'],
  ['Apple', 'iPhone 12 Pro'],
  ['SONY', 'ILCE-7M3'],
];

let seed = 7;
const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const zipf = <T>(values: readonly T[]): T => values[Math.floor(values.length ** next()) - 1] as T;
const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/** Writes FOLDERS folders and FILES files for user bench, the way a device that has them stores them. */
function createData(dataDir: string): void {
  const db = openDatabase(join(dataDir, 'device.db'));
  const now = Date.now();
  const user = new UserStore(db, new ItemStore(db)).ensure('bench', 'bench', now).user;
  const insert = db.prepare<[string, string, string, string, number, string, number, number, string | null]>(
    `INSERT INTO items (id, owner_id, parent_id, name, is_dir, mime_type, size, m_time, c_time, hidden, etag,
       list_tag, blob, image, state, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, 'none', '"bench"', '', NULL, ?, 'live', 0)`,
  );
  db.transaction(() => {
    const folders: string[] = [];
    for (let index = 0; index < FOLDERS; index += 1) {
      const id = newId();
      const name = `${2015 + (index % 10)}-${pad((index % 12) + 1)} ${pick(WORDS)} ${index}`;
      insert.run(id, user.id, user.root_id, name, 1, DIR_MIME_TYPE, now, now, null);
      folders.push(id);
    }
    for (let index = 0; index < FILES; index += 1) {
      const time = Date.UTC(2015, 0, 1) + Math.floor(next() * 10 * 365 * 86_400_000);
      const date = new Date(time).toISOString();
      let name: string;
      let image: string | null = null;
      if (next() < 0.4) {
        const stamp = `${date.slice(0, 10).replaceAll('-', '')}_${date.slice(11, 19).replaceAll(':', '')}`;
        name = `IMG_${stamp}_${index}.jpg`;
        const [make, model] = pick(CAMERAS);
        const exifDate = `${date.slice(0, 10).replaceAll('-', ':')} ${date.slice(11, 19)}`;
        image = JSON.stringify({
          date: exifDate,
          width: 4032,
          height: 3024,
          cameraMake: make,
          cameraModel: model,
        });
      } else {
        const accent = next() < 0.03 ? ` ${pick(ACCENTED)}` : '';
        name = `${zipf(WORDS)} ${zipf(WORDS)}${accent} ${index}${pick(EXTENSIONS)}`;
      }
      insert.run(newId(), user.id, pick(folders), name, 0, guessMimeType(name), time, time, image);
    }
  })();
  db.close();
}

/** Milliseconds at the given quantile of sorted samples. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function timeRequests(
  url: string,
  token: string,
  count: number,
): Promise<{ times: number[]; body: TextSearchResponse }> {
  const times: number[] = [];
  let body: TextSearchResponse | undefined;
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    body = (await response.json()) as TextSearchResponse;
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  }
  if (!body) throw new Error('no request made');
  return { times: times.sort((a, b) => a - b), body };
}

/** The production matcher over every live row, ordered like the search: what it would cost without an index. */
function scanWithMatcher(db: Db, terms: string[]): string[] {
  const rows = db
    .prepare<[], ItemRow & { doc: number }>(
      `SELECT i.*, d.doc AS doc FROM items i JOIN search_docs d ON d.item_id = i.id
       WHERE i.state = 'live' AND i.parent_id IS NOT NULL`,
    )
    .all();
  const found: { id: string; rank: number; doc: number }[] = [];
  for (const row of rows) {
    const rank = rankOf(row, terms);
    if (rank !== undefined) found.push({ id: row.id, rank, doc: row.doc });
  }
  found.sort((a, b) => a.rank - b.rank || b.doc - a.doc);
  return found.map((match) => match.id);
}

/**
 * Pages through every match of a query with limit=1000. The last page is the dearest: it is where
 * rank 0 runs out and the rank-1 stream walks past every rank-0 item again.
 */
async function reportPaging(url: string, token: string): Promise<void> {
  const times: number[] = [];
  let pageToken = '';
  do {
    const pageUrl = `${url}&limit=1000${pageToken ? `&pageToken=${pageToken}` : ''}`;
    const {
      times: [time = 0],
      body,
    } = await timeRequests(pageUrl, token, 1);
    times.push(time);
    pageToken = body.pageToken;
  } while (pageToken !== '');
  const last = times.at(-1) ?? 0;
  const sorted = times.slice(0, -1).sort((a, b) => a - b);
  console.log(
    `\nPaging through ${decodeURIComponent(url.split('q=')[1] ?? '')} with limit=1000: ${times.length} pages, ` +
      `median of the others ${sorted.length > 0 ? `${quantile(sorted, 0.5).toFixed(0)} ms` : 'n/a'}, ` +
      `last page ${last.toFixed(0)} ms`,
  );
}

/** Waits until the device's background pass has merged the index into one segment, as it settles. */
async function waitForMergedIndex(db: Db): Promise<void> {
  const segments = db.prepare<[], { n: number }>('SELECT count(DISTINCT segid) AS n FROM search_grams_idx');
  for (let polls = 0; polls < 1200 && (segments.get()?.n ?? 0) > 1; polls += 1) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function timed<T>(work: () => T): { ms: number; value: T } {
  const started = performance.now();
  const value = work();
  return { ms: performance.now() - started, value };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mch-bench-search-'));
  try {
    const created = timed(() => createData(dataDir));
    console.log(`wrote ${FILES} files in ${FOLDERS} folders in ${(created.ms / 1000).toFixed(1)} s`);
    const started = performance.now();
    const device = await startBenchDevice(dataDir, 120_000);
    try {
      const { base, token } = device;
      const searchUrl = (q: string): string => `${base}/sdk/v2/filesSearch/text?q=${encodeURIComponent(q)}`;
      // The first search waits for the background indexing of everything the migration queued.
      await timeRequests(searchUrl('photo'), token, 1);
      const seconds = (): string => ((performance.now() - started) / 1000).toFixed(1);
      console.log(`device start to first answer (indexes ${FILES + FOLDERS} items): ${seconds()} s`);
      const db = openDatabase(join(dataDir, 'device.db'));
      await waitForMergedIndex(db);
      console.log(`device start to index merged into one segment (background): ${seconds()} s`);
      const sizes = db
        .prepare<[], { name: string; bytes: number }>(
          `SELECT CASE WHEN name LIKE 'search%' THEN 'search index' ELSE 'everything else' END AS name,
             sum(pgsize) AS bytes FROM dbstat GROUP BY 1 ORDER BY 1 DESC`,
        )
        .all();
      console.log(sizes.map((size) => `${size.name}: ${(size.bytes / 1e6).toFixed(1)} MB`).join(', '));
      const permissions = new Permissions(db);
      const user = new UserStore(db, new ItemStore(db)).byName('bench');
      if (!user) throw new Error('no bench user');
      const principal: UserPrincipal = {
        kind: 'user',
        userId: user.id,
        rootId: user.root_id,
        scopes: new Set(),
      };
      console.log(`\nText search, ${FILES} files, ${REQUESTS} sequential requests per query over HTTP (ms)`);
      console.log(
        '| query | q | matches | search p50 | search p95 | scan p50 | oracle | scan / search p50 |',
      );
      console.log('|---|---|---:|---:|---:|---:|---:|---:|');
      // Warm the device's code paths (JIT, statement caches) with every query before timing any.
      for (const [, q] of QUERIES) await timeRequests(searchUrl(q), token, 10);
      for (const [label, q, withOracle] of QUERIES) {
        const url = searchUrl(q);
        const { times, body } = await timeRequests(url, token, REQUESTS);
        const terms = searchTerms(q);
        const scans = Array.from({ length: 5 }, () => timed(() => scanWithMatcher(db, terms)));
        const scanTimes = scans.map((scan) => scan.ms).sort((a, b) => a - b);
        const scanned = scans[0]?.value ?? [];
        const oracle =
          withOracle || ORACLE_ALL
            ? timed(() => oracleSearch({ db, permissions }, principal, terms))
            : undefined;
        // Same run, same answer: the first page is the start of the scans' full answers.
        const page = JSON.stringify(body.matches.map((match) => match.file.id));
        const expectedPages = [scanned, ...(oracle ? [oracle.value.map((match) => match.id)] : [])];
        if (expectedPages.some((ids) => JSON.stringify(ids.slice(0, 20)) !== page)) {
          throw new Error(`${q}: the search and the scans disagree`);
        }
        const p50 = quantile(times, 0.5);
        const scanP50 = quantile(scanTimes, 0.5);
        console.log(
          `| ${label} | \`${q}\` | ${scanned.length} | ${p50.toFixed(1)} | ${quantile(times, 0.95).toFixed(1)} | ` +
            `${scanP50.toFixed(0)} | ${oracle ? oracle.ms.toFixed(0) : ''} | ${(scanP50 / p50).toFixed(0)}× |`,
        );
      }
      await reportPaging(searchUrl('jpg'), token);
      db.close();
    } finally {
      await device.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
