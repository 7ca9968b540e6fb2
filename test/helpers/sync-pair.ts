// A synced folder pair for engine tests: a temp local folder, a remote folder, an engine with a recording client.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { DeviceClient, RemoteFile } from '../../app/api/device-client.ts';
import { openIndexDb, type IndexDb } from '../../app/index/index-db.ts';
import { IndexStore } from '../../app/index/index-store.ts';
import {
  SyncEngine,
  type EngineLogLine,
  type SyncEngineOptions,
  type SyncOptions,
} from '../../app/sync/engine.ts';
import type { PassReport } from '../../app/sync/pass-report.ts';
import { ensureRemoteFolder } from '../../app/sync/remote/remote-folder.ts';
import { walkRemote } from '../../app/sync/remote/remote-walk.ts';
import { clientFor, type RecordedClient } from './api-client.ts';
import type { TestDevice } from './device.ts';
import { startHostileServer, type HostileServer, type SeenRequest } from './hostile-server.ts';

/** `METHOD /path` requests that change the device or move content. */
export function isWrite(request: string): boolean {
  return /^(POST|PUT|PATCH|DELETE) /.test(request) || /^GET .*\/(content|resumable)$/.test(request);
}

/** Requests that carry file content either way (uploads and downloads). */
export function isTransfer(request: string): boolean {
  return (
    /^GET .*\/content$/.test(request) ||
    /^PUT .*\/content$/.test(request) ||
    /^POST \/sdk\/v2\/files(\/resumable)?$/.test(request)
  );
}

/** One item of a tree: a folder, or a file with its text. */
export type TreeItem = { kind: 'folder' } | { kind: 'file'; text: string };

/** path → item, sorted by path, for `toEqual` on whole trees. */
export type Tree = Record<string, TreeItem>;

export interface PairOptions {
  /** Shared with another pair to sync two computers with one remote folder. */
  remoteFolder?: string;
  /** Extra engine options (a clock, a delete guard, a log). */
  engine?: Partial<Omit<SyncEngineOptions, 'client' | 'index' | 'localRoot' | 'remoteFolder'>>;
  /** A file index instead of `:memory:` (to reopen it, as after a restart). */
  indexFile?: boolean;
  /** The engine's client talks to this base instead (a proxy in front of the device). */
  deviceUrl?: string;
}

export class SyncPair {
  readonly device: TestDevice;
  /** Holds `local/`, `home/` and maybe `index.db`; removed by `close()`. */
  readonly dir: string;
  readonly localRoot: string;
  /** HOME and XDG_DATA_HOME of the engine: the OS trash lands under it. */
  readonly home: string;
  readonly remoteFolder: string;
  /** The engine's client: every request it made, in order. */
  readonly client: RecordedClient;
  /** Another client of the same user, for changes "from elsewhere" that the record does not count. */
  readonly other: DeviceClient;
  readonly logLines: EngineLogLine[] = [];
  readonly #options: PairOptions;
  #db: IndexDb;
  #index: IndexStore;
  #engine: SyncEngine;

  constructor(device: TestDevice, options: PairOptions = {}) {
    this.device = device;
    this.#options = options;
    this.dir = mkdtempSync(join(tmpdir(), 'mch-sync-pair-'));
    this.localRoot = join(this.dir, 'local');
    this.home = join(this.dir, 'home');
    mkdirSync(this.localRoot);
    mkdirSync(join(this.home, '.local', 'share'), { recursive: true });
    this.remoteFolder = options.remoteFolder ?? `/pair-${this.dir.slice(-6)}`;
    this.client = clientFor(device, options.deviceUrl === undefined ? {} : { deviceUrl: options.deviceUrl });
    this.other = clientFor(device).device;
    this.#db = this.#openIndex();
    this.#index = new IndexStore(this.#db);
    this.#engine = this.#newEngine();
  }

  get index(): IndexStore {
    return this.#index;
  }

  /** One pass. */
  async sync(options: SyncOptions = {}): Promise<PassReport> {
    return this.#engine.syncOnce(options);
  }

  /** One pass, and the requests it made. */
  async syncCounting(
    options: SyncOptions = {},
  ): Promise<{ report: PassReport; requests: string[]; writes: string[] }> {
    const before = this.client.requests().length;
    const report = await this.sync(options);
    const requests = this.client.requests().slice(before);
    return { report, requests, writes: requests.filter(isWrite) };
  }

  /** A new engine over the same index (a restart of the app); the file index is reopened too. */
  restart(): void {
    if (this.#options.indexFile === true) {
      this.#db.close();
      this.#db = this.#openIndex();
      this.#index = new IndexStore(this.#db);
    }
    this.#engine = this.#newEngine();
  }

