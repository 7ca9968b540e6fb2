// `mch-sync folders list|add|remove` and `mch-sync run` without --folder, against the real device.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFilePath } from '../../../app/index/index-db.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';
import { waitFor } from '../../helpers/live-pair.ts';
import { MCH_SYNC_BIN, runMchSync, type CliRun } from '../../helpers/mch-sync.ts';
import { signedInProfile, type SignedInProfile } from '../../helpers/signed-in-profile.ts';

let device: TestDevice;
let profile: SignedInProfile;
let photos: string;
let notes: string;

function mch(args: string[]): Promise<CliRun> {
  return runMchSync(['--profile', profile.profile, ...args], { env: profile.env, timeoutMs: 60_000 });
}

beforeAll(async () => {
  device = await startTestDevice();
  profile = await signedInProfile(device, 'mch-folders-');
  photos = join(profile.home, 'Photos');
  notes = join(profile.home, 'Notes');
  mkdirSync(photos);
  mkdirSync(notes);
  writeFileSync(join(photos, 'a.jpg'), 'not really a jpeg');
  writeFileSync(join(notes, 'n.txt'), 'a note');
}, 60_000);

afterAll(async () => {
  await device?.stop();
  profile?.remove();
});

describe('mch-sync folders', () => {
  it('adds pairs that run without --folder syncs, one after the other', async () => {
    expect((await mch(['folders', 'add', '--folder', photos])).code).toBe(0);
    expect((await mch(['folders', 'add', '--folder', notes, '--remote-folder', '/Work/Notes'])).code).toBe(0);
    const list = await mch(['folders', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([
      { localRoot: notes, remoteFolder: '/Work/Notes', running: false },
      { localRoot: photos, remoteFolder: '/Photos', running: false },
    ]);
    const run = await mch(['run', '--once']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${notes} ↔ /Work/Notes`);
    expect(run.stdout).toContain(`${photos} ↔ /Photos`);
    const found = await device.fetchAs('alice', '/sdk/v2/filesSearch/text?q=n.txt');
    expect(JSON.stringify(await found.json())).toContain('"name":"n.txt"');
  });

  it('refuses to pair a folder again with another device folder, and bad usage', async () => {
    const again = await mch(['folders', 'add', '--folder', photos, '--remote-folder', '/Elsewhere']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is synced with /Photos already');
    for (const args of [
      ['folders'],
      ['folders', 'move'],
      ['folders', 'add'],
      ['run', '--remote-folder', '/X'],
    ]) {
      expect((await mch(args)).code, args.join(' ')).toBe(2);
    }
  });

  it('runs every pair live at once, each line naming its folder, until SIGTERM', async () => {
    const child = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile.profile, 'run'], {
      env: profile.env,
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    try {
      for (const folder of [photos, notes]) {
        await waitFor(`live sync of ${folder}`, async () => {
          const status = await mch(['status', '--folder', folder, '--json']);
          const parsed =
            status.code === 0 ? (JSON.parse(status.stdout) as { pid: number | null }) : undefined;
          return parsed?.pid === child.pid ? true : undefined;
        });
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^\[Photos\] /m);
    expect(stdout).toMatch(/^\[Notes\] /m);
  });

  it('removes a pair and its index, keeping its files', async () => {
    const removed = await mch(['folders', 'remove', '--folder', notes]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(join(notes, 'n.txt'))).toBe(true);
    expect(existsSync(indexFilePath(profile.profile, notes))).toBe(false);
    const list = await mch(['folders', 'list', '--json']);
    expect((JSON.parse(list.stdout) as Array<{ localRoot: string }>).map((row) => row.localRoot)).toEqual([
      photos,
    ]);
    // Paired again with another device folder, it starts over.
    expect((await mch(['folders', 'add', '--folder', notes, '--remote-folder', '/Notes2'])).code).toBe(0);
    const run = await mch(['run', '--once']);
    expect(run.code, run.stderr).toBe(0);
  });
});

it('says how to start when the profile syncs no folder', async () => {
  const empty = await signedInProfile(device, 'mch-folders-empty-');
  try {
    const run = await runMchSync(['--profile', empty.profile, 'run', '--once'], { env: empty.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('This profile syncs no folder yet');
  } finally {
    empty.remove();
  }
});
