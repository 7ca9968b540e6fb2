// A tiny synced tree for planner tests: build the agreed state, change either side, read the plan.
import { assertNever } from '../../../../../common/errors.ts';
import type { IndexEntry, ItemKind, LocalEntry, RemoteEntry } from '../../../../../app/model/items.ts';
import type { Operation, RemoteParent } from '../../../../../app/sync/plan/operations.ts';
import { plan, type Plan, type PlanInput } from '../../../../../app/sync/plan/planner.ts';
import { reconcile, type ReconciledItem } from '../../../../../app/sync/plan/reconcile.ts';
import type { RemoteWalkResult } from '../../../../../app/sync/remote/remote-walk.ts';

export const ROOT_ID = 'root-id';
export const NOW = new Date(Date.UTC(2026, 10, 22, 3, 4, 5));

/** Paths ending in '/' are folders. Remote ids are `r:<first path>`, inodes `i:<first path>`. */
export class World {
  readonly local = new Map<string, LocalEntry>();
  readonly remote = new Map<string, RemoteEntry>();
  readonly index = new Map<string, IndexEntry>();
  private counter = 0;

  /** An item both sides and the index agree on (its parent folders must be added first). */
  synced(spec: string): this {
    const { path, kind } = parse(spec);
    const remote = this.makeRemote(path, kind, `r:${path}`);
    const local: LocalEntry = {
      path,
      kind,
      inode: `i:${path}`,
      size: remote.size,
      mtimeNs: BigInt(remote.mTimeMs) * 1_000_000n,
    };
    this.local.set(path, local);
    this.remote.set(remote.id, remote);
    this.index.set(remote.id, {
      remoteId: remote.id,
      parentRemoteId: remote.parentId,
      path,
      name: remote.name,
      kind,
      eTag: remote.eTag,
      size: remote.size,
      mTimeMs: remote.mTimeMs,
      inode: local.inode,
      localSize: local.size,
      localMtimeNs: local.mtimeNs,
      contentHash: kind === 'file' ? 'hash' : null,
    });
    return this;
  }

  newLocal(spec: string, size = 7): this {
    const { path, kind } = parse(spec);
    this.local.set(path, {
      path,
      kind,
      inode: `i:new:${path}`,
      size: kind === 'file' ? size : 0,
      mtimeNs: 5_000_000_000n,
    });
    return this;
  }

  newRemote(spec: string, size = 9): this {
    const { path, kind } = parse(spec);
    const remote = this.makeRemote(path, kind, `r:new:${path}`);
    remote.size = kind === 'file' ? size : 0;
    remote.mTimeMs = 6000;
    this.remote.set(remote.id, remote);
    return this;
  }

  editLocal(path: string, size?: number): this {
    const entry = this.mustLocal(path);
    entry.size = size ?? entry.size + 1;
    entry.mtimeNs += 1_000_000_000n;
    return this;
  }

  editRemote(path: string, size?: number): this {
    const entry = this.mustRemote(path);
    entry.size = size ?? entry.size + 1;
    entry.mTimeMs += 1000;
    entry.eTag = `"e${++this.counter}"`;
    return this;
  }

  moveLocal(from: string, to: string): this {
    for (const entry of [...this.local.values()]) {
      if (entry.path !== from && !entry.path.startsWith(`${from}/`)) continue;
      this.local.delete(entry.path);
      entry.path = to + entry.path.slice(from.length);
      this.local.set(entry.path, entry);
    }
    return this;
  }

  moveRemote(from: string, to: string): this {
    const moved = this.mustRemote(from);
    moved.parentId = this.parentIdOf(to);
    moved.name = to.slice(to.lastIndexOf('/') + 1);
    moved.eTag = `"e${++this.counter}"`;
    for (const entry of this.remote.values()) {
      if (entry.path === from || entry.path.startsWith(`${from}/`))
        entry.path = to + entry.path.slice(from.length);
    }
    return this;
  }

  deleteLocal(path: string): this {
    for (const key of [...this.local.keys()])
      if (key === path || key.startsWith(`${path}/`)) this.local.delete(key);
    return this;
  }

  deleteRemote(path: string): this {
    for (const [id, entry] of [...this.remote]) {
      if (entry.path === path || entry.path.startsWith(`${path}/`)) this.remote.delete(id);
    }
    return this;
  }

