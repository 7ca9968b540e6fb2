// Hydration tests' tools: an on-demand pair with placeholders, the mount's end of the socket, a device that stalls.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { HydrationEvent } from '../../app/on-demand/hydrator.ts';
import { isPlaceholder } from '../../app/sync/local/placeholders.ts';
import type { ServiceToMount } from '../../app/mount/hydration-protocol.ts';
import type { NewPair } from './fixtures.ts';
import { startHostileServer, type HostileServer, type SeenRequest } from './hostile-server.ts';
import type { PairOptions, SyncPair } from './sync-pair.ts';

/** An on-demand pair (nothing kept whole) whose device folder holds `files`, synced once: all placeholders. */
export async function placeholderPair(
  newPair: NewPair,
  files: Record<string, string>,
  options: Omit<PairOptions, 'engine'> = {},
): Promise<SyncPair> {
  const pair = newPair({ ...options, engine: { onDemand: { keepsContent: () => false } } });
  for (const [path, text] of Object.entries(files)) await pair.writeRemote(path, text);
  const report = await pair.sync();
  if (report.status !== 'synced') throw new Error(`the first pass ended ${report.status}`);
  for (const path of Object.keys(files)) {
    if (!isPlaceholder(pair.local(path))) throw new Error(`${path} is no placeholder after the pass`);
  }
  return pair;
}

/** Text that differs at every offset (a shifted or repeated block would show), `bytes` long. */
export function distinctText(bytes: number, seed = 'x'): string {
  let text = '';
  for (let line = 0; text.length < bytes; line++) text += `${seed}${line.toString(36)}|`;
  return text.slice(0, bytes);
}

/** The requests for a file's content in `requests` (`pair.client.requests()`). */
export function contentGets(requests: string[]): string[] {
  return requests.filter((request) => /^GET .*\/content$/.test(request));
}

/** Expects the file at `path` to be an untouched placeholder: the mark, and its row's inode, size and mtime. */
export function expectIntactPlaceholder(pair: SyncPair, path: string): void {
  const stats = statSync(pair.local(path), { bigint: true });
  const row = pair.index.byPath(path);
  expect(isPlaceholder(pair.local(path))).toBe(true);
  expect(row?.inode).toBe(stats.ino.toString());
  expect(stats.size).toBe(BigInt(row?.localSize ?? -1));
  expect(stats.mtimeNs).toBe(row?.localMtimeNs);
}

/** Expects `path` whole: `text`, no mark, and the inode, size and mtime (ns) of the row of `rowPath`. */
export function expectHydrated(pair: SyncPair, path: string, text: string, rowPath = path): void {
  expect(pair.readLocal(path)).toBe(text);
  expect(isPlaceholder(pair.local(path))).toBe(false);
  const stats = statSync(pair.local(path), { bigint: true });
  const row = pair.index.byPath(rowPath);
  expect(row?.inode).toBe(stats.ino.toString());
  expect(stats.size).toBe(BigInt(row?.localSize ?? -1));
  expect(stats.mtimeNs).toBe(row?.localMtimeNs);
}

/** Runs one hydration and gives every event it told, in order. */
export async function hydrateEvents(
  hydrator: { hydrate: (path: string, listener: (event: HydrationEvent) => void) => Promise<void> },
  path: string,
  onEvent: (event: HydrationEvent) => void = () => undefined,
): Promise<HydrationEvent[]> {
  const events: HydrationEvent[] = [];
  await hydrator.hydrate(path, (event) => {
    events.push(event);
    onEvent(event);
  });
  return events;
}

/**
 * Expects `events` to be a whole successful hydration of `size` bytes: `started` first, progress
 * increasing to the size, then `done` last, nothing after.
 */
export function expectWholeHydration(
  events: readonly (HydrationEvent | ServiceToMount)[],
  size: number,
): void {
  const kinds = events.map((event) => event.type);
  expect(kinds[0]).toBe('started');
  expect(kinds.at(-1)).toBe('done');
  expect(kinds.slice(1, -1).every((kind) => kind === 'progress')).toBe(true);
  expect(events[0]).toMatchObject({ size });
  const bytes = events.flatMap((event) => (event.type === 'progress' ? [event.bytes] : []));
  for (let index = 1; index < bytes.length; index++) {
    expect(bytes[index]).toBeGreaterThan(bytes[index - 1] ?? Infinity);
  }
  if (size > 0) expect(bytes.at(-1)).toBe(size);
}

