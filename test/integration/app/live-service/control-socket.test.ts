// The control socket for real: a server on a Unix socket in a temporary profile, asked by the client and by raw connections.
import { existsSync, linkSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { it, test } from '../../../helpers/fixtures.ts';
import { MchError } from '../../../../common/errors.ts';
import type { EngineState, SyncStatus } from '../../../../common/sync-status.ts';
import { askService } from '../../../../app/live-service/control-client.ts';
import { parseAnswer, type ControlAnswer } from '../../../../app/live-service/control-protocol.ts';
import {
  startControlServer,
  type ControlHandler,
  type ControlServer,
} from '../../../../app/live-service/control-server.ts';
import {
  controlSocketPath,
  MAX_SOCKET_PATH_BYTES,
} from '../../../../app/live-service/control-socket-path.ts';

/** A live service reduced to its state: records what it was asked. */
class FakeService implements ControlHandler {
  state: EngineState = 'idle';
  readonly calls: string[] = [];
  failPause: Error | undefined;

  status(): SyncStatus {
    return {
      state: this.state,
      detail: null,
      localRoot: '/home/alice/Photos',
      remoteFolder: '/Photos',
      progress: null,
      lastSyncAtMs: 1_790_000_000_000,
      activity: [],
      issues: [],
      pid: process.pid,
    };
  }

  async pause(): Promise<void> {
    this.calls.push('pause');
    if (this.failPause) throw this.failPause;
    this.state = 'paused';
  }

  resume(): void {
    this.calls.push('resume');
    this.state = 'idle';
  }

  syncNow(): void {
    this.calls.push('sync-now');
    this.state = 'scanning';
  }

  confirmDeletes(): void {
    this.calls.push('confirm-deletes');
    this.state = 'scanning';
  }

  restore(): void {
    this.calls.push('restore');
    this.state = 'scanning';
  }
}

let dir: string;
let profile: string;
let socketPath: string;
const cleanup: Array<() => Promise<void> | void> = [];

test.beforeEach(({ tempDir }) => {
  dir = tempDir;
  profile = join(dir, 'profile');
  socketPath = controlSocketPath(profile, '/home/alice/Photos', { tmpdir: dir });
});

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function start(handler: ControlHandler = new FakeService(), path = socketPath): Promise<ControlServer> {
  const server = await startControlServer({ socketPath: path, handler });
  cleanup.push(() => server.close());
  return server;
}

function statusOf(answer: ControlAnswer | undefined): SyncStatus {
  if (answer === undefined || !answer.ok) throw new Error(`expected a status, got ${JSON.stringify(answer)}`);
  return answer.status;
}

/** Sends raw bytes on a fresh connection (ending it when `end`), and returns everything the server sent. */
function rawExchange(payload: Buffer | string, end: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.once('error', reject);
    socket.once('close', () => resolve(received));
    socket.once('connect', () => {
      socket.write(payload);
      if (end) socket.end();
    });
  });
}

