// The ledger of a soak run: every version a user wrote, and every version a user removed on purpose.
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  absolute,
  applyLocalChange,
  applyRemoteChange,
  resolve,
  type LocalSide,
  type RemoteSide,
} from './apply.ts';
import type { IndexStore } from '../../../app/index/index-store.ts';
import { describeChange } from './format.ts';
import type { RequiredContent, SnapshotItem } from './invariants.ts';
import type { Change, TreeItem } from './model.ts';
import { readDeviceTree, readLocalTree } from './snapshot.ts';

/** Where the ledger finds the synced local copy of a device item: the local folder, the index of the engine process now. */
export interface SyncedCopies {
  local: LocalSide;
  index: () => IndexStore;
}

/**
 * Changes made while a pass runs meet a tree the engine is changing: a path may be gone or taken. Such
 * a change is left out (as a user would find it impossible), and the ledger says what really happened,
 * read from the item itself at the moment of the change rather than from the model.
 */
export class Ledger {
  /** Each version a user wrote, with how many times (the same edit on both sides is two). */
  readonly written = new Map<string, number>();
  /** Versions a user deleted or overwrote on purpose: what the item held when the user changed it. */
  readonly removed = new Set<string>();
  /** Changes that could not be made (the engine had changed that path meanwhile). */
  readonly impossible: string[] = [];
  readonly #base: readonly TreeItem[];
  readonly #synced: SyncedCopies | undefined;
  /** Versions this computer's user removed (deleted or overwrote) on purpose. */
  readonly #removedHere = new Set<string>();
  /** Versions the other client removed there, and what each edit there replaced by what (old → new). */
  readonly #removedThere = new Set<string>();
  readonly #replacedBy = new Map<string, string>();
  /**
   * Issue 31: versions the synced copy here held when the other client edited (`edit`) or deleted
   * (`delete`) them there: the engine keeps such a copy before it replaces or removes it.
   */
  readonly #heldHere = new Map<string, 'edit' | 'delete'>();

  /** `synced`: where to find the synced copy of a device item; without it, nothing is held here. */
  constructor(base: readonly TreeItem[], synced?: SyncedCopies) {
    this.#base = base;
    this.#synced = synced;
  }

