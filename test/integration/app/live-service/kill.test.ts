// `mch-sync run` killed with SIGKILL at seeded moments of a big batch and started again: it converges, nothing lost or doubled.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../device/faults.ts';
import { startTestDevice, type TestDevice } from '../../../helpers/device.ts';
import { waitFor } from '../../../helpers/live-pair.ts';
import { MCH_SYNC_BIN } from '../../../helpers/mch-sync.ts';
import { signedInProfile } from '../../../helpers/signed-in-profile.ts';
import { files, readTree, SyncPair, type Tree } from '../../../helpers/sync-pair.ts';

const FILES = 300;
const FOLDERS = 10;

let device: TestDevice;
let home: string;
let profile: string;
let env: NodeJS.ProcessEnv;
const children: ChildProcess[] = [];

beforeAll(async () => {
  device = await startTestDevice();
  ({ home, profile, env } = await signedInProfile(device, 'mch-sync-live-kill-'));
});

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await device?.stop();
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
});

/** A running `mch-sync run` (live) and the items it reported done so far. */
interface LiveProcess {
  child: ChildProcess;
  exited: Promise<void>;
  /** Items done (uploaded, moved...) since it started. */
  done: () => number;
  /** Whether it has said it is up to date since it started. */
  upToDate: () => boolean;
  output: () => string;
}

function startLive(folder: string): LiveProcess {
  const child = spawn(process.execPath, [MCH_SYNC_BIN, '--profile', profile, 'run', '--folder', folder], {
    env,
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    exited,
    // Plain display lines: `<time> uploaded <path>` for each item done.
    done: () =>
      output.split('\n').filter((line) => /^\S+ (uploaded|moved|created-folder|deleted) /.test(line)).length,
    upToDate: () => output.includes('Up to date'),
    output: () => output,
  };
}

async function kill(live: LiveProcess): Promise<void> {
  live.child.kill('SIGKILL');
  await live.exited;
}

/**
 * Waits until `live` has done `count` items (or says it is up to date), then kills it; says whether it
 * was still busy.
 */
async function killAfter(live: LiveProcess, count: number): Promise<boolean> {
  await waitFor(`${count} items done`, () =>
    live.done() >= count || live.upToDate() ? true : undefined,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}; it said:\n${live.output()}`, { cause: error });
  });
  const busy = !live.upToDate();
  await kill(live);
  return busy;
}

/** What differs between two trees, by path, for a failure message. */
function differences(actual: Tree, wanted: Tree): string {
  const lines: string[] = [];
  for (const path of new Set([...Object.keys(actual), ...Object.keys(wanted)])) {
    const [got, want] = [actual[path], wanted[path]];
    if (got === undefined) lines.push(`missing ${path}`);
    else if (want === undefined) lines.push(`extra ${path}`);
    else if (!isDeepStrictEqual(got, want)) lines.push(`different ${path}`);
  }
  return lines.length === 0 ? 'none' : lines.sort().join(', ');
}

describe('mch-sync run killed with SIGKILL and started again', () => {
  it('ends with both sides identical: nothing lost, nothing doubled, no temporary names left', async () => {
    const random = seededRandom(6);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const folder = join(home, 'Crashy');
    const expected: Record<string, string> = {};
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), text);
      expected[path] = text;
    };
    const rename = (from: string, to: string): void => {
      mkdirSync(dirname(join(folder, to)), { recursive: true });
      renameSync(join(folder, from), join(folder, to));
      for (const path of Object.keys(expected)) {
        if (path !== from && !path.startsWith(`${from}/`)) continue;
        expected[`${to}${path.slice(from.length)}`] = expected[path] ?? '';
        delete expected[path];
      }
    };
    /** A few renames (a file, a whole folder) and edits, chosen by the seed. */
    const changeSome = (round: number): void => {
      for (let index = 0; index < 4; index += 1) {
        const path = pick(Object.keys(expected));
        rename(path, `${dirname(path)}/renamed-${round}-${index}.txt`);
      }
      const folders = [...new Set(Object.keys(expected).map((path) => path.split('/')[0] ?? ''))];
      const moved = pick(folders);
      rename(moved, `${moved}-moved-${round}`);
      for (let index = 0; index < 3; index += 1) {
        write(pick(Object.keys(expected)), `edited in round ${round} (${index}) ${'e'.repeat(2_000)}`);
      }
      write(`new-${round}.txt`, `new in round ${round}`);
    };

    mkdirSync(folder);
    for (let index = 0; index < FILES; index += 1) {
      write(`dir-${index % FOLDERS}/file-${index}.txt`, `file ${index} ${'x'.repeat(2_000 + index)}`);
    }

    // Killed in the middle of the first upload, changed while stopped, killed again.
    const killedBusy: boolean[] = [];
    killedBusy.push(await killAfter(startLive(folder), 20 + Math.floor(random() * 100)));
    changeSome(1);
    killedBusy.push(await killAfter(startLive(folder), Math.floor(random() * 60)));
    // Changed while it runs, killed before or while those changes go up.
    const third = startLive(folder);
    await waitFor('some items done', () => (third.done() >= 5 || third.upToDate() ? true : undefined));
    changeSome(2);
    killedBusy.push(await killAfter(third, third.done() + Math.floor(random() * 4)));
    // Not a timing claim: only that the run tested what it says (300 uploads outlast the first wait).
    expect(killedBusy).toContain(true);

    const last = startLive(folder);
    const reader = new SyncPair(device, { remoteFolder: '/Crashy' });
    try {
      const want: Tree = files(expected);
      // The engine's own `.mch-sync` folder is not part of the synced tree.
      const local = (): Tree =>
        readTree(folder, (path) => path === '.mch-sync' || path.startsWith('.mch-sync/'));
      await waitFor(
        'both sides to match',
        async () => {
          if (!isDeepStrictEqual(local(), want)) return undefined;
          return isDeepStrictEqual(await reader.remoteTree(), want) ? true : undefined;
        },
        120_000,
      ).catch(async (error: unknown) => {
        const remote = await reader.remoteTree();
        throw new Error(
          `${String(error)}\nlocal vs expected: ${differences(local(), want)}\n` +
            `remote vs expected: ${differences(remote, want)}\n${last.output()}`,
          { cause: error },
        );
      });
      last.child.kill('SIGTERM');
      await last.exited;
      expect(local()).toEqual(want);
      expect(await reader.remoteTree()).toEqual(want);
    } finally {
      reader.close();
    }
  }, 300_000);
});
