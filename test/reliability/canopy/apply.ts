// Makes a scenario's trees and changes real: local ones with node:fs, remote ones as another client would.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join as joinPath } from 'node:path';
import { assertNever } from '../../../common/errors.ts';
import type { DeviceClient } from '../../../app/api/device-client.ts';
import { nameOf, parentOf, type Change, type TreeItem } from './model.ts';
import { deviceChildren } from './snapshot.ts';
import type { DeviceContext } from '../../../device/context.ts';

/** Where one side lives: the local folder (and a scratch folder beside it), or the device folder. */
export interface LocalSide {
  root: string;
  /** On the same file system as `root` but outside it, for atomic saves. */
  scratch: string;
  /**
   * Atomic saves write their new file beside the old one, as `.goutputstream-*` (a name the engine
   * never syncs), as GNOME's editors do: the folder is the root of a mount, and a rename from outside
   * it fails (EXDEV) even from the same disk.
   */
  saveBeside?: boolean;
  /** Issue 30: the folder is an on-demand pair's cache folder (on-demand-world.ts). */
  onDemand?: LocalOnDemand;
}

/** What a user's change meets in an on-demand pair's cache folder, where files may be placeholders. */
export interface LocalOnDemand {
  /**
   * The version the placeholder at `path` stands for (null: unknown, it changed on the device since),
   * or undefined when `path` is no placeholder: its bytes are zeros no user wrote.
   */
  placeholderContent(path: string): string | null | undefined;
  /** An in-place write goes through the mount, which truncates a placeholder and unmarks it first. */
  beforeOverwrite(path: string): void;
}

let scratchCount = 0;

/** Where an atomic save of `target` writes its new file first. */
export function saveTemporary(side: LocalSide, target: string): string {
  scratchCount += 1;
  return side.saveBeside === true
    ? joinPath(dirname(target), `.goutputstream-${process.pid}${scratchCount}`)
    : joinPath(side.scratch, `save-${process.pid}-${scratchCount}`);
}

export interface RemoteSide {
  /** Another client of the device: the remote changes go through the device API. */
  client: DeviceClient;
  /** The device itself, to look paths up without requests. */
  device: DeviceContext;
  folderId: string;
}

/**
 * The name among `names` that is `name`: the exact one, else the one equal under NFC. The engine may
 * spell a name in the other normalisation than the scenario did, and treats both as one name.
 */
function matchName(names: readonly string[], name: string): string | undefined {
  return names.includes(name)
    ? name
    : names.find((other) => other.normalize('NFC') === name.normalize('NFC'));
}

/** The absolute local path of the scenario's `path`; `literal`: the last name is new, taken as given. */
export function absolute(side: LocalSide, path: string, literal = false): string {
  const names = path.split('/');
  let current = side.root;
  for (const [index, name] of names.entries()) {
    const exact = literal && index === names.length - 1;
    const found = exact || !existsSync(current) ? undefined : matchName(readdirSync(current), name);
    current = joinPath(current, found ?? name);
  }
  return current;
}

export function applyLocalChange(side: LocalSide, change: Change): void {
  switch (change.op) {
    case 'create-file':
      writeFileSync(absolute(side, change.path, true), change.content, { flag: 'wx' });
      return;
    case 'create-folder':
      mkdirSync(absolute(side, change.path, true));
      return;
    case 'edit':
      if (change.atomic) {
        // As editors save: a new file (new inode) renamed over the old one.
        const target = absolute(side, change.path);
        const temporary = saveTemporary(side, target);
        writeFileSync(temporary, change.content);
        renameSync(temporary, target);
      } else {
        side.onDemand?.beforeOverwrite(absolute(side, change.path));
        writeFileSync(absolute(side, change.path), change.content);
      }
      return;
    case 'delete':
      rmSync(absolute(side, change.path), { recursive: true });
      return;
    case 'move':
      renameSync(absolute(side, change.from), absolute(side, change.to, true));
      return;
    case 'file-to-folder': {
      const target = absolute(side, change.path);
      rmSync(target);
      mkdirSync(target);
      return;
    }
    case 'folder-to-file': {
      const target = absolute(side, change.path);
      rmSync(target, { recursive: true });
      writeFileSync(target, change.content);
      return;
    }
    default:
      assertNever(change, 'change');
  }
}

/** The id of the item at `path` below the remote folder, looked up name by name (exact names). */
export function resolve(side: RemoteSide, path: string): string {
  let id = side.folderId;
  if (path === '') return id;
  for (const name of path.split('/')) {
    const children = deviceChildren(side.device, id);
    const found = matchName(
      children.map((child) => child.name),
      name,
    );
    const child = children.find((other) => other.name === found);
    if (child === undefined)
      throw new Error(`no remote item at ${JSON.stringify(path)} (missing ${JSON.stringify(name)})`);
    id = child.id;
  }
  return id;
}

async function createRemoteFile(side: RemoteSide, path: string, content: string): Promise<void> {
  const parentId = resolve(side, parentOf(path));
  await side.client.upload({ parentId, name: nameOf(path), content: Buffer.from(content, 'latin1') });
}

async function createRemoteFolder(side: RemoteSide, path: string): Promise<void> {
  await side.client.createFolder({ parentId: resolve(side, parentOf(path)), name: nameOf(path) });
}

export async function applyRemoteChange(side: RemoteSide, change: Change): Promise<void> {
  const client = side.client;
  switch (change.op) {
    case 'create-file':
      return createRemoteFile(side, change.path, change.content);
    case 'create-folder':
      return createRemoteFolder(side, change.path);
    case 'edit':
      await client.putContent(resolve(side, change.path), Buffer.from(change.content, 'latin1'));
      return;
    case 'delete':
      await client.delete(resolve(side, change.path));
      return;
    case 'move': {
      const id = resolve(side, change.from);
      const parentId = resolve(side, parentOf(change.to));
      const sameParent = parentOf(change.from) === parentOf(change.to);
      await client.patch(id, { name: nameOf(change.to), ...(sameParent ? {} : { parentId }) });
      return;
    }
    case 'file-to-folder':
      await client.delete(resolve(side, change.path));
      return createRemoteFolder(side, change.path);
    case 'folder-to-file':
      await client.delete(resolve(side, change.path));
      return createRemoteFile(side, change.path, change.content);
    default:
      assertNever(change, 'change');
  }
}

/** Makes `items` (parents first) in the local folder. */
export function buildLocalTree(side: LocalSide, items: readonly TreeItem[]): void {
  for (const item of items) {
    applyLocalChange(
      side,
      item.kind === 'file'
        ? { op: 'create-file', path: item.path, content: item.content ?? '' }
        : { op: 'create-folder', path: item.path },
    );
  }
}

/** Makes `items` (parents first) in the remote folder. */
export async function buildRemoteTree(side: RemoteSide, items: readonly TreeItem[]): Promise<void> {
  for (const item of items) {
    await applyRemoteChange(
      side,
      item.kind === 'file'
        ? { op: 'create-file', path: item.path, content: item.content ?? '' }
        : { op: 'create-folder', path: item.path },
    );
  }
}
