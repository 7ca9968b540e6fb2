// A private D-Bus bus (dbus-daemon --session) and a stand-in NetworkManager on it, for the network monitor's tests.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { HELPER_DIR, missingGi, SYSTEM_PYTHON } from './python-gi.ts';

export interface PrivateBus {
  /** The bus's address, as DBUS_*_BUS_ADDRESS takes it. */
  address: string;
  stop(): Promise<void>;
}

/** Why a private bus with a stand-in NetworkManager cannot run here, or undefined when it can. */
export function missingBus(): string | undefined {
  if (spawnSync('dbus-daemon', ['--version']).status !== 0) {
    return 'dbus-daemon is not installed (Debian package dbus-daemon)';
  }
  return missingGi();
}

/** Starts `dbus-daemon --session --nofork` on a socket of its own; resolves with its address. */
export async function startPrivateBus(): Promise<PrivateBus> {
  const child = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const address = await firstLine(child, 'dbus-daemon');
  return { address, stop: () => stopChild(child) };
}

export interface MockNetworkManager {
  /** Sets one of Metered (u), PrimaryConnection (o), State (u), Connectivity (u) and emits PropertiesChanged. */
  set(
    name: 'Metered' | 'PrimaryConnection' | 'State' | 'Connectivity',
    value: number | string,
  ): Promise<void>;
  stop(): Promise<void>;
}

/** test/helpers/mock-network-manager.py on `address`: owns NetworkManager's name, Metered 4 (guess no) at start. */
export async function startMockNetworkManager(address: string): Promise<MockNetworkManager> {
  const child = spawn(SYSTEM_PYTHON, [join(HELPER_DIR, 'mock-network-manager.py'), address], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const onExit = (): void => reject(new Error(`mock NetworkManager exited: ${stderrOf(child)}`));
      child.once('exit', onExit);
      lines.once('line', (line) => {
        child.off('exit', onExit);
        resolve(line);
      });
    });
  collectStderr(child);
  const ready = await next();
  if (ready !== 'ready') throw new Error(`mock NetworkManager said "${ready}": ${stderrOf(child)}`);
  return {
    async set(name, value) {
      const said = next();
      child.stdin.write(`set ${name} ${value}\n`);
      if ((await said) !== 'set')
        throw new Error(`mock NetworkManager did not set ${name}: ${stderrOf(child)}`);
    },
    stop: () => stopChild(child),
  };
}

const stderrs = new WeakMap<ChildProcess, string[]>();

function collectStderr(child: ChildProcess): void {
  const chunks: string[] = [];
  stderrs.set(child, chunks);
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
}

function stderrOf(child: ChildProcess): string {
  return (stderrs.get(child) ?? []).join('').slice(-2000);
}

function firstLine(child: ChildProcess, what: string): Promise<string> {
  collectStderr(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}): ${stderrOf(child)}`)));
    child.once('error', reject);
    lines.once('line', (line) => resolve(line.trim()));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