  /** Replaces the local item with one of the other kind (a new inode, as on a real disk). */
  typeChangeLocal(path: string): this {
    const old = this.mustLocal(path);
    this.deleteLocal(path);
    return this.newLocal(old.kind === 'file' ? `${path}/` : path);
  }

  typeChangeRemote(path: string): this {
    const old = this.mustRemote(path);
    this.deleteRemote(path);
    return this.newRemote(old.kind === 'file' ? `${path}/` : path);
  }

  reconcile(): ReconciledItem[] {
    return reconcile({ local: this.local, remote: this.remote, index: this.index, remoteRootId: ROOT_ID });
  }

  plan(options: Partial<PlanInput> = {}): Plan {
    return plan({
      items: this.reconcile(),
      remoteRootId: ROOT_ID,
      now: NOW,
      localRootMissing: false,
      caseInsensitive: false,
      ...options,
    });
  }

  /** The plan's operations in the short form of `describe()`. */
  ops(options: Partial<PlanInput> = {}): string[] {
    const result = this.plan(options);
    if (result.status !== 'ready') throw new Error(`plan held: ${result.reason}`);
    return result.operations.map(describe);
  }

  private makeRemote(path: string, kind: ItemKind, id: string): RemoteEntry {
    return {
      id,
      parentId: this.parentIdOf(path),
      path,
      name: path.slice(path.lastIndexOf('/') + 1),
      kind,
      eTag: '"e0"',
      size: kind === 'file' ? 3 : 0,
      mTimeMs: 1000,
    };
  }

  private parentIdOf(path: string): string {
    const slash = path.lastIndexOf('/');
    if (slash < 0) return ROOT_ID;
    const parent = path.slice(0, slash);
    for (const entry of this.remote.values()) if (entry.path === parent) return entry.id;
    throw new Error(`no remote folder ${parent}`);
  }

  private mustLocal(path: string): LocalEntry {
    const entry = this.local.get(path);
    if (!entry) throw new Error(`no local ${path}`);
    return entry;
  }

  private mustRemote(path: string): RemoteEntry {
    for (const entry of this.remote.values()) if (entry.path === path) return entry;
    throw new Error(`no remote ${path}`);
  }
}

function parse(spec: string): { path: string; kind: ItemKind } {
  return spec.endsWith('/') ? { path: spec.slice(0, -1), kind: 'folder' } : { path: spec, kind: 'file' };
}

function parent(ref: RemoteParent | null): string {
  if (!ref) return '-';
  return ref.kind === 'existing' ? ref.remoteId : `planned:${ref.path}`;
}

/** One line per operation, with what a test asserts on (ids, paths, If-Match). */
export function describe(operation: Operation): string {
  switch (operation.op) {
    case 'remote-create-folder':
    case 'upload':
      return `${operation.op} ${operation.path} in ${parent(operation.parent)}${
        operation.replacesRemoteId === null ? '' : ` replaces ${operation.replacesRemoteId}`
      }`;
    case 'upload-content':
      return `upload-content ${operation.path} to ${operation.remoteId} if-match ${operation.ifMatch}`;
    case 'remote-move':
      return `remote-move ${operation.remoteId} name=${operation.name ?? '-'} parent=${parent(operation.parent)} if-match ${operation.ifMatch}`;
    case 'remote-delete':
      return `remote-delete ${operation.remoteId} if-match ${operation.ifMatch}`;
    case 'local-mkdir':
    case 'download':
      return `${operation.op} ${operation.path} from ${operation.remote.id}`;
    case 'download-content':
      return `download-content ${operation.path} from ${operation.remote.id}`;
    case 'local-move':
      return `local-move ${operation.fromPath} -> ${operation.toPath}`;
    case 'local-trash':
      return `local-trash ${operation.path}`;
    case 'index-update':
    case 'index-remove':
      return `${operation.op} ${operation.remoteId}`;
    default:
      return assertNever(operation, 'operation');
  }
}

/** A remote walk that found exactly `entries` (nothing refused, vanished or cached). */
export function walkOf(
  entries: Iterable<RemoteEntry>,
  extra: Partial<RemoteWalkResult> = {},
): RemoteWalkResult {
  return {
    entries: new Map([...entries].map((entry) => [entry.id, entry])),
    rejected: [],
    vanished: [],
    unchanged: new Set(),
    listed: new Set(),
    excluded: [],
    cache: { pageSize: undefined, folders: new Map() },
    stats: { listed: 0, notModified: 0, trusted: 0 },
    ...extra,
  };
}
