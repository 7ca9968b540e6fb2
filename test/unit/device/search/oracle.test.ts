// The indexed text search against a plain full scan (oracle.ts) on generated Unicode names: the index
// must never drop a true match, and order, paging and fragments must be the scan's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIR_MIME_TYPE } from '../../../../common/wire/device-api.ts';
import type { UserPrincipal } from '../../../../device/http/auth.ts';
import { searchTerms, splitTerms } from '../../../../device/search/query.ts';
import type { TextCursor } from '../../../../device/search/text-search.ts';
import type { ItemRow } from '../../../../device/store/items.ts';
import { createSearchFixture, type SearchFixture } from './fixture.ts';
import { oracleFold, oracleSearch, type OracleMatch, type OracleMemo } from './oracle.ts';

/** The edge cases of device-api.md §3 and fold.ts, and characters that are ordinary, for contrast. */
const PIECES = [
  ...'abcxyzABCXYZ0129 ._-',
  ...'.*+?^$()[]{}|\\',
  'é',
  'e\u0301',
  'É',
  'E\u0301',
  'è',
  'ê\u0323',
  'ệ', // NFC and NFD accents, several marks
  'ß',
  'ẞ',
  'ss',
  'SS', // sharp s
  'İ',
  'i',
  'I',
  'ı',
  'i\u0307',
  'I\u0307', // dotted and dotless i
  'Σ',
  'σ',
  'ς',
  'ΟΔΟΣ', // sigma, final sigma
  '😀',
  '👍',
  '👍🏽',
  '👨‍👩‍👧',
  '🇫🇷',
  '🇩🇪',
  '❤️', // emoji: surrogate pairs, modifiers, ZWJ, flags, VS16
  '한',
  '\u1112\u1161\u11ab',
  '\u1112', // Hangul precomposed and as jamo
  '\u212a',
  'K',
  'k',
  '\u212b',
  'Å',
  'ﬁ',
  'ǅ',
  'ǆ',
  'Ǆ',
  'ᾳ',
  'ᾼ', // compatibility and title case
  '日本',
  '語',
  'Ёлка',
  'ё',
  'е\u0308', // CJK, Cyrillic with and without NFD
  '\u0600',
  '\r\n',
  '\t',
  'x\u200dy',
  '\u16d67', // Prepend, CR LF, tab, ZWJ, Kirat Rai
];
const MIME_TYPES = ['image/jpeg', 'image/PNG', 'text/plain', 'video/mp4', 'application/octet-stream'];

/** mulberry32: a small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 20260101;
const memo: OracleMemo = new Map();
const next = random(SEED);
const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
const between = (low: number, high: number): number => low + Math.floor(next() * (high - low + 1));

function randomText(minPieces: number, maxPieces: number): string {
  return Array.from({ length: between(minPieces, maxPieces) }, () => pick(PIECES)).join('');
}

function isValidName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && Buffer.byteLength(name) <= 255;
}

let fixture: SearchFixture;
let folders: ItemRow[];
const created: ItemRow[] = [];

function addRandomItem(): void {
  const parent = pick(folders);
  const name = randomText(1, 7);
  if (!isValidName(name)) return;
  const image =
    next() < 0.3
      ? JSON.stringify({
          cameraMake: randomText(1, 3),
          cameraModel: randomText(1, 4),
          date: '2024:06:15 14:30:05',
        })
      : null;
  try {
    created.push(fixture.add(parent.id, name, { mime_type: pick(MIME_TYPES), image }));
  } catch {
    // A name taken in that folder: the generator simply tries another item.
  }
}

/** A query a user might type: pieces of existing names in another case or normal form, phrases, odd quoting. */
function randomQuery(): string {
  const term = (): string => {
    const roll = next();
    if (roll < 0.5) {
      const source = Array.from(pick(created).name);
      const start = between(0, source.length - 1);
      let text = source.slice(start, start + between(1, 5)).join('');
      const variant = next();
      if (variant < 0.2) text = text.toUpperCase();
      else if (variant < 0.4) text = text.toLowerCase();
      else if (variant < 0.55) text = text.normalize('NFD');
      else if (variant < 0.7) text = text.normalize('NFC');
      return text;
    }
    return randomText(1, 2);
  };
  const roll = next();
  if (roll < 0.55) return term();
  if (roll < 0.8) return `${term()} ${term()}`;
  if (roll < 0.9) return `"${term()} ${term()}" ${term()}`;
  return `${term()} "${term()}`;
}

type Found = Pick<OracleMatch, 'id' | 'fragments'>;

