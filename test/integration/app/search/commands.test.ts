// `mch-sync search` and `mch-sync photos` as a user runs them, against the real device and a folder synced by `run --once`.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import { runCli } from '../../../../app/cli/main.ts';
import type { PhotosJson } from '../../../../app/cli/search-commands/photos-output.ts';
import type { SearchJson } from '../../../../app/cli/search-commands/search-output.ts';
import { jpegWithExif, minimalPng } from '../../../helpers/images.ts';
import { runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { createFile, createFolder } from '../../../helpers/multipart.ts';
import { signedInProfile, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { startTestDevice } from '../../../helpers/device.ts';

/** The synced folder, `/Docs` on the device. */
let docs: string;

const BEACH = jpegWithExif({
  width: 640,
  height: 480,
  exif: { make: 'Canon', model: 'Canon EOS R5', dateTimeOriginal: '2024:03:10 09:15:00' },
});
const MOUNTAIN = jpegWithExif({
  width: 800,
  height: 600,
  exif: { make: 'NIKON CORPORATION', model: 'NIKON Z 6', dateTimeOriginal: '2024:05:20 18:45:30' },
});
// The last second of the range, by the camera's clock: in, wherever the test runs.
const LAST_DAY = jpegWithExif({
  width: 300,
  height: 200,
  exif: { make: 'NIKON CORPORATION', model: 'NIKON Z 6', dateTimeOriginal: '2024:06:30 23:59:59' },
});
// One second before the range and the first second after it: out.
const NEW_YEAR = jpegWithExif({
  width: 100,
  height: 100,
  exif: { make: 'Canon', model: 'Canon EOS R5', dateTimeOriginal: '2023:12:31 23:59:59' },
});
const JULY = jpegWithExif({
  width: 100,
  height: 100,
  exif: { make: 'Canon', model: 'Canon EOS R5', dateTimeOriginal: '2024:07:01 00:00:00' },
});
// No EXIF: counted by its modification time, mid-range in every time zone.
const SCREENSHOT = minimalPng(320, 200);
const SCREENSHOT_MTIME = new Date('2024-04-01T12:00:00.000Z');

const PHOTO_RANGE = ['photos', '--from', '2024-01-01', '--to', '2024-06-30'];

test.beforeAll(async ({ device, profile }) => {
  docs = join(profile.home, 'Docs');
  mkdirSync(join(docs, 'Photos'), { recursive: true });
  writeFileSync(join(docs, 'Quarterly report.txt'), 'numbers');
  writeFileSync(join(docs, 'Report summary.md'), '# summary');
  writeFileSync(join(docs, 'notes.txt'), 'nothing to find');
  writeFileSync(join(docs, 'Photos', 'beach.jpg'), BEACH);
  writeFileSync(join(docs, 'Photos', 'mountain.jpg'), MOUNTAIN);
  writeFileSync(join(docs, 'Photos', 'last-day.jpg'), LAST_DAY);
  writeFileSync(join(docs, 'Photos', 'new-year.jpg'), NEW_YEAR);
  writeFileSync(join(docs, 'Photos', 'july.jpg'), JULY);
  writeFileSync(join(docs, 'Photos', 'screenshot.png'), SCREENSHOT);
  utimesSync(join(docs, 'Photos', 'screenshot.png'), SCREENSHOT_MTIME, SCREENSHOT_MTIME);
  const synced = await runMchSync(['--profile', profile.profile, 'run', '--folder', docs, '--once'], {
    env: profile.env,
    timeoutMs: 60_000,
  });
  if (synced.code !== 0) throw new Error(`run failed (${synced.code}):\n${synced.stdout}\n${synced.stderr}`);
  // Only on the device: a path there, none here.
  const archive = await createFolder(device, 'Archive');
  await createFile(device, 'Annual report 2019.txt', 'old', archive.id);
  // A name that would clear the terminal if printed as is, and one this client refuses (a backslash).
  await createFile(device, 'evil\u001b[2Jinvoice.txt', 'x', archive.id);
  await createFile(device, 'back\\slash invoice.txt', 'x', archive.id);
});

function mchSync(
  profile: SignedInProfile,
  args: readonly string[],
  profileDir = profile.profile,
): Promise<CliRun> {
  return runMchSync(['--profile', profileDir, ...args], { env: profile.env });
}

async function searchJson(profile: SignedInProfile, args: readonly string[]): Promise<SearchJson> {
  const result = await mchSync(profile, ['search', ...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as SearchJson;
}

function matchNamed(json: SearchJson, name: string): SearchJson['matches'][number] {
  const match = json.matches.find((item) => item.name === name);
  if (match === undefined) throw new Error(`no match named ${name} in ${JSON.stringify(json)}`);
  return match;
}

describe('mch-sync search', () => {
  it('finds files by name, marks the match in brackets off a terminal, and says where each is', async ({
    profile,
  }) => {
    const result = await mchSync(profile, ['search', 'report']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `/Docs/Quarterly [report].txt\n  local: ${join(docs, 'Quarterly report.txt')}\n`,
    );
    // Case-insensitive: "report" finds "Report", and the bracket shows the name's own spelling.
    expect(result.stdout).toContain(
      `/Docs/[Report] summary.md\n  local: ${join(docs, 'Report summary.md')}\n`,
    );
    expect(result.stdout).toContain('/Archive/Annual [report] 2019.txt\n  local: not synced here\n');
    expect(result.stdout).not.toContain('notes.txt');
    expect(result.stdout).toMatch(/^3 matches\.$/m);
  });

  it('prints the documented JSON: fragments with their field, locations in UTF-16 units, both places', async ({
    profile,
  }) => {
    const json = await searchJson(profile, ['report']);
    expect(json.query).toBe('report');
    expect(json.pageToken).toBe('');
    expect(json.rejected).toEqual([]);
    expect(json.matches.map((match) => match.name).sort()).toEqual([
      'Annual report 2019.txt',
      'Quarterly report.txt',
      'Report summary.md',
    ]);
    const quarterly = matchNamed(json, 'Quarterly report.txt');
    expect(Object.keys(quarterly).sort()).toEqual([
      'devicePath',
      'fragments',
      'id',
      'isFolder',
      'localPath',
      'mTime',
      'mimeType',
      'name',
      'size',
    ]);
    expect(quarterly).toMatchObject({
      devicePath: '/Docs/Quarterly report.txt',
      localPath: join(docs, 'Quarterly report.txt'),
      isFolder: false,
      mimeType: 'text/plain',
      size: 'numbers'.length,
    });
    expect(quarterly.mTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(quarterly.fragments).toEqual([
      { field: 'name', text: 'Quarterly report.txt', locations: [{ index: 10, length: 6 }] },
    ]);
    expect(matchNamed(json, 'Annual report 2019.txt')).toMatchObject({
      devicePath: '/Archive/Annual report 2019.txt',
      localPath: null,
    });
  });

  it('finds photos by camera make and model from their EXIF, in any case', async ({ profile }) => {
    const result = await mchSync(profile, ['search', 'canon']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        '/Docs/Photos/beach.jpg',
        `  local: ${join(docs, 'Photos', 'beach.jpg')}`,
        '  camera make: [Canon]',
        '  camera model: [Canon] EOS R5',
        '',
      ].join('\n'),
    );
    expect(result.stdout).not.toContain('mountain.jpg');

    const json = await searchJson(profile, ['canon']);
    expect(json.matches.map((match) => match.name).sort()).toEqual(['beach.jpg', 'july.jpg', 'new-year.jpg']);
    expect(matchNamed(json, 'beach.jpg').fragments).toEqual([
      { field: 'cameraMake', text: 'Canon', locations: [{ index: 0, length: 5 }] },
      { field: 'cameraModel', text: 'Canon EOS R5', locations: [{ index: 0, length: 5 }] },
    ]);
  });

  it('needs every word: "nikon z" marks both words in the model', async ({ profile }) => {
    const json = await searchJson(profile, ['nikon', 'z']);
    expect(json.matches.map((match) => match.name).sort()).toEqual(['last-day.jpg', 'mountain.jpg']);
    expect(matchNamed(json, 'mountain.jpg').fragments).toContainEqual({
      field: 'cameraModel',
      text: 'NIKON Z 6',
      locations: [
        { index: 0, length: 5 },
        { index: 6, length: 1 },
      ],
    });
  });

  it('shows one page with --limit and says there is more; --all follows every page', async ({ profile }) => {
    const one = await mchSync(profile, ['search', 'report', '--limit', '1']);
    expect(one.code).toBe(0);
    expect(one.stdout.match(/^\/.*\[report\]/gim)).toHaveLength(1);
    expect(one.stdout).toMatch(/^1 match shown; the device has more: add --all to list them all\.$/m);

    const all = await searchJson(profile, ['report', '--limit', '1', '--all']);
    expect(all.pageToken).toBe('');
    const ids = all.matches.map((match) => match.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it('goes on from the pageToken of --json with --page-token', async ({ profile }) => {
    const first = await searchJson(profile, ['report', '--limit', '1']);
    expect(first.matches).toHaveLength(1);
    expect(first.pageToken).not.toBe('');
    const second = await searchJson(profile, ['report', '--limit', '1', '--page-token', first.pageToken]);
    expect(second.matches).toHaveLength(1);
    expect(second.matches[0]?.id).not.toBe(first.matches[0]?.id);
  });

  it('escapes control characters of names, and reports the matches it had to leave out', async ({
    profile,
  }) => {
    const result = await mchSync(profile, ['search', 'invoice']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('/Archive/evil\\u001b[2J[invoice].txt\n  local: not synced here\n');
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toMatch(/^1 match\.$/m);
    expect(result.stderr).toContain('mch-sync: warning: 1 match left out: the device sent names');
    expect(result.stderr).toContain('contains "\\".');

    const json = (await mchSync(profile, ['search', 'invoice', '--json'])).stdout;
    const rejected = (JSON.parse(json) as SearchJson).rejected;
    expect(rejected).toEqual([
      {
        id: expect.any(String) as unknown,
        name: 'back\\slash invoice.txt',
        code: 'INVALID_NAME',
        message: expect.stringContaining('contains "\\"') as unknown,
      },
    ]);
  });

  it('marks matches bold and inverse on a terminal, without brackets', async ({ profile }) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['--profile', profile.profile, 'search', 'quarterly'], {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      stdin: Readable.from(['']),
      env: profile.env,
      openBrowser: () => Promise.reject(new Error('no browser')),
      terminal: { isTTY: true } as unknown as NodeJS.WriteStream,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('/Docs/\u001b[1;7mQuarterly\u001b[0m report.txt\n');
  });
});

describe('mch-sync photos', () => {
  const RANGE = PHOTO_RANGE;

  it('lists exactly the photos taken in the range, oldest first, with camera, size and places', async ({
    profile,
  }) => {
    const result = await mchSync(profile, [...RANGE, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as PhotosJson;
    expect(json.from).toBe('2024-01-01T00:00:00.000');
    expect(json.to).toBe('2024-06-30T23:59:59.999');
    expect(json.more).toBe(false);
    expect(json.photos.map((photo) => photo.name)).toEqual([
      'beach.jpg',
      'screenshot.png',
      'mountain.jpg',
      'last-day.jpg',
    ]);
    expect(json.photos[0]).toEqual({
      id: expect.any(String) as unknown,
      name: 'beach.jpg',
      devicePath: '/Docs/Photos/beach.jpg',
      localPath: join(docs, 'Photos', 'beach.jpg'),
      mimeType: 'image/jpeg',
      size: BEACH.length,
      mTime: expect.any(String) as unknown,
      mediaTime: '2024-03-10T09:15:00.000',
      mediaTimeSource: 'camera',
      width: 640,
      height: 480,
      cameraMake: 'Canon',
      cameraModel: 'Canon EOS R5',
    });
    expect(json.photos[1]).toMatchObject({
      mediaTimeSource: 'modified',
      width: 320,
      height: 200,
      cameraMake: null,
      mTime: SCREENSHOT_MTIME.toISOString(),
    });
    expect(json.photos[2]).toMatchObject({ cameraMake: 'NIKON CORPORATION', cameraModel: 'NIKON Z 6' });
  });

  it('prints one block per photo and a summary', async ({ profile }) => {
    const result = await mchSync(profile, RANGE);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        '/Docs/Photos/beach.jpg',
        '  taken: 2024-03-10 09:15:00',
        '  camera: Canon EOS R5',
        `  size: 640×480, ${BEACH.length} B`,
        `  local: ${join(docs, 'Photos', 'beach.jpg')}`,
        '',
      ].join('\n'),
    );
    expect(result.stdout).toContain('  camera: NIKON Z 6\n');
    expect(result.stdout).toMatch(
      /^4 photos from 2024-01-01 00:00:00 to 2024-06-30 23:59:59, oldest first\.$/m,
    );
  });

  it('stops at --limit and says there are more', async ({ profile }) => {
    const json = JSON.parse(
      (await mchSync(profile, [...RANGE, '--limit', '2', '--json'])).stdout,
    ) as PhotosJson;
    expect(json.photos.map((photo) => photo.name)).toEqual(['beach.jpg', 'screenshot.png']);
    expect(json.more).toBe(true);
    const text = await mchSync(profile, [...RANGE, '--limit', '2']);
    expect(text.stdout).toContain('There are more: raise --limit (now 2) or narrow the dates.');
  });

  it('takes a single day for both bounds', async ({ profile }) => {
    const json = JSON.parse(
      (await mchSync(profile, ['photos', '--from', '2024-06-30', '--to', '2024-06-30', '--json'])).stdout,
    ) as PhotosJson;
    expect(json.photos.map((photo) => photo.name)).toEqual(['last-day.jpg']);
  });
});

describe('usage errors and failures', () => {
  it.for([
    [['search'], 'Give a text to search for.'],
    [['search', '  ', '""'], 'Give a text to search for.'],
    [['search', 'x', '--limit', '0'], 'The limit must be a whole number from 1 to 1000.'],
    [['search', 'x', '--limit', 'many'], '--limit takes a whole number, not "many".'],
    [['photos', '--from', '2024-01-01'], 'Give both --from DATE and --to DATE.'],
    [['photos', '--from', '2024-13-01', '--to', '2024-12-31'], 'The start date "2024-13-01" is not a date'],
    [['photos', '--from', '2024-01-01', '--to', '30.06.2024'], 'The end date "30.06.2024" is not a date'],
    [
      ['photos', '--from', '2024-07-01', '--to', '2024-06-30'],
      'The start (2024-07-01 00:00:00) is after the end (2024-06-30 23:59:59)',
    ],
    [['photos', '--from', '2024-01-01', '--to', '2024-06-30', 'extra'], 'Unexpected argument "extra".'],
  ] as const)('exits 2 for %j', async ([args, message], { profile }) => {
    const result = await mchSync(profile, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`mch-sync: ${message}`);
    expect(result.stderr).toContain('Usage: mch-sync [--profile DIR]');
  });

  it.for([['search', 'report'], PHOTO_RANGE] as const)(
    'exits 1 telling to log in when the profile is not signed in (%s)',
    async (args, { profile }) => {
      const result = await mchSync(profile, args, join(profile.home, 'never-signed-in'));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('run `mch-sync login');
    },
  );

  it('exits 1 telling what to check when the device does not answer', async () => {
    const other = await startTestDevice();
    const signedIn = await signedInProfile(other, 'mch-sync-search-down-');
    try {
      await other.stop();
      const result = await runMchSync(['--profile', signedIn.profile, 'search', 'report'], {
        env: signedIn.env,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('mch-sync: Could not search the device: the device did not answer');
      expect(result.stderr).toContain('Check that it is on and connected');
      expect(result.stderr).not.toContain('will try again later');
    } finally {
      signedIn.remove();
    }
  });
});