  close(): void {
    this.#db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  // --- the local side ---

  local(path: string): string {
    return join(this.localRoot, path);
  }

  /** Writes a file (making its folders), optionally with an exact mtime. */
  writeLocal(path: string, text: string, mtimeMs?: number): void {
    const full = this.local(path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    if (mtimeMs !== undefined) utimesSync(full, new Date(mtimeMs), new Date(mtimeMs));
  }

  mkdirLocal(path: string): void {
    mkdirSync(this.local(path), { recursive: true });
  }

  renameLocal(from: string, to: string): void {
    mkdirSync(dirname(this.local(to)), { recursive: true });
    renameSync(this.local(from), this.local(to));
  }

  removeLocal(path: string): void {
    rmSync(this.local(path), { recursive: true });
  }

  readLocal(path: string): string {
    return readFileSync(this.local(path), 'utf8');
  }

  /** Everything under the local root except the engine's own `.mch-sync` folder. */
  localTree(): Tree {
    return readTree(this.localRoot, (path) => path === '.mch-sync' || path.startsWith('.mch-sync/'));
  }

  /** Files moved to a trash by the engine: the OS trash under `home` or the folder trash. */
  trashed(): Tree {
    const os = join(this.home, '.local', 'share', 'Trash', 'files');
    const folder = join(this.localRoot, '.mch-sync', 'trash');
    const found: Tree = {};
    for (const root of [os, folder]) {
      if (!existsSync(root)) continue;
      Object.assign(found, readTree(root));
    }
    return found;
  }

  /**
   * The versions the engine kept (app/sync/versions/), newest of each path: path where the content was
   * → its content, as the store holds it.
   */
  kept(): Tree {
    const found: Tree = {};
    for (const row of this.#index.versions.kept()) {
      if (found[row.path] !== undefined) continue;
      const blob = join(this.localRoot, '.mch-sync', 'versions', ...row.blob.split('/'));
      found[row.path] = { kind: 'file', text: readFileSync(blob, 'utf8') };
    }
    return found;
  }

  /** Why each kept version of `path` was kept, newest first. */
  keptReasons(path: string): string[] {
    return this.#index.versions.ofPath(path).map((row) => row.reason);
  }

  // --- the remote side (through `other`, which the record does not count) ---

  async remoteRootId(): Promise<string> {
    return (await ensureRemoteFolder(this.other, this.remoteFolder)).id;
  }

  /** path → File of everything below the remote folder. */
  async remoteFiles(): Promise<Map<string, RemoteFile & { path: string }>> {
    const walk = await walkRemote(this.other, await this.remoteRootId());
    const files = new Map<string, RemoteFile & { path: string }>();
    for (const entry of walk.entries.values()) {
      files.set(entry.path, { ...(await this.other.getFile(entry.id)), path: entry.path });
    }
    return files;
  }

  async remoteTree(): Promise<Tree> {
    const walk = await walkRemote(this.other, await this.remoteRootId());
    const tree: Tree = {};
    for (const entry of [...walk.entries.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      tree[entry.path] =
        entry.kind === 'folder'
          ? { kind: 'folder' }
          : { kind: 'file', text: await this.remoteText(entry.id) };
    }
    return tree;
  }

  async remoteText(id: string): Promise<string> {
    const answer = await this.device.fetchAs('alice', `/sdk/v2/files/${id}/content`);
    if (answer.status !== 200) throw new Error(`content of ${id}: ${answer.status}`);
    return answer.text();
  }

  /** The remote item at `path` (below the remote folder), or undefined. */
  async remoteAt(path: string): Promise<RemoteFile | undefined> {
    let parentId = await this.remoteRootId();
    let found: RemoteFile | undefined;
    for (const name of path.split('/')) {
      found = await this.other.findByName(parentId, name);
      if (found === undefined) return undefined;
      parentId = found.id;
    }
    return found;
  }

  async remoteId(path: string): Promise<string> {
    const found = await this.remoteAt(path);
    if (found === undefined) throw new Error(`no remote item at ${path}`);
    return found.id;
  }

  /** Creates or replaces a remote file (making its folders). */
  async writeRemote(path: string, text: string, mTimeMs?: number): Promise<string> {
    const existing = await this.remoteAt(path);
    if (existing !== undefined) {
      await this.other.putContent(existing.id, Buffer.from(text));
      if (mTimeMs !== undefined) await this.other.patch(existing.id, { mTimeMs });
      return existing.id;
    }
    const parentId = await this.mkdirRemote(path.split('/').slice(0, -1).join('/'));
    const name = path.split('/').at(-1) ?? path;
    return (
      await this.other.create({
        parentId,
        name,
        content: Buffer.from(text),
        ...(mTimeMs === undefined ? {} : { mTimeMs }),
      })
    ).id;
  }

  /** The id of the remote folder at `path`, creating what is missing ('' is the remote root). */
  async mkdirRemote(path: string): Promise<string> {
    let parentId = await this.remoteRootId();
    for (const name of path.split('/').filter((segment) => segment !== '')) {
      const found = await this.other.findByName(parentId, name);
      parentId = found?.id ?? (await this.other.createFolder({ parentId, name })).id;
    }
    return parentId;
  }

  /** Renames and/or moves a remote item; `to` is a path below the remote folder. */
  async moveRemote(from: string, to: string): Promise<void> {
    const id = await this.remoteId(from);
    const parts = to.split('/');
    const name = parts.pop() ?? to;
    const parentId = await this.mkdirRemote(parts.join('/'));
    await this.other.patch(id, { name, parentId });
  }

  async removeRemote(path: string): Promise<void> {
    await this.other.delete(await this.remoteId(path));
  }

  #openIndex(): IndexDb {
    return openIndexDb(this.#options.indexFile === true ? join(this.dir, 'index.db') : ':memory:');
  }

  #newEngine(): SyncEngine {
    return new SyncEngine({
      client: this.client.device,
      index: this.#index,
      localRoot: this.localRoot,
      remoteFolder: this.remoteFolder,
      env: { HOME: this.home, XDG_DATA_HOME: join(this.home, '.local', 'share') },
      ...this.#options.engine,
      log: (line) => {
        this.logLines.push(line);
        this.#options.engine?.log?.(line);
      },
    });
  }
}

/** Reads a folder into a Tree; symlinks are shown as files with the text `-> target`. */
export function readTree(root: string, skip: (path: string) => boolean = () => false): Tree {
  const tree: Tree = {};
  const entries = readdirSync(root, { recursive: true, withFileTypes: true })
    .map((entry) => ({
      entry,
      path: relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'),
    }))
    .filter(({ path }) => !skip(path))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const { entry, path } of entries) {
    const full = join(entry.parentPath, entry.name);
    if (entry.isDirectory()) tree[path] = { kind: 'folder' };
    else if (lstatSync(full).isSymbolicLink()) tree[path] = { kind: 'file', text: '-> (symlink)' };
    else tree[path] = { kind: 'file', text: readFileSync(full, 'utf8') };
  }
  return tree;
}

/** `{path: text}` shorthand for a tree of files with their folders. */
export function files(texts: Record<string, string>): Tree {
  const tree: Tree = {};
  for (const [path, text] of Object.entries(texts)) {
    const parts = path.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) {
      tree[parts.slice(0, depth).join('/')] = { kind: 'folder' };
    }
    tree[path] = { kind: 'file', text };
  }
  return Object.fromEntries(Object.entries(tree).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export interface ProxyHooks {
  /** Runs before the request is forwarded (a change "from elsewhere" at exactly that moment). */
  before?: (request: SeenRequest, body: Buffer) => Promise<void> | void;
  /** The request reaches the device, but its answer is lost: the connection drops instead. */
  loseAnswer?: (request: SeenRequest, body: Buffer) => boolean;
  /** The answer's connection drops after this many body bytes. */
  cutAfter?: (request: SeenRequest) => number | undefined;
  /** Answered by the proxy itself with this status and JSON body; the device never sees the request. */
  refuse?: (request: SeenRequest, body: Buffer) => { status: number; json: unknown } | undefined;
}

/** A forwarding proxy in front of the device whose hooks decide, per request, what goes wrong. */
export async function startDeviceProxy(
  /** The device's base; a function when the device starts after the proxy (its public URL is the proxy). */
  targetBase: string | (() => string),
  hooks: ProxyHooks,
): Promise<HostileServer> {
  return startHostileServer((request, response, body) => {
    const target = typeof targetBase === 'string' ? targetBase : targetBase();
    const seen: SeenRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
    };
    const forward = (): void => {
      const refusal = hooks.refuse?.(seen, body);
      if (refusal !== undefined) {
        response.writeHead(refusal.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(refusal.json));
        return;
      }
      const lose = hooks.loseAnswer?.(seen, body) === true;
      const limit = hooks.cutAfter?.(seen);
      const upstream = httpRequest(
        new URL(seen.url, target),
        { method: seen.method, headers: { ...request.headers, host: new URL(target).host } },
        (answer) => {
          if (lose) {
            // The device has handled it; drain its answer and drop the client's connection.
            answer.resume();
            answer.on('end', () => response.socket?.destroy());
            return;
          }
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          let sent = 0;
          answer.on('data', (chunk: Buffer) => {
            if (limit !== undefined && sent + chunk.length > limit) {
              response.write(chunk.subarray(0, Math.max(0, limit - sent)));
              response.socket?.destroy();
              answer.destroy();
              return;
            }
            sent += chunk.length;
            response.write(chunk);
          });
          answer.on('end', () => response.end());
        },
      );
      upstream.on('error', () => response.socket?.destroy());
      upstream.end(body);
    };
    Promise.resolve(hooks.before?.(seen, body)).then(forward, () => response.socket?.destroy());
  });
}