/** Every page of the indexed search, followed to the end with a random page size. */
async function allPages(principal: UserPrincipal, terms: string[]): Promise<Found[]> {
  const matches: Found[] = [];
  let after: TextCursor | undefined;
  const limit = pick([1, 2, 5, 13, 40]);
  for (let pages = 0; pages < 10_000; pages += 1) {
    const page = await fixture.textSearch.search(principal, terms, limit, after);
    expect(page.matches.length).toBeLessThanOrEqual(limit);
    for (const { row, fragments } of page.matches) matches.push({ id: row.id, fragments });
    if (!page.next) return matches;
    expect(page.matches).toHaveLength(limit);
    after = page.next;
  }
  throw new Error('the search never ends');
}

/** Compares one query; returns how many matches it has, so a test can tell it did not only compare nothing. */
async function expectSameAsOracle(principal: UserPrincipal, q: string): Promise<number> {
  const terms = searchTerms(q);
  // The production folding (with its fast paths) and the oracle's agree on the terms themselves.
  expect(terms, `terms of ${JSON.stringify(q)}`).toEqual([...new Set(splitTerms(q).map(oracleFold))]);
  if (terms.length === 0) return 0;
  const expected = oracleSearch(fixture, principal, terms, memo).map(({ id, fragments }) => ({
    id,
    fragments,
  }));
  const actual = await allPages(principal, terms);
  expect(actual, `results of ${JSON.stringify(q)} (seed ${SEED})`).toEqual(expected);
  return expected.length;
}

beforeAll(() => {
  fixture = createSearchFixture();
  const root = fixture.items.get(fixture.alice.rootId);
  if (!root) throw new Error('no root');
  folders = [root];
  for (let index = 0; index < 15; index += 1) {
    folders.push(fixture.add(pick(folders).id, `${randomText(1, 3)} ${index}`, { mime_type: DIR_MIME_TYPE }));
  }
  created.push(...folders.slice(1));
  for (let index = 0; index < 500; index += 1) addRandomItem();
});

afterAll(() => fixture?.close());

describe('indexed text search against a full scan', () => {
  it('finds what the scan finds for 300 generated queries, in order, with the same fragments', async () => {
    let answered = 0;
    for (let index = 0; index < 300; index += 1) {
      if ((await expectSameAsOracle(fixture.alice, randomQuery())) > 0) answered += 1;
    }
    expect(answered).toBeGreaterThan(100);
  }, 120_000);

  it('agrees for a user who reads only a folder shared with them', async () => {
    const shared = folders[3];
    if (!shared) throw new Error('no folder');
    fixture.grantRead(fixture.bob, shared.id);
    for (let index = 0; index < 150; index += 1) await expectSameAsOracle(fixture.bob, randomQuery());
  }, 120_000);

  it('agrees after renames, moves, image changes, deletes and new items', async () => {
    const now = Date.now();
    for (let index = 0; index < 80; index += 1) {
      const row = fixture.items.getLive(pick(created).id);
      if (!row || row.is_dir) continue;
      const roll = next();
      try {
        if (roll < 0.3) fixture.items.update(row, { name: randomText(1, 6) }, now);
        else if (roll < 0.5) fixture.items.update(row, { parent_id: pick(folders).id }, now);
        else if (roll < 0.7)
          fixture.items.update(row, { image: JSON.stringify({ cameraModel: randomText(1, 3) }) }, now);
        else if (roll < 0.85) fixture.items.markDeleting(row, now);
        else addRandomItem();
      } catch {
        // A rename or move onto a taken name: skipped, as the device would answer 409.
      }
    }
    for (let index = 0; index < 150; index += 1) await expectSameAsOracle(fixture.alice, randomQuery());
  }, 120_000);

  it('notices when the index loses an item (so the comparisons above can fail)', async () => {
    const victim = created.find((row) => fixture.items.getLive(row.id) && /[a-z]/i.test(row.name));
    if (!victim) throw new Error('no live item');
    await fixture.indexer.ready();
    const doc = fixture.db
      .prepare<[string], { doc: number }>('SELECT doc FROM search_docs WHERE item_id = ?')
      .get(victim.id);
    fixture.db.prepare('DELETE FROM search_grams WHERE rowid = ?').run(doc?.doc);
    const letter = (victim.name.match(/[a-z]/i) ?? ['a'])[0];
    await expect(expectSameAsOracle(fixture.alice, letter)).rejects.toThrow();
    // Queue the item again: the indexer repairs the entry, and the search agrees again.
    fixture.db.prepare('INSERT INTO search_queue (item_id) VALUES (?)').run(victim.id);
    await expectSameAsOracle(fixture.alice, letter);
  });
});
