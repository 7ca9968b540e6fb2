// The mount process on real FUSE mounts: placeholders listed for free, hydrated once when opened, never
// by the no-download list; the passthrough acts on the cache folder; files freed in place when the
// service asks; the engine's state folder hidden; a silent service fails opens in the end; stopping
// and dying leave M usable.
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
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PLACEHOLDER_MARK,
  PLACEHOLDER_XATTR,
  type FreeDone,
  type FreeRefused,
  type HydrateRequest,
  type MountToService,
} from '../../../../app/mount/hydration-protocol.ts';
import { loadFuseAddon } from '../../../../app/mount/fuse-addon.ts';
import { UNMOUNTED_FROM_OUTSIDE_EXIT } from '../../../../app/mount/mount-errors.ts';
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

/** The stand-in for the service: hydrates in a few chunks, or fails when told; asks for frees. */
class HydrationServer {
  readonly requests: HydrateRequest[] = [];
  fail = false;
  /** Says nothing at all about a hydration: a service that is stuck. */
  silent = false;
  chunks = 4;
  chunkDelayMs = 20;
  /** Held until released: lets a test open a file twice while its hydration waits. */
  gate: Promise<void> = Promise.resolve();
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #running = new Set<Promise<void>>();
  readonly #frees = new Map<number, (answer: FreeDone | FreeRefused) => void>();
  #nextFree = 0;

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
          const message = JSON.parse(line) as MountToService;
          if (message.type !== 'hydrate') {
            this.#frees.get(message.req)?.(message);
            continue;
          }
          const hydration = this.#hydrate(socket, message);
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

