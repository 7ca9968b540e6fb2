// The mount process on real FUSE mounts: placeholders listed for free, hydrated once when opened, never
// by the no-download list; the passthrough acts on the cache folder; stopping and dying leave M usable.
//
// The mount process is a child (the test process never serves the mount it reads), and a small server
// here stands in for the service. Every command that reads M runs asynchronously: a synchronous one
// would stop this process's event loop, and with it the stand-in the mount is waiting for.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PLACEHOLDER_MARK,
  PLACEHOLDER_XATTR,
  type HydrateRequest,
} from '../../../../app/mount/hydration-protocol.ts';
import { loadFuseAddon } from '../../../../app/mount/fuse-addon.ts';
import { cleanStaleMount, isOurMount } from '../../../../app/mount/stale-mount.ts';

const MOUNT_PROCESS = join(import.meta.dirname, '../../../../app/mount/mount-process.ts');
const MTIME = new Date('2024-03-05T06:07:08Z');

function fuseMissing(): string | null {
  try {
    return loadFuseAddon().fuseUnavailable();
  } catch (error) {
    return (error as Error).message;
  }
}

/** Known content for a path: its own bytes, so a byte from the wrong place shows. */
function contentOf(path: string, size: number): Buffer {
  const content = Buffer.alloc(size);
  for (let i = 0; i < size; i += 32) {
    content.write(createHash('sha256').update(`${path}:${i}`).digest('hex').slice(0, 32), i);
  }
  return content;
}

function python(script: string, ...args: string[]): string {
  return execFileSync('python3', ['-c', script, ...args], { encoding: 'utf8' });
}

/** Output and exit of a command, run without blocking this process (see above). */
function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { encoding: 'utf8', maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

function runBuffer(command: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: 'buffer', maxBuffer: 64 << 20 }, (error, stdout) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`${command} failed: ${error.message}`, { cause: error }));
    });
  });
}

const REMOVE_ATTRIBUTE = `import os, sys; os.removexattr(sys.argv[1], '${PLACEHOLDER_XATTR}')`;
const SET_ATTRIBUTE = `import os, sys; os.setxattr(sys.argv[1], '${PLACEHOLDER_XATTR}', sys.argv[2].encode())`;
const LIST_ATTRIBUTES = 'import os, sys; print(sorted(os.listxattr(sys.argv[1])))';

/** What the service knows of each placeholder (from its index): the content's size and mtime. */
const placeholders = new Map<string, { size: number; mtime: Date }>();

/** The stand-in for the service: hydrates in a few chunks, or fails when told. */
class HydrationServer {
  readonly requests: HydrateRequest[] = [];
  fail = false;
  chunks = 4;
  /** Held until released: lets a test open a file twice while its hydration waits. */
  gate: Promise<void> = Promise.resolve();
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #running = new Set<Promise<void>>();

  readonly socketPath: string;
  readonly cache: string;