  #write(content: string): void {
    this.written.set(content, (this.written.get(content) ?? 0) + 1);
  }

  local(side: LocalSide, change: Change): void {
    try {
      // rename() replaces a file at the target; the scenario's move is to a free name (a file manager
      // would ask first). Mid-pass the engine may have put an item there (seed 3766): impossible then.
      // The same inode there is a case-only rename on a volume that folds case.
      if (change.op === 'move' && existsSync(absolute(side, change.to, true))) {
        const source = lstatSync(absolute(side, change.from)).ino;
        if (lstatSync(absolute(side, change.to, true)).ino !== source)
          throw new Error(`EEXIST: ${change.to} is taken`);
      }
      const removed = localRemoved(side, change);
      const moved = change.op === 'move' ? localContents(side, change.from) : [];
      applyLocalChange(side, change);
      for (const content of removed) {
        this.removed.add(content);
        this.#removedHere.add(content);
      }
      // A copy moved after the device's edit may go where nothing comes down (into a kept copy of an
      // excluded folder: soak seed 285): it must still be somewhere, not necessarily a version.
      for (const content of moved) if (this.#heldHere.has(content)) this.#heldHere.set(content, 'delete');
      const content = writtenBy(change);
      if (content !== undefined) this.#write(content);
    } catch (error) {
      this.impossible.push(`local ${describeChange(change)}: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  /**
   * A local write the scenario's changes cannot say (big.bin changed in place, appended to, saved over
   * while it is sent): what the file held is removed on purpose, `content` is written.
   */
  localWrite(side: LocalSide, path: string, content: string, write: () => void): void {
    const target = absolute(side, path);
    const removed = existsSync(target) ? [readFileSync(target).toString('latin1')] : [];
    write();
    for (const old of removed) {
      this.removed.add(old);
      this.#removedHere.add(old);
    }
    this.#write(content);
  }

  /**
   * Issue 30: the user freed the copy here in place (the device was to hold it): whatever the device
   * does to that version since is no longer the engine's to keep here (soak seed 181 with
   * `--on-demand-rate 1`: a file freed after the other client deleted it there).
   */
  letGo(content: string): void {
    this.#removedHere.add(content);
  }

  /** A version the user wrote outside the changes (a file written into a folder that replaced the synced one). */
  note(content: string): void {
    this.#write(content);
  }

  /** Every version a user wrote, kept or not, the initial tree's too: what any file may hold (nothing torn). */
  versions(): Set<string> {
    const all = new Set([...this.written.keys(), ...this.removed]);
    for (const item of this.#base) if (item.content !== undefined) all.add(item.content);
    return all;
  }

  async remote(side: RemoteSide, change: Change): Promise<void> {
    try {
      const removed = remoteRemoved(side, change);
      const held = this.#heldHereOf(side, change);
      await applyRemoteChange(side, change);
      for (const content of removed) {
        this.removed.add(content);
        this.#removedThere.add(content);
        if (change.op === 'edit') this.#replacedBy.set(content, change.content);
      }
      for (const content of held) this.#heldHere.set(content, change.op === 'edit' ? 'edit' : 'delete');
      const content = writtenBy(change);
      if (content !== undefined) this.#write(content);
    } catch (error) {
      this.impossible.push(`remote ${describeChange(change)}: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  /** Every version written (the initial tree's too) that was not removed on purpose: it must be somewhere. */
  required(): RequiredContent[] {
    const required = new Map<string, string>();
    for (const item of this.#base) {
      if (item.content !== undefined && !this.removed.has(item.content))
        required.set(item.content, `initial ${item.path}, never deleted or overwritten by a user`);
    }
    for (const content of this.written.keys()) {
      if (!this.removed.has(content))
        required.set(content, 'written by a user, never deleted or overwritten');
    }
    const versions = [...required].map(([content, why]): RequiredContent => ({ content, why }));
    for (const [content, how] of this.#heldHere) {
      if (required.has(content) || this.#removedHere.has(content)) continue;
      // An edit the other client deleted after it never comes down: the copy here goes as deleted.
      versions.push(
        how === 'edit' && this.#stands(content)
          ? {
              content,
              why: 'synced here, overwritten on the device: belongs in the versions',
              in: 'versions',
            }
          : { content, why: 'synced here, deleted on the device: belongs in the versions or the trash' },
      );
    }
    return versions;
  }

  /** Whether the last of the other client's edits that followed `content` is still on the device. */
  #stands(content: string): boolean {
    let last = content;
    const seen = new Set<string>();
    while (this.#replacedBy.has(last) && !seen.has(last)) {
      seen.add(last);
      last = this.#replacedBy.get(last) ?? last;
    }
    return last !== content && !this.#removedThere.has(last);
  }

  /**
   * What `change` on the device removes that the synced copy here holds as the device does (a whole
   * file at its index row's path, its size and time the row's, not a placeholder's zeros), read just
   * before the change.
   */
  #heldHereOf(side: RemoteSide, change: Change): string[] {
    const synced = this.#synced;
    if (synced === undefined || change.op === 'create-file' || change.op === 'create-folder') return [];
    if (change.op === 'move') return [];
    try {
      const id = resolve(side, change.path);
      const row = side.device.items.get(id);
      if (row === undefined) return [];
      const files =
        row.is_dir === 1
          ? readDeviceTree(side.device, id).filter((item) => item.kind === 'file')
          : [{ id, content: remoteRemoved(side, change)[0] }];
      const index = synced.index();
      return files.flatMap(({ id: fileId, content }) => {
        const entry = fileId === undefined ? undefined : index.get(fileId);
        if (content === undefined || content === '' || entry?.kind !== 'file') return [];
        const path = join(synced.local.root, entry.path);
        if (!existsSync(path)) return [];
        // Settled: the file is as its row says the engine last saw it (an unsynced edit makes a conflict).
        const stats = lstatSync(path, { bigint: true });
        if (
          !stats.isFile() ||
          entry.localMtimeNs !== stats.mtimeNs ||
          BigInt(entry.localSize ?? -1) !== stats.size
        )
          return [];
        return readFileSync(path).toString('latin1') === content ? [content] : [];
      });
    } catch {
      // A path the change cannot name, or the index of a process that died: nothing known held here.
      return [];
    }
  }

  /** How many files may hold each version: one per time it was written (initial tree included). */
  allowedCopies(): Map<string, number> {
    const allowed = new Map(this.written);
    for (const item of this.#base) {
      if (item.content !== undefined) allowed.set(item.content, (allowed.get(item.content) ?? 0) + 1);
    }
    return allowed;
  }
}

function writtenBy(change: Change): string | undefined {
  return change.op === 'create-file' || change.op === 'edit' || change.op === 'folder-to-file'
    ? change.content
    : undefined;
}

function contents(items: readonly SnapshotItem[]): string[] {
  return items.flatMap((item) => (item.content === undefined ? [] : [item.content]));
}

/** What the local change takes away, read from the disk just before it. */
function localRemoved(side: LocalSide, change: Change): string[] {
  if (change.op === 'create-file' || change.op === 'create-folder' || change.op === 'move') return [];
  return localContents(side, change.path);
}

/** The versions of the local file or folder at `path`, read from the disk. */
function localContents(side: LocalSide, path: string): string[] {
  const target = absolute(side, path);
  if (!existsSync(target)) return [];
  if (!lstatSync(target).isDirectory()) return localContent(side, target);
  return readLocalTree(target).flatMap((item) =>
    item.kind === 'file' ? localContent(side, join(target, item.path)) : [],
  );
}

/** A local file's version; issue 30: a placeholder's is the one the device holds for it, never its zeros. */
function localContent(side: LocalSide, path: string): string[] {
  const held = side.onDemand?.placeholderContent(path);
  if (held === null) return [];
  return [held ?? readFileSync(path).toString('latin1')];
}

/** What the remote change takes away, read from the device's store just before it. */
function remoteRemoved(side: RemoteSide, change: Change): string[] {
  if (change.op === 'create-file' || change.op === 'create-folder' || change.op === 'move') return [];
  const id = resolve(side, change.path);
  const row = side.device.items.get(id);
  if (row === undefined) return [];
  if (row.is_dir === 1) return contents(readDeviceTree(side.device, id));
  return row.blob === null ? [''] : [readFileSync(side.device.blobs.path(row.blob)).toString('latin1')];
}