  /** Asks the mount to free the cache folder's `path`, expecting this size and mtime; its answer. */
  async free(path: string, size: number, mtimeNs: bigint): Promise<FreeDone | FreeRefused> {
    const [socket] = this.#sockets;
    if (socket === undefined) throw new Error('no mount is connected');
    const req = ++this.#nextFree;
    const answer = new Promise<FreeDone | FreeRefused>((resolve) => this.#frees.set(req, resolve));
    socket.write(`${JSON.stringify({ type: 'free', req, path, size, mtimeNs: String(mtimeNs) })}\n`);
    return await answer;
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
    if (this.silent) return;
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
      await new Promise((resolve) => setTimeout(resolve, this.chunkDelayMs));
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
async function startMount(env: NodeJS.ProcessEnv = {}): Promise<unknown> {
  const started = spawn(
    process.execPath,
    [MOUNT_PROCESS, '--source', cache, '--mount', mountPoint, '--socket', server.socketPath],
    { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } },
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

  async function mounted(env: NodeJS.ProcessEnv = {}): Promise<void> {
    expect(await startMount(env)).toEqual({ mounted: true });
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

  it('reads a file the engine replaced behind it whole, longer or shorter, within the attribute timeout', async () => {
    await mounted();
    const file = join(mountPoint, 'changing.txt');
    for (const [before, after] of [
      [10, 300_000],
      [300_000, 10],
      [5, 1_000_000],
    ] as const) {
      writeFileSync(join(cache, 'changing.txt'), 'a'.repeat(before));
      // Read through the mount: its size and pages are now in the kernel's caches.
      expect((await run('cat', [file])).stdout).toHaveLength(before);
      // As a download does: a new file renamed over it in the cache folder.
      writeFileSync(join(cache, '.replacing'), 'b'.repeat(after));
      renameSync(join(cache, '.replacing'), join(cache, 'changing.txt'));
      expect((await run('cat', [file])).stdout).toBe('b'.repeat(after));
    }
    expect(server.requests).toEqual([]);
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

  it("offers no extended attributes, so the client's own (user.mch.*) stay out of sight and reach", async () => {
    placeholder('tagged.txt', 10);
    await mounted();
    const file = join(mountPoint, 'tagged.txt');
    const answers = python(
      `import os, sys
for call in (lambda: os.listxattr(sys.argv[1]), lambda: os.getxattr(sys.argv[1], '${PLACEHOLDER_XATTR}'), lambda: os.setxattr(sys.argv[1], 'user.mch.x', b'1'), lambda: os.removexattr(sys.argv[1], '${PLACEHOLDER_XATTR}'), lambda: os.setxattr(sys.argv[1], 'user.color', b'red')):
    try:
        call(); print('allowed')
    except OSError as e:
        print(os.strerror(e.errno))`,
      file,
    );
    expect(answers.trim().split('\n')).toEqual(Array(5).fill('Operation not supported'));
    // Still marked in the cache folder, and nothing downloaded.
    expect(python(LIST_ATTRIBUTES, join(cache, 'tagged.txt'))).toContain(PLACEHOLDER_XATTR);
    expect(server.requests).toEqual([]);
  });

  /** What a free keeps and changes, from the cache folder (never through M). */
  async function factsOf(
    path: string,
  ): Promise<{ ino: bigint; size: bigint; mtimeNs: bigint; blocks: bigint }> {
    const { ino, size, mtimeNs, blocks } = await stat(join(cache, path), { bigint: true });
    return { ino, size, mtimeNs, blocks };
  }

  /** An mtime with nanoseconds a double of milliseconds cannot hold. */
  function setMtimeNs(path: string, mtimeNs: bigint): void {
    python(
      'import os, sys; os.utime(sys.argv[1], ns=(int(sys.argv[2]), int(sys.argv[2])))',
      join(cache, path),
      String(mtimeNs),
    );
  }

  it('frees a hydrated file in place when the service asks, and a later cat hydrates it again', async () => {
    placeholder('free/me.bin', 200_000);
    await mounted();
    const at = join(mountPoint, 'free/me.bin');
    expect((await runBuffer('cat', [at])).equals(contentOf('free/me.bin', 200_000))).toBe(true);
    await server.idle();
    setMtimeNs('free/me.bin', 1_709_618_828_123_456_789n);
    const before = await factsOf('free/me.bin');
    expect(before.blocks).toBeGreaterThan(0n);

    expect(await server.free('free/me.bin', 200_000, before.mtimeNs)).toEqual({ type: 'freed', req: 1 });
    const after = await factsOf('free/me.bin');
    expect(after).toEqual({ ...before, blocks: 0n });
    expect(after.mtimeNs).toBe(1_709_618_828_123_456_789n);
    expect(isPlaceholder('free/me.bin')).toBe(true);

    placeholders.set('free/me.bin', { size: 200_000, mtime: MTIME });
    expect((await runBuffer('cat', [at])).equals(contentOf('free/me.bin', 200_000))).toBe(true);
    expect(server.requests.map((request) => request.path)).toEqual(['free/me.bin', 'free/me.bin']);
  });

  it('answers freed at once for a placeholder, and leaves it as it is', async () => {
    placeholder('already.bin', 5_000);
    await mounted();
    const before = await factsOf('already.bin');

    expect(await server.free('already.bin', 5_000, before.mtimeNs)).toEqual({ type: 'freed', req: 1 });
    expect(await factsOf('already.bin')).toEqual(before);
    expect(isPlaceholder('already.bin')).toBe(true);
    expect(server.requests).toEqual([]);
  });

  it('refuses with EBUSY while a program holds the file open through the mount, and frees it once closed', async () => {
    writeFileSync(join(cache, 'held.txt'), 'held content');
    await mounted();
    const { size, mtimeNs } = await factsOf('held.txt');
    const holder = spawn(
      'sh',
      ['-c', 'exec 3<"$0"; echo opened; exec sleep 30', join(mountPoint, 'held.txt')],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      await once(holder.stdout, 'data');
      const refused = await server.free('held.txt', Number(size), mtimeNs);
      expect(refused).toMatchObject({ type: 'free-refused', req: 1, errno: 'EBUSY' });
      expect(readFileSync(join(cache, 'held.txt'), 'utf8')).toBe('held content');
      expect(isPlaceholder('held.txt')).toBe(false);
    } finally {
      const exited = once(holder, 'exit');
      holder.kill('SIGKILL');
      await exited;
    }
    // The kernel sends the release of the closed file a moment after the program ends.
    let answer: FreeDone | FreeRefused = await server.free('held.txt', Number(size), mtimeNs);
    for (let tries = 0; answer.type !== 'freed' && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await server.free('held.txt', Number(size), mtimeNs);
    }
    expect(answer.type).toBe('freed');
    expect(isPlaceholder('held.txt')).toBe(true);
  });

  it('never lets a read see a file half freed: frees racing cats end freed or EBUSY, every cat whole', async () => {
    placeholder('race.bin', 300_000);
    server.chunks = 2;
    server.chunkDelayMs = 0;
    await mounted();
    const at = join(mountPoint, 'race.bin');
    const whole = contentOf('race.bin', 300_000);
    const mtimeNs = BigInt(MTIME.getTime()) * 1_000_000n;

    const answers = new Set<string>();
    for (let round = 0; round < 15; round++) {
      const [content, answer] = await Promise.all([
        runBuffer('cat', [at]),
        new Promise((resolve) => setTimeout(resolve, round * 3)).then(() =>
          server.free('race.bin', 300_000, mtimeNs),
        ),
      ]);
      expect(content.equals(whole)).toBe(true);
      answers.add(answer.type === 'freed' ? 'freed' : answer.errno);
      await server.idle();
    }
    expect([...answers].every((answer) => answer === 'freed' || answer === 'EBUSY')).toBe(true);
  });

  it('refuses with ESTALE when the size or mtime is not what the service expects, and changes nothing', async () => {
    writeFileSync(join(cache, 'changed.txt'), 'changed since the index saw it');
    await mounted();
    const before = await factsOf('changed.txt');

    expect(await server.free('changed.txt', Number(before.size) + 1, before.mtimeNs)).toMatchObject({
      type: 'free-refused',
      errno: 'ESTALE',
    });
    expect(await server.free('changed.txt', Number(before.size), before.mtimeNs - 1n)).toMatchObject({
      type: 'free-refused',
      errno: 'ESTALE',
    });
    expect(await factsOf('changed.txt')).toEqual(before);
    expect(readFileSync(join(cache, 'changed.txt'), 'utf8')).toBe('changed since the index saw it');
    expect(isPlaceholder('changed.txt')).toBe(false);
  });

  it('refuses with ENOENT when there is no regular file at the path', async () => {
    mkdirSync(join(cache, 'folder'));
    writeFileSync(join(cache, 'target.txt'), 'target');
    execFileSync('ln', ['-s', 'target.txt', join(cache, 'link')]);
    await mounted();

    for (const path of ['missing.txt', 'folder', 'link', 'target.txt/below']) {
      expect(await server.free(path, 6, 0n)).toMatchObject({ type: 'free-refused', errno: 'ENOENT' });
    }
    expect(readFileSync(join(cache, 'target.txt'), 'utf8')).toBe('target');
  });

  it("hides the engine's state folder at the root: not listed, found, made, moved onto or removed", async () => {
    mkdirSync(join(cache, '.mch-sync/trash'), { recursive: true });
    writeFileSync(join(cache, '.mch-sync/folder-id'), 'marker');
    writeFileSync(join(cache, 'a.txt'), 'a');
    mkdirSync(join(cache, 'sub'));
    await mounted();
    const hidden = join(mountPoint, '.mch-sync');

    expect((await readdir(mountPoint)).sort()).toEqual(['a.txt', 'sub']);
    expect((await run('ls', ['-a', mountPoint])).stdout.split('\n').filter(Boolean)).toEqual([
      '.',
      '..',
      'a.txt',
      'sub',
    ]);
    for (const path of [hidden, join(hidden, 'folder-id')]) {
      expect(await stat(path).catch((error: NodeJS.ErrnoException) => error.code)).toBe('ENOENT');
    }
    expect((await run('rm', ['-rf', hidden])).code).toBe(0); // nothing there to remove
    expect((await run('mkdir', [hidden])).stderr).toContain('Operation not permitted');
    expect((await run('touch', [hidden])).stderr).toContain('Operation not permitted');
    expect((await run('mv', [join(mountPoint, 'a.txt'), hidden])).stderr).toContain(
      'Operation not permitted',
    );
    expect((await run('ln', ['-s', 'a.txt', hidden])).stderr).toContain('Operation not permitted');
    expect(readFileSync(join(cache, '.mch-sync/folder-id'), 'utf8')).toBe('marker');
    expect(readFileSync(join(cache, 'a.txt'), 'utf8')).toBe('a');

    // Only the root's: a folder of that name further down is the user's.
    await mkdir(join(mountPoint, 'sub/.mch-sync'));
    expect(await readdir(join(mountPoint, 'sub'))).toEqual(['.mch-sync']);
    expect(existsSync(join(cache, 'sub/.mch-sync'))).toBe(true);
  });

  it('fails an open with EIO when the service says nothing about its hydration for the limit', async () => {
    placeholder('stuck.bin', 1_000);
    server.silent = true;
    await mounted({ MCH_HYDRATION_ANSWER_TIMEOUT_MS: '1000' });

    const began = Date.now();
    const read = await run('cat', [join(mountPoint, 'stuck.bin')]);
    expect(read.code).not.toBe(0);
    expect(read.stderr).toContain('Input/output error');
    expect(Date.now() - began).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(1);
    expect(isPlaceholder('stuck.bin')).toBe(true);
  });

  it('keeps waiting while the service reports progress, however long the whole hydration takes', async () => {
    placeholder('slow.bin', 40_000);
    server.chunks = 5;
    server.chunkDelayMs = 500; // 2.5 s in all, each step within the 1 s limit
    await mounted({ MCH_HYDRATION_ANSWER_TIMEOUT_MS: '1000' });

    const content = await runBuffer('cat', [join(mountPoint, 'slow.bin')]);
    expect(content.equals(contentOf('slow.bin', 40_000))).toBe(true);
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

  it('ends with UNMOUNTED_FROM_OUTSIDE_EXIT when another program unmounts its folder', async () => {
    await mounted();
    const running = child!;
    const exited = once(running, 'exit');
    expect((await run('fusermount', ['-u', mountPoint])).code).toBe(0);
    expect((await exited)[0]).toBe(UNMOUNTED_FROM_OUTSIDE_EXIT);
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