  constructor(socketPath: string, cache: string) {
    this.socketPath = socketPath;
    this.cache = cache;
    this.#server = createServer((socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => undefined); // the mount process killed mid-hydration
      let pending = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const hydration = this.#hydrate(socket, JSON.parse(line) as HydrateRequest);
          this.#running.add(hydration);
          void hydration.finally(() => this.#running.delete(hydration));
        }
      });
    });
  }

  async listen(): Promise<void> {
    this.#server.listen(this.socketPath);
    await once(this.#server, 'listening');
  }

  /** Until every hydration asked for has sent its `done` or `failed`. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  async close(): Promise<void> {
    await this.idle();
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
    await once(this.#server, 'close').catch(() => undefined);
  }

  async #hydrate(socket: Socket, request: HydrateRequest): Promise<void> {
    this.requests.push(request);
    const send = (message: object): void => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
    };
    await this.gate;
    if (this.fail) {
      send({ type: 'failed', req: request.req, errno: 'ENETUNREACH', message: 'offline' });
      return;
    }
    const file = join(this.cache, request.path);
    const facts = placeholders.get(request.path);
    if (facts === undefined) {
      send({ type: 'failed', req: request.req, errno: 'ENOENT', message: 'not a placeholder' });
      return;
    }
    const content = contentOf(request.path, facts.size);
    send({ type: 'started', req: request.req, size: facts.size });
    const fd = openSync(file, 'r+');
    const step = Math.ceil(facts.size / this.chunks);
    for (let at = 0; at < facts.size; at += step) {
      writeSync(fd, content, at, Math.min(step, facts.size - at), at);
      send({ type: 'progress', req: request.req, bytes: Math.min(at + step, facts.size) });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    closeSync(fd);
    utimesSync(file, facts.mtime, facts.mtime);
    python(REMOVE_ATTRIBUTE, file);
    send({ type: 'done', req: request.req });
  }
}

let root: string;
let cache: string;
let mountPoint: string;
let server: HydrationServer;
let child: ChildProcess | undefined;

/** A placeholder in the cache folder, as the engine makes one: sparse, real size and mtime, marked. */
function placeholder(path: string, size: number): void {
  const file = join(cache, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '');
  execFileSync('truncate', ['-s', String(size), file]);
  utimesSync(file, MTIME, MTIME);
  python(SET_ATTRIBUTE, file, PLACEHOLDER_MARK);
  placeholders.set(path, { size, mtime: MTIME });
}

function isPlaceholder(path: string): boolean {
  return python(LIST_ATTRIBUTES, join(cache, path)).includes(PLACEHOLDER_XATTR);
}

/** Starts the mount process and waits for its first line; the line is returned. */
async function startMount(): Promise<unknown> {
  const started = spawn(
    process.execPath,
    [MOUNT_PROCESS, '--source', cache, '--mount', mountPoint, '--socket', server.socketPath],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  child = started;
  let output = '';
  started.stdout.setEncoding('utf8');
  while (!output.includes('\n')) {
    const [chunk] = (await Promise.race([once(started.stdout, 'data'), once(started, 'exit')])) as [
      string | number,
    ];
    if (typeof chunk !== 'string') break;
    output += chunk;
  }
  return JSON.parse(output.split('\n')[0] ?? 'null');
}

async function stopMount(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  const running = child;
  child = undefined;
  if (running === undefined || running.exitCode !== null) return running?.exitCode ?? null;
  const exited = once(running, 'exit');
  running.kill(signal);
  const [code] = (await exited) as [number | null];
  return code;
}

describe.skipIf(fuseMissing() !== null)('the mount process (real FUSE mounts)', { timeout: 120_000 }, () => {
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'mch-mount-'));
    placeholders.clear();
    cache = join(root, 'cache');
    mountPoint = join(root, 'mount');
    mkdirSync(cache);
    mkdirSync(mountPoint);
    server = new HydrationServer(join(root, 'hydrate.sock'), cache);
    await server.listen();
  }, 60_000);

  afterEach(async () => {
    await stopMount();
    await cleanStaleMount(mountPoint);
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  async function mounted(): Promise<void> {
    expect(await startMount()).toEqual({ mounted: true });
  }

  it('lists, finds, stats and sizes placeholders without hydrating, with their real sizes and times', async () => {
    writeFileSync(join(cache, 'real.txt'), 'real\n');
    placeholder('docs/report.pdf', 123_456);
    placeholder('photo.jpg', 2_000_000);
    await mounted();

    const listing = await run('ls', ['-lR', mountPoint]);
    expect(listing.stdout).toMatch(/123456 .*report\.pdf/);
    expect(listing.stdout).toMatch(/2000000 .*photo\.jpg/);
    const found = await run('find', [mountPoint, '-type', 'f']);
    expect(found.stdout.split('\n').filter(Boolean).sort()).toEqual(
      ['docs/report.pdf', 'photo.jpg', 'real.txt'].map((name) => join(mountPoint, name)),
    );
    const stats = await run('stat', ['-c', '%s %Y', join(mountPoint, 'docs/report.pdf')]);
    expect(stats.stdout.trim()).toBe(`123456 ${MTIME.getTime() / 1000}`);
    const usage = await run('du', ['-s', '-b', '--apparent-size', mountPoint]);
    expect(Number(usage.stdout.split('\t')[0])).toBeGreaterThanOrEqual(123_456 + 2_000_000 + 5);
    expect(server.requests).toEqual([]);
    expect(isPlaceholder('photo.jpg')).toBe(true);
  });

  it('hydrates a placeholder once when cat opens it, and prints its content', async () => {
    placeholder('notes.txt', 5_000);
    await mounted();

    const first = await runBuffer('cat', [join(mountPoint, 'notes.txt')]);
    expect(first.equals(contentOf('notes.txt', 5_000))).toBe(true);
    expect(server.requests).toEqual([
      {
        type: 'hydrate',
        req: expect.any(Number) as number,
        path: 'notes.txt',
        pid: expect.any(Number) as number,
        process: 'cat',
      },
    ]);
    await server.idle(); // cat ends once it has every byte, which may be before `done`
    expect(isPlaceholder('notes.txt')).toBe(false);
    expect((await stat(join(cache, 'notes.txt'))).mtimeMs).toBe(MTIME.getTime());

    const again = await runBuffer('cat', [join(mountPoint, 'notes.txt')]);
    expect(again.equals(first)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('makes one request for two programs opening the same placeholder at once', async () => {
    placeholder('shared.bin', 64_000);
    let release!: () => void;
    server.gate = new Promise((resolve) => (release = resolve));
    await mounted();

    const reads = [1, 2].map(() => runBuffer('cat', [join(mountPoint, 'shared.bin')]));
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 500)); // the second open joins meanwhile
    release();
    const [a, b] = await Promise.all(reads);
    expect(a!.equals(contentOf('shared.bin', 64_000))).toBe(true);
    expect(b!.equals(a!)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('gives the right bytes of a large file read while it streams in, chunk by chunk', async () => {
    const size = 6 * 1024 * 1024 + 123;
    placeholder('big/video.mp4', size);
    server.chunks = 24;
    await mounted();

    const content = await runBuffer('cat', [join(mountPoint, 'big/video.mp4')]);
    expect(content.length).toBe(size);
    expect(createHash('sha256').update(content).digest('hex')).toBe(
      createHash('sha256').update(contentOf('big/video.mp4', size)).digest('hex'),
    );
    expect(server.requests).toHaveLength(1);
  });

  it('answers "Permission denied" to a program on the no-download list, and asks for nothing', async () => {
    placeholder('thumb.png', 10_000);
    const tumblerd = join(root, 'tumblerd');
    copyFileSync('/bin/cat', tumblerd);
    await mounted();

    const read = await run(tumblerd, [join(mountPoint, 'thumb.png')]);
    expect(read.code).not.toBe(0);
    expect(read.stderr).toContain('Permission denied');
    expect(server.requests).toEqual([]);
    expect(isPlaceholder('thumb.png')).toBe(true);
  });

  it('fails the open with "Network is unreachable" when the service answers failed ENETUNREACH', async () => {
    placeholder('far.txt', 1_000);
    server.fail = true;
    await mounted();

    const read = await run('cat', [join(mountPoint, 'far.txt')]);
    expect(read.code).not.toBe(0);
    expect(read.stderr).toContain('Network is unreachable');
    expect(isPlaceholder('far.txt')).toBe(true);
  });

  it('empties a placeholder opened with O_TRUNC without downloading it', async () => {
    placeholder('over.txt', 50_000);
    await mounted();

    const write = await run('sh', ['-c', `echo x > '${join(mountPoint, 'over.txt')}'`]);
    expect(write).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(cache, 'over.txt'), 'utf8')).toBe('x\n');
    expect(isPlaceholder('over.txt')).toBe(false);
    expect(server.requests).toEqual([]);
  });

  it('hydrates before an append, touch or truncate above 0; a truncate to 0 downloads nothing', async () => {
    for (const name of ['append.txt', 'touch.txt', 'cut.txt', 'zero.txt']) placeholder(name, 1_000);
    await mounted();
    const at = (name: string): string => join(mountPoint, name);

    expect((await run('sh', ['-c', `echo more >> '${at('append.txt')}'`])).code).toBe(0);
    expect((await run('touch', ['-d', '2020-01-02T03:04:05Z', at('touch.txt')])).code).toBe(0);
    expect((await run('truncate', ['-s', '10', at('cut.txt')])).code).toBe(0);
    expect((await run('truncate', ['-s', '0', at('zero.txt')])).code).toBe(0);

    const content = (name: string): Buffer => readFileSync(join(cache, name));
    expect(
      content('append.txt').equals(Buffer.concat([contentOf('append.txt', 1_000), Buffer.from('more\n')])),
    ).toBe(true);
    expect(content('touch.txt').equals(contentOf('touch.txt', 1_000))).toBe(true);
    expect((await stat(join(cache, 'touch.txt'))).mtime.toISOString()).toBe('2020-01-02T03:04:05.000Z');
    expect(content('cut.txt').equals(contentOf('cut.txt', 1_000).subarray(0, 10))).toBe(true);
    expect(content('zero.txt').length).toBe(0);
    expect(server.requests.map((request) => request.path).sort()).toEqual([
      'append.txt',
      'cut.txt',
      'touch.txt',
    ]);
    for (const name of ['append.txt', 'touch.txt', 'cut.txt', 'zero.txt'])
      expect(isPlaceholder(name)).toBe(false);
  });

  it('moves, removes and makes folders in the cache folder', async () => {
    writeFileSync(join(cache, 'a.txt'), 'a');
    placeholder('p.bin', 100);
    mkdirSync(join(cache, 'old'));
    await mounted();

    expect((await run('mv', [join(mountPoint, 'a.txt'), join(mountPoint, 'b.txt')])).code).toBe(0);
    expect((await run('mv', [join(mountPoint, 'p.bin'), join(mountPoint, 'old/p.bin')])).code).toBe(0);
    expect((await run('mkdir', [join(mountPoint, 'new')])).code).toBe(0);
    expect((await run('rm', [join(mountPoint, 'b.txt')])).code).toBe(0);
    expect((await run('rm', [join(mountPoint, 'old/p.bin')])).code).toBe(0);
    expect((await run('rmdir', [join(mountPoint, 'old')])).code).toBe(0);
    expect((await readdir(cache)).sort()).toEqual(['new']);
    expect(server.requests).toEqual([]);
  });

  it("hides the client's own attributes (user.mch.*) and passes others through", async () => {
    placeholder('tagged.txt', 10);
    await mounted();
    const file = join(mountPoint, 'tagged.txt');

    expect(python(LIST_ATTRIBUTES, file).trim()).toBe('[]');
    python("import os, sys; os.setxattr(sys.argv[1], 'user.color', b'red')", file);
    expect(python(LIST_ATTRIBUTES, file).trim()).toBe("['user.color']");
    expect(python(LIST_ATTRIBUTES, join(cache, 'tagged.txt'))).toContain(PLACEHOLDER_XATTR);
    const refused = python(
      `import os, sys
for call in (lambda: os.getxattr(sys.argv[1], '${PLACEHOLDER_XATTR}'), lambda: os.setxattr(sys.argv[1], 'user.mch.x', b'1'), lambda: os.removexattr(sys.argv[1], '${PLACEHOLDER_XATTR}')):
    try:
        call(); print('allowed')
    except OSError as e:
        print(os.strerror(e.errno))`,
      file,
    );
    expect(refused.trim().split('\n')).toEqual([
      'No data available',
      'Operation not permitted',
      'Operation not permitted',
    ]);
    expect(server.requests).toEqual([]);
  });

  it('unmounts cleanly on SIGTERM', async () => {
    writeFileSync(join(cache, 'kept.txt'), 'kept');
    await mounted();
    expect(await isOurMount(mountPoint)).toBe(true);

    expect(await stopMount('SIGTERM')).toBe(0);
    expect(await isOurMount(mountPoint)).toBe(false);
    expect(await readdir(mountPoint)).toEqual([]);
    expect(existsSync(join(cache, 'kept.txt'))).toBe(true);
  });

  it('unmounts when its stdin closes (the parent died)', async () => {
    await mounted();
    const running = child!;
    const exited = once(running, 'exit');
    running.stdin!.end();
    expect((await exited)[0]).toBe(0);
    child = undefined;
    expect(await isOurMount(mountPoint)).toBe(false);
  });

  it('leaves a dead mount when killed, which cleanStaleMount clears so the folder is usable again', async () => {
    writeFileSync(join(cache, 'kept.txt'), 'kept');
    await mounted();
    await stopMount('SIGKILL');

    const dead = await stat(mountPoint).then(
      () => 'ok',
      (error: NodeJS.ErrnoException) => error.code,
    );
    expect(dead).toBe('ENOTCONN');
    expect(await cleanStaleMount(mountPoint)).toBe(true);
    expect(await readdir(mountPoint)).toEqual([]);
    expect(await cleanStaleMount(mountPoint)).toBe(false);

    await mounted();
    expect((await run('cat', [join(mountPoint, 'kept.txt')])).stdout).toBe('kept');
  });

  it('refuses a mount point that is not empty, with MOUNT_POINT_NOT_EMPTY', async () => {
    writeFileSync(join(mountPoint, 'mine.txt'), 'mine');
    expect(await startMount()).toMatchObject({ error: { code: 'MOUNT_POINT_NOT_EMPTY' } });
    expect(child!.exitCode ?? (await once(child!, 'exit'))[0]).toBe(1);
  });
});