/** The mount's end of the hydration socket, as a test drives it: raw lines out, parsed lines in. */
export interface MountEnd {
  readonly socket: Socket;
  /** Every message the service sent, in order. */
  readonly received: ServiceToMount[];
  /** Resolves when the service closed the connection (or it failed). */
  readonly closed: Promise<void>;
  /** Sends one line (a newline is added). */
  send(line: string | object): void;
  /** Resolves with the messages for `req` once its `done` or `failed` came. */
  answerOf(req: number): Promise<ServiceToMount[]>;
  end(): void;
}

export async function connectMount(socketPath: string): Promise<MountEnd> {
  const socket = createConnection(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const received: ServiceToMount[] = [];
  const waiting: (() => void)[] = [];
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) received.push(JSON.parse(line) as ServiceToMount);
    for (const wake of waiting.splice(0)) wake();
  });
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => {
      resolve();
      for (const wake of waiting.splice(0)) wake();
    });
    socket.on('error', () => undefined);
  });
  const answerOf = async (req: number): Promise<ServiceToMount[]> => {
    for (;;) {
      const own = received.filter((message) => message.req === req);
      if (own.some((message) => message.type === 'done' || message.type === 'failed')) return own;
      if (socket.destroyed) throw new Error(`the connection closed before request ${req} was answered`);
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };
  return {
    socket,
    received,
    closed,
    send: (line) => socket.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`),
    answerOf,
    end: () => socket.destroy(),
  };
}

/** A hydrate request line as the mount sends it. */
export function hydrateLine(req: number, path: string): object {
  return { type: 'hydrate', req, path, pid: 4242, process: 'cat' };
}

export interface StallingProxy extends HostileServer {
  /**
   * What the proxy does with the next content requests: forward them (undefined), or answer their
   * headers and this many body bytes and then send nothing more, the connection kept open (a device
   * that stopped answering mid-way; 0: before any byte).
   */
  stallAfter: number | undefined;
  /** Content requests that went through it. */
  readonly contentRequests: SeenRequest[];
}

/** A proxy in front of the device that can stop answering content requests part way, without closing. */
export async function startStallingProxy(target: string): Promise<StallingProxy> {
  const contentRequests: SeenRequest[] = [];
  const proxy: StallingProxy = Object.assign(
    await startHostileServer((request, response, body) => {
      const seen = { method: request.method ?? '', url: request.url ?? '', headers: request.headers };
      const content = /\/content$/.test(new URL(seen.url, target).pathname);
      if (content) contentRequests.push(seen);
      const limit = content ? proxy.stallAfter : undefined;
      const upstream = httpRequest(
        new URL(seen.url, target),
        { method: seen.method, headers: { ...request.headers, host: new URL(target).host } },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          let sent = 0;
          answer.on('data', (chunk: Buffer) => {
            if (limit !== undefined && sent + chunk.length > limit) {
              response.write(chunk.subarray(0, Math.max(0, limit - sent)));
              sent = limit;
              // Nothing more, ever: the device's answer is dropped, the client's connection kept.
              answer.destroy();
              return;
            }
            sent += chunk.length;
            response.write(chunk);
          });
          answer.on('end', () => response.end());
        },
      );
      upstream.on('error', () => undefined);
      upstream.end(body);
    }),
    { stallAfter: undefined, contentRequests },
  );
  return proxy;
}

/** The mount points at or below `path` (none once every mount there is gone). */
export function mountsBelow(path: string): string[] {
  return readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((point) => point.startsWith(path));
}

/** The device's stored content of the one file holding `text` (its blob), found in its data folder. */
export function blobHolding(dataDir: string, text: string): string {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (readFileSync(path, 'utf8') === text) found.push(path);
    }
  };
  walk(join(dataDir, 'content'));
  expect(found).toHaveLength(1);
  return found[0] ?? '';
}
