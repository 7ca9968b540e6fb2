// `mch-sync folders list|add|remove` and `mch-sync run` without --folder, against the real device.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import { folderKey, indexFilePath } from '../../../../app/index/index-db.ts';
import { folderPairsDir } from '../../../../app/profile/folder-pairs.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { MCH_SYNC_BIN, runMchSync, type CliRun } from '../../../helpers/mch-sync.ts';
import { serviceStatus } from '../../../helpers/on-demand-cli.ts';
import { signedInProfile, type SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';

let photos: string;
let notes: string;

function mch(profile: SignedInProfile, args: string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 60_000 });
}

test.beforeAll(async ({ profile }) => {
  photos = join(profile.home, 'Photos');
  notes = join(profile.home, 'Notes');
  mkdirSync(photos);
  mkdirSync(notes);
  writeFileSync(join(photos, 'a.jpg'), 'not really a jpeg');
  writeFileSync(join(notes, 'n.txt'), 'a note');
}, 60_000);

describe('mch-sync folders', () => {
  it('adds pairs that run without --folder syncs, one after the other', async ({ device, profile }) => {
    expect((await mch(profile, ['folders', 'add', '--folder', photos])).code).toBe(0);
    expect(
      (await mch(profile, ['folders', 'add', '--folder', notes, '--remote-folder', '/Work/Notes'])).code,
    ).toBe(0);
    const list = await mch(profile, ['folders', 'list', '--json']);
    // A pair not synced yet keeps no versions; its policy is the default one.
    const versions = {
      keepDays: 30,
      capBytes: null,
      capBytesNow: expect.any(Number) as number,
      conflicts: 'ask',
      kept: { count: 0, bytes: 0 },
    };
    expect(JSON.parse(list.stdout)).toEqual([
      { localRoot: notes, remoteFolder: '/Work/Notes', running: false, overlap: null, versions },
      { localRoot: photos, remoteFolder: '/Photos', running: false, overlap: null, versions },
    ]);
    const run = await mch(profile, ['run', '--once']);
    expectExit(run, 0);
    expect(run.stdout).toContain(`${notes} ↔ /Work/Notes`);
    expect(run.stdout).toContain(`${photos} ↔ /Photos`);
    const found = await device.fetchAs('alice', '/sdk/v2/filesSearch/text?q=n.txt');
    expect(JSON.stringify(await found.json())).toContain('"name":"n.txt"');
  });

  it('prints one JSON array for every pair with run --once --json, each naming its pair; exit 1 for one that failed', async ({
    profile,
  }) => {
    writeFileSync(join(notes, 'm.txt'), 'another note');
    const gone = join(profile.home, 'Gone');
    mkdirSync(gone);
    expect((await mch(profile, ['folders', 'add', '--folder', gone])).code).toBe(0);
    rmdirSync(gone);
    try {
      const run = await mch(profile, ['run', '--once', '--json']);
      expectExit(run, 1);
      expect(run.stderr).toContain(`mch-sync: ${gone}: The folder ${gone} does not exist`);
      const documents = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
      expect(documents).toEqual([
        {
          localRoot: gone,
          remoteFolder: '/Gone',
          error: {
            code: 'LOCAL_FOLDER_MISSING',
            message: `The folder ${gone} does not exist: create it (mkdir) or check the path (a drive that is not mounted?). Nothing was synced.`,
          },
        },
        expect.objectContaining({ localRoot: notes, remoteFolder: '/Work/Notes', status: 'synced' }),
        expect.objectContaining({ localRoot: photos, remoteFolder: '/Photos', status: 'synced' }),
      ]);
      expect(documents[1]).toMatchObject({ counts: { uploaded: 1 }, issues: [] });
    } finally {
      expect((await mch(profile, ['folders', 'remove', '--folder', gone])).code).toBe(0);
    }
    // With --folder, the one pass report as before: an object, the pair not repeated in it.
    const one = await mch(profile, ['run', '--once', '--json', '--folder', photos]);
    expectExit(one, 0);
    const report = JSON.parse(one.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ status: 'synced', counts: { uploaded: 0 } });
    expect(report).not.toHaveProperty('localRoot');
  });

  it('refuses to pair a folder again with another device folder, and bad usage', async ({ profile }) => {
    const again = await mch(profile, ['folders', 'add', '--folder', photos, '--remote-folder', '/Elsewhere']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is synced with /Photos already');
    // Independent refusals that change nothing: run at once.
    const usages = [['folders'], ['folders', 'move'], ['folders', 'add'], ['run', '--remote-folder', '/X']];
    const runs = await Promise.all(usages.map((args) => mch(profile, args)));
    usages.forEach((args, index) => expect(runs[index]?.code, args.join(' ')).toBe(2));
  });

  it('runs every pair live at once, each line naming its folder, until SIGTERM', async ({ profile }) => {
    const child = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile.profile, 'run'], {
      env: profile.env,
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    try {
      for (const folder of [photos, notes]) {
        // Asked over each pair's control socket: a `status` command per poll would start a process each time.
        await waitFor(`live sync of ${folder}`, async () =>
          (await serviceStatus(profile, folder))?.pid === child.pid ? true : undefined,
        );
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^\[Photos\] /m);
    expect(stdout).toMatch(/^\[Notes\] /m);
  });

  it('removes a pair and its index, keeping its files', async ({ profile }) => {
    const removed = await mch(profile, ['folders', 'remove', '--folder', notes]);
    expectExit(removed, 0);
    expect(existsSync(join(notes, 'n.txt'))).toBe(true);
    expect(existsSync(indexFilePath(profile.profile, notes))).toBe(false);
    const list = await mch(profile, ['folders', 'list', '--json']);
    expect((JSON.parse(list.stdout) as Array<{ localRoot: string }>).map((row) => row.localRoot)).toEqual([
      photos,
    ]);
    // Paired again with another device folder, it starts over.
    expect(
      (await mch(profile, ['folders', 'add', '--folder', notes, '--remote-folder', '/Notes2'])).code,
    ).toBe(0);
    const run = await mch(profile, ['run', '--once']);
    expectExit(run, 0);
  });
});

it('says how to start when the profile syncs no folder', async ({ device }) => {
  const empty = await signedInProfile(device, 'mch-folders-empty-');
  try {
    const run = await runMchSync(['--profile', empty.profile, 'run', '--once'], { env: empty.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('This profile syncs no folder yet');
  } finally {
    empty.remove();
  }
});

describe('pairs never overlap', () => {
  let library: string;
  /** `folders list --json` once the pairs below are made: what every refusal must leave as it is. */
  let pairsBefore: string;
  test.beforeAll(async ({ profile }) => {
    library = join(profile.home, 'Library');
    mkdirSync(join(library, 'Music'), { recursive: true });
    mkdirSync(join(photos, 'Trips'), { recursive: true });
    mkdirSync(join(profile.home, 'Elsewhere'));
    symlinkSync(photos, join(profile.home, 'photos-link'));
    expect(
      (
        await mch(profile, [
          'folders',
          'add',
          '--folder',
          join(library, 'Music'),
          '--remote-folder',
          '/Music',
        ])
      ).code,
    ).toBe(0);
    const listed = await mch(profile, ['folders', 'list', '--json']);
    expectExit(listed, 0);
    pairsBefore = listed.stdout;
  });

  it.for([
    [
      'inside another pair’s folder',
      [join('Photos', 'Trips')],
      (f: Folders) =>
        `${f.trips} is inside ${photos}, which is synced with /Photos. Folder pairs must not overlap: choose another folder.`,
    ],
    [
      'around another pair’s folder',
      ['Library'],
      (f: Folders) => `${f.library} holds ${f.music}, which is synced with /Music.`,
    ],
    [
      'the same folder through a link',
      ['photos-link'],
      (f: Folders) => `${f.link} is the same folder as ${photos}, which is synced with /Photos.`,
    ],
    [
      'the same folder with a trailing slash',
      ['Library/Music/', '--remote-folder', '/Tunes'],
      (f: Folders) => `${f.music} is synced with /Music already: remove it first`,
    ],
    [
      'inside the profile folder',
      ['profile'],
      (f: Folders) =>
        `${f.profile} is inside the profile folder ${f.profile}, which holds mch-sync's index and logs.`,
    ],
    [
      'around the profile folder',
      ['.'],
      (f: Folders) =>
        `${f.home} holds the profile folder ${f.profile}: its index and logs would be synced too.`,
    ],
    [
      'inside a state folder',
      [join('Elsewhere', '.mch-sync')],
      (f: Folders) =>
        `${f.state} is inside a .mch-sync folder, where a synced folder keeps mch-sync's own state.`,
    ],
    [
      'a device folder inside another pair’s',
      ['Elsewhere', '--remote-folder', '/Photos/Elsewhere'],
      () =>
        `/Photos/Elsewhere on the device is inside /Photos, which is synced with ${photos}. Folder pairs must not overlap: choose another device folder.`,
    ],
    [
      'the device root',
      ['Elsewhere', '--remote-folder', '/'],
      (f: Folders) => `/ (the whole device) on the device holds ${f.firstRemote}`,
    ],
  ] as const)('folders add refuses %s, with the reason', async ([_name, args, message], { profile }) => {
    const [folder = '', ...rest] = args;
    if (folder.endsWith('.mch-sync')) mkdirSync(join(profile.home, folder), { recursive: true });
    const added = await mch(profile, ['folders', 'add', '--folder', join(profile.home, folder), ...rest]);
    const expected = message(folders(profile));
    expect(added.stderr).toContain(expected);
    // A repeated pairing is a usage error (2); an overlap is a refusal (1), as any failed command.
    expect(added.code).toBe(expected.includes('remove it first') ? 2 : 1);
    // Each refusal is checked against the pairs as the suite hook left them: one that paired
    // anything fails here (and so do the refusals after it, which find an extra pair).
    expect((await mch(profile, ['folders', 'list', '--json'])).stdout).toBe(pairsBefore);
  });

  it('run --folder refuses a new pair that would overlap, before anything reaches the device', async ({
    device,
    profile,
  }) => {
    const run = await mch(profile, ['run', '--folder', join(photos, 'Trips'), '--once']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `mch-sync: ${join(photos, 'Trips')} is inside ${photos}, which is synced with /Photos. Folder pairs must not overlap: choose another folder.\n`,
    );
    const found = await device.fetchAs('alice', '/sdk/v2/filesSearch/text?q=Trips');
    expect(JSON.stringify(await found.json())).not.toContain('"name":"Trips"');
  });

  it('marks overlapping pairs of an older version, skips them in run, and refuses run --folder on one', async ({
    profile,
  }) => {
    // An older version recorded this pair beside /Photos: write its file as it did.
    const nested = join(photos, 'Trips');
    writeFileSync(
      join(folderPairsDir(profile.profile), `${folderKey(nested)}.json`),
      `${JSON.stringify({ version: 1, localRoot: nested, remoteFolder: '/Trips', indexPath: indexFilePath(profile.profile, nested) })}\n`,
    );
    const outer = `Not synced: ${photos} holds ${nested}, which is synced with /Trips.`;
    const inner = `Not synced: ${nested} is inside ${photos}, which is synced with /Photos.`;
    const fix = `(mch-sync folders remove --folder ${nested} or mch-sync folders remove --folder ${photos}, or Remove in the window's settings)`;
    const listed = JSON.parse((await mch(profile, ['folders', 'list', '--json'])).stdout) as Array<{
      localRoot: string;
      overlap: string | null;
    }>;
    expect(listed.map((row) => [row.localRoot, row.overlap])).toEqual([
      [join(library, 'Music'), null],
      [notes, null],
      [photos, expect.stringContaining(outer)],
      [nested, expect.stringContaining(inner)],
    ]);
    const text = (await mch(profile, ['folders', 'list'])).stdout;
    expect(text).toContain(
      `${nested}  ↔  /Trips\n  ${inner} Folder pairs must not overlap: remove one of the two `,
    );
    // Each pair's line is followed by its versions' line, then the next pair.
    const lines = text.split('\n');
    const music = lines.indexOf(`${join(library, 'Music')}  ↔  /Music`);
    expect(lines[music + 1]).toMatch(/^ {2}versions: /);
    expect(lines[music + 2]?.startsWith(`${notes}  ↔  `)).toBe(true);

    const every = await mch(profile, ['run', '--once']);
    expect(every.code).toBe(1);
    expect(every.stderr).toContain(`mch-sync: ${photos}: ${outer}`);
    expect(every.stderr).toContain(`mch-sync: ${nested}: ${inner}`);
    // The others still sync.
    expect(every.stdout).toContain(`${join(library, 'Music')} ↔ /Music`);
    expect(every.stdout).toContain(`${notes} ↔ /Notes2`);
    expect(existsSync(indexFilePath(profile.profile, nested))).toBe(false);

    const one = await mch(profile, ['run', '--folder', nested, '--once']);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain(inner);
    expect(one.stderr).toContain(fix);

    expect((await mch(profile, ['folders', 'remove', '--folder', nested])).code).toBe(0);
    const after = JSON.parse((await mch(profile, ['folders', 'list', '--json'])).stdout) as Array<{
      overlap: string | null;
    }>;
    expect(after.every((row) => row.overlap === null)).toBe(true);
  });
});

interface Folders {
  home: string;
  profile: string;
  trips: string;
  library: string;
  music: string;
  link: string;
  state: string;
  firstRemote: string;
}

function folders(profile: SignedInProfile): Folders {
  return {
    home: profile.home,
    profile: profile.profile,
    trips: join(photos, 'Trips'),
    library: join(profile.home, 'Library'),
    music: join(profile.home, 'Library', 'Music'),
    link: join(profile.home, 'photos-link'),
    state: join(profile.home, 'Elsewhere', '.mch-sync'),
    firstRemote: '/Music',
  };
}
