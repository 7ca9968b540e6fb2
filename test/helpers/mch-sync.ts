// Runs the mch-sync command as a user does, and an in-memory keychain for in-process tests.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeytarApi } from '../../app/auth/secrets/keychain-store.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const MCH_SYNC_BIN = join(ROOT, 'bin', 'mch-sync.js');

/**
 * One compile cache for every command a test run starts: bin/mch-sync.js keeps V8's code under the
 * user's cache folder, and most tests give each profile a HOME of its own, so each start would compile
 * everything again and write a cache nobody reads.
 */
const TEST_COMPILE_CACHE = join(tmpdir(), `mch-sync-test-compile-cache-${process.getuid?.() ?? 'user'}`);

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a spawned mch-sync: the file store unless a test asks otherwise, so no test
 * ever writes to the keychain of the machine it runs on; no inherited profile.
 */
export function cliEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    NODE_COMPILE_CACHE: TEST_COMPILE_CACHE,
    ...process.env,
    MCH_SECRET_STORE: 'file',
  };
  delete env['MCH_PROFILE'];
  // The client honours the proxy variables (README, Networks) and, as curl, makes no exception for
  // loopback: a machine's own proxy would carry every test's traffic to the device on 127.0.0.1. The
  // proxy tests set their own through `overrides`.
  for (const name of Object.keys(env)) {
    if (/^(https?|all|no)_proxy$/i.test(name)) delete env[name];
  }
  return { ...env, ...overrides };
}

/** Runs `command args` to the end, feeding `input` on stdin. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish:\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A program that exits without reading its input (xclip -o) closes the pipe first: not a failure.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Node's flags for the commands tests run. Each start strips the types of the TypeScript sources with
 * Node's WebAssembly stripper, and V8 recompiles its hot functions in background threads for a process
 * that ends a second later: `--liftoff-only` skips that second tier, about a sixth of a start's CPU time
 * (the stripped code is the same), on a 2-core machine that starts mch-sync hundreds of times a suite.
 */
export const MCH_SYNC_NODE_FLAGS: readonly string[] = ['--liftoff-only'];

/** `node bin/mch-sync.js args` with the Node running the tests (the project's Node 22). */
export function runMchSync(
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliRun> {
  return runProcess(process.execPath, [...MCH_SYNC_NODE_FLAGS, MCH_SYNC_BIN, ...args], options);
}

/** Every file under `dir` with its text, to prove what is (not) written in plain text. */
export function readAllFiles(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, text: readFileSync(path, 'latin1') };
    });
}

/** A keychain that lives in memory, with the keytar API, for in-process tests. */
export class MemoryKeychain implements KeytarApi {
  readonly entries = new Map<string, string>();
  /** When set, every call fails with this message (a keychain that is not running). */
  failure: string | undefined;

  async getPassword(service: string, account: string): Promise<string | null> {
    this.#check();
    return this.entries.get(`${service}\n${account}`) ?? null;
  }

  async setPassword(service: string, account: string, password: string): Promise<void> {
    this.#check();
    this.entries.set(`${service}\n${account}`, password);
  }

  async deletePassword(service: string, account: string): Promise<boolean> {
    this.#check();
    return this.entries.delete(`${service}\n${account}`);
  }

  #check(): void {
    if (this.failure !== undefined) throw new Error(this.failure);
  }
}
