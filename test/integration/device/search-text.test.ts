// Text search over HTTP, GET /sdk/v2/filesSearch/text (device-api.md §3 "Listing and search",
// interface.md "Search match"): matches, fragments, rank, paging, permissions and the 400s.
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { SearchMatch, TextSearchResponse } from '../../../device/search/types.ts';
import { newId } from '../../../device/store/tags.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, createFolder, createItem, type Created } from '../../helpers/multipart.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);

const PAGED_COUNT = 45;

let holiday: Created;
let camera: Created;
let sharedFolder: Created;
let paged: Set<string>;

/**
 * Sets the image object of an item directly in the database: the image-metadata work fills it from
 * real content and lands separately, and the search only reads the stored column.
 */
function setImage(device: TestDevice, id: string, image: Record<string, unknown>): void {
  device.running.context.db.prepare('UPDATE items SET image = ? WHERE id = ?').run(JSON.stringify(image), id);
}

test.beforeAll(async ({ device }) => {
  holiday = await createFolder(device, 'Holiday Photos');
  await createFile(device, 'beach.jpg', 'x', holiday.id);
  await createFile(device, 'Beach Party.JPG', 'x', holiday.id);
  await createFile(device, 'canon manual.pdf', 'x');
  camera = await createFile(device, 'IMG_0001.jpg', 'x', holiday.id);
  setImage(device, camera.id, {
    width: 4000,
    height: 3000,
    cameraMake: 'Canon',
    cameraModel: 'EOS 5D',
    date: '2024:06:15 14:30:05',
  });
  await createFile(device, 'Straße.txt', 'x');
  await createFile(device, 'cafe\u0301 menu.txt', 'x');
  await createFile(device, 'İstanbul.png', 'x');
  await createFile(device, '😀 smile.txt', 'x');
  await createFile(device, 'report (final) [v2].pdf', 'x');
  const pagedFolder = await createFolder(device, 'paged');
  const created = [];
  for (let start = 0; start < PAGED_COUNT; start += 15) {
    const batch = Array.from({ length: Math.min(15, PAGED_COUNT - start) }, (_, i) =>
      createFile(device, `ledger-${String(start + i).padStart(2, '0')}.csv`, 'x', pagedFolder.id),
    );
    created.push(...(await Promise.all(batch)));
  }
  paged = new Set(created.map((item) => item.id));
  sharedFolder = await createFolder(device, 'for bob');
  await createFile(device, 'shared sunset.jpg', 'x', sharedFolder.id);
  await createItem(device, { name: 'bob beach.jpg' }, 'x', { user: 'bob' });
}, 60_000);

function search(device: TestDevice, query: string, user = 'alice'): Promise<Response> {
  return device.fetchAs(user, `/sdk/v2/filesSearch/text?${query}`);
}

async function searchBody(device: TestDevice, query: string, user = 'alice'): Promise<TextSearchResponse> {
  const response = await search(device, query, user);
  expect(response.status).toBe(200);
  return (await response.json()) as TextSearchResponse;
}

const q = (text: string): string => `q=${encodeURIComponent(text)}`;
const names = (matches: SearchMatch[]): (string | undefined)[] => matches.map((match) => match.file.name);

