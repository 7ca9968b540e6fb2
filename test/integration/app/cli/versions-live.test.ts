// `mch-sync restore` and `resolve` while `mch-sync run` syncs the folder live: the change goes through the service's control socket and reaches the device without another command.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { expectExit } from '../../../helpers/expect-cli.ts';
import { MCH_SYNC_BIN } from '../../../helpers/mch-sync.ts';
import { mch, serviceStatus, waitFor } from '../../../helpers/on-demand-cli.ts';
import type { SignedInProfile } from '../../../helpers/signed-in-profile.ts';
import { askService } from '../../../../app/live-service/control-client.ts';
import { controlSocketPath, folderKey } from '../../../../app/live-service/control-socket-path.ts';
import {
  conflictedCopyOf,
  deviceTexts,
  local,
  mchJson,
  readLocal,
  syncedWorld,
  syncOnce,
  versionsOf,
  writeLocal,
  type VersionsWorld,
} from '../../../helpers/versions-cli.ts';

const SLOW = 300_000;

/** `mch-sync run --folder F` in a child process, once its first pass is over; stopped with Ctrl+C. */
async function startLive(
  profile: SignedInProfile,
  folder: string,
): Promise<{ stop: () => Promise<number | null> }> {
  const child = spawn(
    process.execPath,
    [MCH_SYNC_BIN, '--profile', profile.profile, 'run', '--folder', folder],
    {
      env: profile.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    await waitFor('a first live pass', async () => {
      const now = await serviceStatus(profile, folder);
      return now?.state === 'idle' && now.lastSyncAtMs !== null ? true : undefined;
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}; it said:\n${output}`, { cause: error });
  }
  return {
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/**
 * The device's texts, or undefined when the live service changed the folder between the walk and a
 * read (a file deleted meanwhile answers 404): a wait then looks again.
 */
async function deviceNow(world: VersionsWorld): Promise<Record<string, string> | undefined> {
  try {
    return await deviceTexts(world);
  } catch {
    return undefined;
  }
}

/** Waits until the device holds `text` at `path` (the live service's pass carried it). */
async function deviceHas(world: VersionsWorld, path: string, text: string): Promise<void> {
  await waitFor(`${path} on the device to read ${JSON.stringify(text)}`, async () =>
    (await deviceNow(world))?.[path] === text ? true : undefined,
  );
}

function liveLog(profile: SignedInProfile, folder: string): string {
  return readFileSync(join(profile.profile, 'logs', `live-${folderKey(folder)}.log`), 'utf8');
}

describe('versions while live sync runs', () => {
  it(
    'restore and resolve go through the running service, which syncs them at once; what they replace is kept',
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'Live', { 'doc.txt': 'doc 1', 'pick.txt': 'pick 0' });
      await world.device.writeRemote('doc.txt', 'doc 2');
      await syncOnce(world);
      await makeConflict(world);
      const copy = conflictedCopyOf(world, 'pick.txt');

      const live = await startLive(profile, world.folder);
      try {
        const restored = await mch(profile, ['restore', local(world, 'doc.txt')]);
        expectExit(restored, 0);
        expect(restored.stdout).toContain(`Live sync of ${world.folder} is carrying it to the device now.`);
        expect(readLocal(world, 'doc.txt')).toBe('doc 1');
        await deviceHas(world, 'doc.txt', 'doc 1');
        expect(await versionsOf(world, 'doc.txt')).toEqual([
          expect.objectContaining({ number: 1, reason: 'restored', size: 5 }),
        ]);

        const resolved = await mchJson<{ kept: string; syncsNow: boolean }>(profile, [
          'resolve',
          local(world, copy),
          '--keep',
          'this',
        ]);
        expect(resolved).toMatchObject({ kept: 'this', syncsNow: true });
        await deviceHas(world, 'pick.txt', 'pick mine');
        await waitFor('the conflicted copy gone from the device', async () => {
          const now = await deviceNow(world);
          return now !== undefined && now[copy] === undefined ? true : undefined;
        });
        expect(await versionsOf(world, 'pick.txt')).toEqual([
          expect.objectContaining({ reason: 'conflict', size: 11 }),
        ]);

        // A bad request is refused by the service with the same words, nothing changed.
        const missing = await mch(profile, ['restore', local(world, 'doc.txt'), '--version', '5']);
        expectExit(missing, 1);
        expect(missing.stderr).toBe('mch-sync: doc.txt has 1 kept version; there is no version 5.\n');
        expect(readLocal(world, 'doc.txt')).toBe('doc 1');

        // Paused: the restore is made, and waits for the resume to go up.
        expectExit(await mch(profile, ['pause', '--folder', world.folder]), 0);
        const paused = await mch(profile, ['restore', local(world, 'doc.txt')]);
        expectExit(paused, 0);
        expect(paused.stdout).toContain(
          `Live sync of ${world.folder} is paused: it goes to the device once you resume it (\`mch-sync resume --folder ${world.folder}\`).`,
        );
        expect(readLocal(world, 'doc.txt')).toBe('doc 2');
        expect((await deviceTexts(world))['doc.txt']).toBe('doc 1');
        expectExit(await mch(profile, ['resume', '--folder', world.folder]), 0);
        await deviceHas(world, 'doc.txt', 'doc 2');

        const log = liveLog(profile, world.folder);
        expect(log).toContain('restored version 1 of doc.txt to doc.txt');
        expect(log).toContain('conflict of pick.txt settled: kept this');
      } finally {
        expect(await live.stop()).toBe(0);
      }
      expect(await deviceTexts(world)).toEqual({ 'doc.txt': 'doc 2', 'pick.txt': 'pick mine' });
    },
    SLOW,
  );

  it(
    'the service answers a versions request it cannot carry out with an error, not a crash',
    async ({ profile, newPair }) => {
      const world = await syncedWorld(profile, newPair, 'Refused', { 'f.txt': 'f' });
      const live = await startLive(profile, world.folder);
      try {
        const answer = await askService(controlSocketPath(profile.profile, world.folder), {
          op: 'versions',
          action: { kind: 'restore', path: '../escape.txt' },
        });
        expect(answer?.ok).toBe(false);
        expect(answer?.ok === false ? answer.error.code : undefined).toBe('VERSION_NOT_FOUND');
        const status = await serviceStatus(profile, world.folder);
        expect(status?.state).toBe('idle');
      } finally {
        expect(await live.stop()).toBe(0);
      }
    },
    SLOW,
  );
});

/** pick.txt changed here and on the device, then a pass: a conflict waiting. */
async function makeConflict(world: VersionsWorld): Promise<void> {
  writeLocal(world, 'pick.txt', 'pick mine');
  await world.device.writeRemote('pick.txt', 'pick theirs');
  await syncOnce(world);
}