/** A server that is not ours: accepts and does `onConnection` with each socket. */
async function listenRaw(path: string, onConnection: (socket: Socket) => void): Promise<Server> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const server = createServer((socket) => {
    // Read (and drop) what the client sends, so its end is seen and the connection can close.
    socket.resume();
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return server;
}

describe('control socket round trips', () => {
  it('answers status, pause, resume, sync-now, confirm-deletes and restore with the status after each', async () => {
    const service = new FakeService();
    await start(service);
    expect(statusOf(await askService(socketPath, { op: 'status' }))).toEqual(service.status());
    expect(statusOf(await askService(socketPath, { op: 'pause' })).state).toBe('paused');
    expect(statusOf(await askService(socketPath, { op: 'status' })).state).toBe('paused');
    expect(statusOf(await askService(socketPath, { op: 'resume' })).state).toBe('idle');
    expect(statusOf(await askService(socketPath, { op: 'sync-now' })).state).toBe('scanning');
    service.state = 'held';
    expect(statusOf(await askService(socketPath, { op: 'confirm-deletes' })).state).toBe('scanning');
    service.state = 'held';
    expect(statusOf(await askService(socketPath, { op: 'restore' })).state).toBe('scanning');
    expect(service.calls).toEqual(['pause', 'resume', 'sync-now', 'confirm-deletes', 'restore']);
  });

  it.skipIf(process.platform === 'win32')(
    'keeps the socket 0600 in a 0700 folder of the profile',
    async () => {
      await start();
      expect(socketPath).toBe(join(profile, 'run', `${socketPath.split('/').at(-1)}`));
      expect(lstatSync(socketPath).isSocket()).toBe(true);
      expect(lstatSync(socketPath).mode & 0o777).toBe(0o600);
      expect(lstatSync(dirname(socketPath)).mode & 0o777).toBe(0o700);
    },
  );

  it('answers a failing request with its error code and keeps serving', async () => {
    const service = new FakeService();
    service.failPause = new MchError('SIGN_IN_REQUIRED', 'Sign-in needed', 'Sign in again.');
    await start(service);
    expect(await askService(socketPath, { op: 'pause' })).toEqual({
      ok: false,
      error: { code: 'SIGN_IN_REQUIRED', message: 'Sign in again.' },
    });
    expect(statusOf(await askService(socketPath, { op: 'status' })).state).toBe('idle');
  });

  it('removes the socket file on close, after which the client finds no service', async () => {
    const server = await start();
    await server.close();
    await server.close();
    expect(existsSync(socketPath)).toBe(false);
    await expect(askService(socketPath, { op: 'status' })).resolves.toBeUndefined();
  });
});

describe('no service', () => {
  it('gives undefined when the socket folder does not even exist', async () => {
    await expect(askService(socketPath, { op: 'status' })).resolves.toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')(
    'gives undefined for a socket file left by a process that is gone',
    async () => {
      const leftover = await makeStaleSocket();
      await expect(askService(leftover, { op: 'status' })).resolves.toBeUndefined();
    },
  );
});

/** A socket file nobody listens on, as a crash leaves it: a second name of a socket whose server closed. */
async function makeStaleSocket(): Promise<string> {
  const first = `${socketPath}.first`;
  const server = await listenRaw(first, (socket) => socket.destroy());
  linkSync(first, socketPath);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return socketPath;
}

describe.skipIf(process.platform === 'win32')('one service per socket', () => {
  it('replaces a stale socket file', async () => {
    await makeStaleSocket();
    expect(lstatSync(socketPath).isSocket()).toBe(true);
    await start();
    expect(statusOf(await askService(socketPath, { op: 'status' })).state).toBe('idle');
  });

  it('refuses a second server with SERVICE_ALREADY_RUNNING, and the first keeps serving', async () => {
    const first = new FakeService();
    await start(first);
    await expect(startControlServer({ socketPath, handler: new FakeService() })).rejects.toMatchObject({
      code: 'SERVICE_ALREADY_RUNNING',
    });
    await askService(socketPath, { op: 'pause' });
    expect(first.calls).toEqual(['pause']);
  });

  it('never removes a file that is not a socket', async () => {
    mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
    writeFileSync(socketPath, 'precious');
    await expect(startControlServer({ socketPath, handler: new FakeService() })).rejects.toMatchObject({
      code: 'CONTROL_SOCKET_FAILED',
    });
    expect(lstatSync(socketPath).isFile()).toBe(true);
  });
});

describe('hostile clients', () => {
  it('answers garbage with an error and keeps serving', async () => {
    await start();
    const notJson = parseAnswer((await rawExchange('hello\n', false)).trimEnd());
    expect(notJson).toMatchObject({ ok: false, error: { code: 'CONTROL_BAD_REQUEST' } });
    const unknownOp = parseAnswer((await rawExchange('{"op":"rm -rf"}\n', false)).trimEnd());
    expect(unknownOp).toMatchObject({ ok: false, error: { code: 'CONTROL_BAD_REQUEST' } });
    const binary = parseAnswer((await rawExchange(Buffer.from([0xff, 0x00, 0xfe, 0x0a]), false)).trimEnd());
    expect(binary).toMatchObject({ ok: false, error: { code: 'CONTROL_BAD_REQUEST' } });
    const silent = parseAnswer((await rawExchange('', true)).trimEnd());
    expect(silent).toMatchObject({ ok: false, error: { code: 'CONTROL_BAD_REQUEST' } });
    expect(statusOf(await askService(socketPath, { op: 'status' })).state).toBe('idle');
  });

  it('refuses a request past 64 KiB without reading it all', async () => {
    await start();
    const huge = parseAnswer((await rawExchange(Buffer.alloc(200 * 1024, 0x61), true)).trimEnd());
    expect(huge).toMatchObject({ ok: false, error: { code: 'CONTROL_REQUEST_TOO_LARGE' } });
    expect(statusOf(await askService(socketPath, { op: 'status' })).state).toBe('idle');
  });

  it('answers a request sent without a newline when the client ends its side', async () => {
    await start();
    expect(parseAnswer((await rawExchange('{"op":"status"}', true)).trimEnd())).toMatchObject({ ok: true });
  });

  it('answers only the first of several requests on one connection', async () => {
    const service = new FakeService();
    await start(service);
    const text = await rawExchange('{"op":"pause"}\n{"op":"resume"}\n', true);
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(service.calls).toEqual(['pause']);
  });
});

describe('idle clients', () => {
  it('drops a connection that sends no request within the idle time, and keeps serving', async () => {
    const server = await startControlServer({ socketPath, handler: new FakeService(), idleTimeoutMs: 20 });
    cleanup.push(() => server.close());
    expect(await rawExchange('{"op":', false)).toBe('');
    expect(statusOf(await askService(socketPath, { op: 'status' })).state).toBe('idle');
  });
});

describe('broken services', () => {
  it('times out with CONTROL_TIMEOUT when the service never answers', async () => {
    await listenRaw(socketPath, () => {});
    await expect(askService(socketPath, { op: 'status' }, { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'CONTROL_TIMEOUT',
    });
  });

  it('refuses an answer that is not one with CONTROL_BAD_ANSWER', async () => {
    await listenRaw(socketPath, (socket) => socket.end('{"ok":true,"status":{"state":"dancing"}}\n'));
    await expect(askService(socketPath, { op: 'status' })).rejects.toMatchObject({
      code: 'CONTROL_BAD_ANSWER',
    });
  });

  it('refuses a connection closed without an answer with CONTROL_BAD_ANSWER', async () => {
    await listenRaw(socketPath, (socket) => socket.end());
    await expect(askService(socketPath, { op: 'status' })).rejects.toMatchObject({
      code: 'CONTROL_BAD_ANSWER',
    });
  });

  it('stops waiting with ABORTED when the signal fires', async () => {
    await listenRaw(socketPath, () => {});
    const controller = new AbortController();
    const asked = askService(socketPath, { op: 'status' }, { signal: controller.signal });
    controller.abort();
    await expect(asked).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe.skipIf(process.platform === 'win32')('a long profile path', () => {
  it('puts the socket in a 0700 per-user folder under the temp folder, where client and server meet', async () => {
    const deepProfile = join(dir, 'a-profile-folder-with-a-long-name'.repeat(3), 'mch-sync');
    const path = controlSocketPath(deepProfile, '/home/alice/Photos', { tmpdir: dir });
    expect(path.startsWith(join(dir, `mch-sync-${process.getuid?.() ?? 0}`))).toBe(true);
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    await start(new FakeService(), path);
    expect(lstatSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(statusOf(await askService(path, { op: 'status' })).state).toBe('idle');
  });
});