describe('GET /sdk/v2/filesSearch/text', () => {
  it('answers {pageToken, matches} with File objects and fragments', async ({ device }) => {
    const body = await searchBody(device, q('PARTY'));
    const file: unknown = expect.objectContaining({
      name: 'Beach Party.JPG',
      parentID: holiday.id,
      eTag: ANY_STRING,
    });
    expect(body).toEqual({
      pageToken: '',
      matches: [
        {
          file,
          fragments: [{ text: 'Beach Party.JPG', locations: [{ index: 6, length: 5 }] }],
        },
      ],
    });
  });

  it('requires every term, each in some searched string', async ({ device }) => {
    expect(names((await searchBody(device, q('beach party'))).matches)).toEqual(['Beach Party.JPG']);
    expect(names((await searchBody(device, q('beach nowhere'))).matches)).toEqual([]);
  });

  it('finds the camera make, model and date of an image, with fragments for each', async ({ device }) => {
    const body = await searchBody(device, q('eos 2024:06'));
    expect(body.matches).toHaveLength(1);
    expect(body.matches[0]?.fragments).toEqual([
      { text: 'EOS 5D', locations: [{ index: 0, length: 3 }] },
      { text: '2024:06:15 14:30:05', locations: [{ index: 0, length: 7 }] },
    ]);
  });

  it('ranks items whose name holds every term before items that match elsewhere', async ({ device }) => {
    expect(names((await searchBody(device, q('canon'))).matches)).toEqual([
      'canon manual.pdf',
      'IMG_0001.jpg',
    ]);
  });

  it('finds the mimeType and the extension', async ({ device }) => {
    const body = await searchBody(device, q('image/png'));
    expect(names(body.matches)).toEqual(['İstanbul.png']);
    const byExtension = await searchBody(device, q('.pdf'));
    expect(byExtension.matches.find((match) => match.file.name === 'canon manual.pdf')?.fragments).toEqual([
      { text: 'canon manual.pdf', locations: [{ index: 12, length: 4 }] },
      { text: '.pdf', locations: [{ index: 0, length: 4 }] },
    ]);
  });

  it('finds folders, but never the root', async ({ device }) => {
    const body = await searchBody(device, q('x.wd.dir'));
    expect(names(body.matches).sort()).toEqual(['Holiday Photos', 'for bob', 'paged']);
  });

  it('counts locations in UTF-16 code units of the original text', async ({ device }) => {
    const emoji = await searchBody(device, q('smile'));
    expect(emoji.matches[0]?.fragments[0]?.locations).toEqual([{ index: 3, length: 5 }]);
    const dotted = await searchBody(device, q('stanbul'));
    expect(dotted.matches[0]?.fragments[0]?.locations).toEqual([{ index: 1, length: 7 }]);
  });

  it('matches NFC and NFD spellings and ẞ with ß, case-insensitively', async ({ device }) => {
    const nfd = await searchBody(device, q('CAFÉ'));
    expect(nfd.matches[0]?.fragments[0]).toEqual({
      text: 'cafe\u0301 menu.txt',
      locations: [{ index: 0, length: 5 }],
    });
    expect(names((await searchBody(device, q('STRAẞE'))).matches)).toEqual(['Straße.txt']);
  });

  it('takes regex metacharacters and quoted phrases literally', async ({ device }) => {
    const body = await searchBody(device, q('"(final) [v2]"'));
    expect(body.matches[0]?.fragments[0]?.locations).toEqual([{ index: 7, length: 12 }]);
  });

  it('returns only the requested File fields', async ({ device }) => {
    const body = await searchBody(device, `${q('beach')}&fields=id,name`);
    for (const match of body.matches) expect(Object.keys(match.file).sort()).toEqual(['id', 'name']);
  });

  it('never shows bob what alice owns', async ({ device }) => {
    expect(names((await searchBody(device, q('beach'), 'bob')).matches)).toEqual(['bob beach.jpg']);
    expect(names((await searchBody(device, q('ledger'), 'bob')).matches)).toEqual([]);
  });

  it('shows bob a folder alice shared with him, and what is in it', async ({ device }) => {
    expect(names((await searchBody(device, q('sunset'), 'bob')).matches)).toEqual([]);
    // A grant as the sharing service stores it; the search asks Permissions, whatever set it.
    const bob = device.running.context.users.byName('bob');
    device.running.context.db
      .prepare(
        `INSERT INTO file_perms (id, file_id, entity_id, entity_type, value, created_on)
         VALUES (?, ?, ?, 'user', 'ReadFile', 0)`,
      )
      .run(newId(), sharedFolder.id, bob?.id ?? '');
    expect(names((await searchBody(device, q('sunset'), 'bob')).matches)).toEqual(['shared sunset.jpg']);
    expect(names((await searchBody(device, q('for bob'), 'bob')).matches)).toEqual(['for bob']);
    expect(names((await searchBody(device, q('beach'), 'bob')).matches)).toEqual(['bob beach.jpg']);
  });

  it('pages through 45 matches with limit=7, without duplicates or gaps', async ({ device }) => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let pageToken = '';
    do {
      const body = await searchBody(
        device,
        `${q('ledger')}&limit=7${pageToken ? `&pageToken=${pageToken}` : ''}`,
      );
      sizes.push(body.matches.length);
      seen.push(...body.matches.map((match) => match.file.id ?? ''));
      pageToken = body.pageToken;
    } while (pageToken !== '' && sizes.length < 20);
    expect(sizes).toEqual([7, 7, 7, 7, 7, 7, 3]);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(paged);
  });

  it('gives 20 matches by default and at most the limit', async ({ device }) => {
    const body = await searchBody(device, q('ledger'));
    expect(body.matches).toHaveLength(20);
    expect(body.pageToken).not.toBe('');
    expect((await searchBody(device, `${q('ledger')}&limit=1000`)).pageToken).toBe('');
  });

  it('sees a rename and a delete at once', async ({ device }) => {
    const file = await createFile(device, 'draft budget.txt', 'x');
    expect(names((await searchBody(device, q('budget'))).matches)).toEqual(['draft budget.txt']);
    const patched = await device.fetchAs('alice', `/sdk/v2/files/${file.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'final plan.txt' }),
    });
    expect(patched.status).toBe(204);
    expect(names((await searchBody(device, q('budget'))).matches)).toEqual([]);
    expect(names((await searchBody(device, q('final plan'))).matches)).toEqual(['final plan.txt']);
    await device.fetchAs('alice', `/sdk/v2/files/${file.id}`, { method: 'DELETE' });
    expect(names((await searchBody(device, q('final plan'))).matches)).toEqual([]);
  });

  it('indexes a new file in the background after the write, before any search asks', async ({ device }) => {
    await createFile(device, 'background.txt', 'x');
    const queued = device.running.context.db.prepare<[], { n: number }>(
      'SELECT count(*) AS n FROM search_queue',
    );
    for (let turns = 0; turns < 50 && (queued.get()?.n ?? 0) > 0; turns += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(queued.get()?.n).toBe(0);
  });

  it('answers under the relay path too', async ({ device }) => {
    const response = await device.fetchAs(
      'alice',
      `/proxy/${device.running.context.device.id}/sdk/v2/filesSearch/text?${q('party')}`,
    );
    expect(response.status).toBe(200);
  });

  it('answers 401 without a token', async ({ device }) => {
    expect((await fetch(`${device.sdk}/v2/filesSearch/text?${q('beach')}`)).status).toBe(401);
  });

  it.for([
    ['no q', 'limit=5'],
    ['an empty q', 'q='],
    ['a blank q', q(' \t ')],
    ['a q of quotes only', q('""')],
    ['a repeated q', 'q=a&q=b'],
    ['a q over 1000 characters', q('a'.repeat(1001))],
    ['more than 32 terms', q(Array.from({ length: 33 }, (_, i) => `t${i}`).join(' '))],
    ['a garbage pageToken', `${q('ledger')}&pageToken=garbage!!`],
    ['limit=0', `${q('ledger')}&limit=0`],
    ['limit=1001', `${q('ledger')}&limit=1001`],
    ['limit=abc', `${q('ledger')}&limit=abc`],
    ['an unknown field', `${q('ledger')}&fields=id,colour`],
  ] as const)('answers 400 for %s', async ([_label, query], { device }) => {
    const response = await search(device, query);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ label: ANY_STRING, message: ANY_STRING });
  });

  it('answers 400 for the pageToken of another query', async ({ device }) => {
    const first = await searchBody(device, `${q('ledger')}&limit=2`);
    const response = await search(device, `${q('beach')}&pageToken=${first.pageToken}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ label: 'INVALID_PAGE_TOKEN' });
  });
});
