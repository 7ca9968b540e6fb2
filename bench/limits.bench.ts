// Upload and download limits (#33): 200 MB each way at 5 MB/s through the client's own limit, against the same transfer unlimited through a relay capped at 5 MB/s.
//
// One device (a child process) with a home address and a relay capped at 5 MB/s each way. The limited
// runs go home (uncapped) with `mch-sync limits --up/--down 5MB/s`; the baseline runs go through the
// relay with no limit (home switched off by a line on the device's stdin), so both move the same bytes
// at the same rate and the client's CPU is compared at equal work: what the bucket and the throttle
// cost. Each is one `mch-sync run --once` process, its CPU from wait4 (GNU time); the rate is the bytes
// over the pass's own duration (`run --json`: startedAtMs to finishedAtMs), so node's start is left out.
// Goal: the rate within ±10 % of 5 MB/s, the CPU at most 1.1× the baseline's.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runMchSync } from '../test/helpers/mch-sync.ts';
import { signInBenchProfile, type BenchProfile } from './lib/bench-profile.ts';
import type { BenchDevice } from './lib/device.ts';
import { timedMchSync } from './lib/timed-cli.ts';

const MEGABYTES = Number(process.env['BENCH_LIMITS_MB'] ?? 200);
const RATE = 5_000_000;
const BYTES = MEGABYTES * 1_000_000;
const root = fileURLToPath(new URL('..', import.meta.url));

interface Transfer {
  name: string;
  seconds: number;
  cpu: number;
}

interface LimitsDevice extends BenchDevice {
  /** Switches the home address off or on (the client then goes through the relay or home). */
  home(state: 'up' | 'down'): Promise<void>;
}

async function startDevice(dataDir: string): Promise<LimitsDevice> {
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin/mch-device.js'),
      '--port',
      '0',
      '--data',
      dataDir,
      '--user',
      'bench:bench',
      '--home',
      '127.0.0.2',
      '--relay',
      '127.0.0.3',
      '--relay-rate',
      `${RATE / 1_000_000}MB/s`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const seen: string[] = [];
  const waiters: Array<() => void> = [];
  lines.on('line', (line) => {
    seen.push(line);
    for (const wake of waiters.splice(0)) wake();
  });
  const waitForLine = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      for (const line of seen) {
        const match = pattern.exec(line);
        if (match !== null) return match;
      }
      if (child.exitCode !== null) throw new Error(`the device exited:\n${seen.join('\n')}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const base = (await waitForLine(/^config url: (\S+)\/config\/v1\/config$/))[1] ?? '';
  return {
    base,
    // The runs sign in through `mch-sync login`; no request of the bench itself needs a token.
    token: '',
    home: async (state) => {
      seen.length = 0;
      child.stdin.write(`home ${state}\n`);
      await waitForLine(new RegExp(`home address ${state}`));
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** 200 MB of random bytes, written in 8 MB blocks so memory stays small. */
function writeRandomFile(path: string, bytes: number): void {
  const fd = openSync(path, 'w');
  try {
    const block = randomBytes(8 * 1024 * 1024);
    for (let written = 0; written < bytes;) {
      const length = Math.min(block.length, bytes - written);
      // A block changed each time: no two stretches of the file alike.
      block.writeUInt32LE(written, 0);
      written += writeSync(fd, block, 0, length);
    }
  } finally {
    closeSync(fd);
  }
}

async function limits(profile: BenchProfile, up: string, down: string): Promise<void> {
  const set = await runMchSync(['--profile', profile.profile, 'limits', '--up', up, '--down', down], {
    env: profile.env,
  });
  if (set.code !== 0) throw new Error(`limits failed: ${set.stderr}`);
}

/** One `run --once` of a pair; the pass's own duration and the process's CPU. */
async function transfer(
  profile: BenchProfile,
  name: string,
  folder: string,
  remoteFolder: string,
): Promise<Transfer> {
  const run = await timedMchSync(
    [
      '--profile',
      profile.profile,
      'run',
      '--folder',
      folder,
      '--remote-folder',
      remoteFolder,
      '--once',
      '--json',
    ],
    { env: profile.env, timeoutMs: 30 * 60_000 },
  );
  if (run.code !== 0) throw new Error(`${name}: run exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(run.stdout) as { startedAtMs: number; finishedAtMs: number };
  return { name, seconds: (report.finishedAtMs - report.startedAtMs) / 1000, cpu: run.cpu };
}

function row(transfer: Transfer, baseline: Transfer | undefined): string {
  const rate = BYTES / transfer.seconds;
  const error = ((rate - RATE) / RATE) * 100;
  const ratio = baseline === undefined ? '1.00 (baseline)' : (transfer.cpu / baseline.cpu).toFixed(2);
  return `| ${transfer.name} | ${(rate / 1e6).toFixed(2)} | ${error >= 0 ? '+' : ''}${error.toFixed(1)} % | ${transfer.seconds.toFixed(1)} | ${transfer.cpu.toFixed(2)} | ${ratio} |`;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'mch-limits-bench-'));
  const device = await startDevice(join(work, 'device'));
  try {
    const profile = await signInBenchProfile(device, join(work, 'home'));
    const folders = {
      upLimited: join(work, 'up-limited'),
      upRelay: join(work, 'up-relay'),
      downLimited: join(work, 'down-limited'),
      downRelay: join(work, 'down-relay'),
    };
    for (const folder of Object.values(folders)) mkdirSync(folder);
    writeRandomFile(join(folders.upLimited, 'big.bin'), BYTES);
    writeRandomFile(join(folders.upRelay, 'big.bin'), BYTES);
    console.log(`${MEGABYTES} MB each way at ${RATE / 1e6} MB/s; device at ${device.base}`);

    await limits(profile, `${RATE / 1e6}MB/s`, 'off');
    await device.home('up');
    const upLimited = await transfer(profile, 'upload, client limit 5 MB/s, home', folders.upLimited, '/L');
    await limits(profile, 'off', 'off');
    await device.home('down');
    const upRelay = await transfer(
      profile,
      'upload, no limit, relay capped at 5 MB/s',
      folders.upRelay,
      '/R',
    );

    // The upload pairs are forgotten (their files stay) so the download pairs may take their device folders.
    for (const folder of [folders.upLimited, folders.upRelay]) {
      const removed = await runMchSync(
        ['--profile', profile.profile, 'folders', 'remove', '--folder', folder],
        {
          env: profile.env,
        },
      );
      if (removed.code !== 0) throw new Error(`folders remove failed: ${removed.stderr}`);
    }
    await limits(profile, 'off', `${RATE / 1e6}MB/s`);
    await device.home('up');
    const downLimited = await transfer(
      profile,
      'download, client limit 5 MB/s, home',
      folders.downLimited,
      '/L',
    );
    await limits(profile, 'off', 'off');
    await device.home('down');
    const downRelay = await transfer(
      profile,
      'download, no limit, relay capped at 5 MB/s',
      folders.downRelay,
      '/R',
    );
    for (const folder of [folders.downLimited, folders.downRelay]) {
      const size = statSync(join(folder, 'big.bin')).size;
      if (size !== BYTES) throw new Error(`${folder}/big.bin has ${size} bytes, not ${BYTES}`);
    }

    console.log('\n| case | MB/s | error vs 5 MB/s | pass (s) | client CPU (s) | CPU ratio to baseline |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(row(upRelay, undefined));
    console.log(row(upLimited, upRelay));
    console.log(row(downRelay, undefined));
    console.log(row(downLimited, downRelay));
  } finally {
    await device.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
