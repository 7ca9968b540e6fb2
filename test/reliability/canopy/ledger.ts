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
import { describeChange } from './format.ts';
import type { RequiredContent, SnapshotItem } from './invariants.ts';
import type { Change, TreeItem } from './model.ts';
import { readDeviceTree, readLocalTree } from './snapshot.ts';

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

  constructor(base: readonly TreeItem[]) {
    this.#base = base;
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
      applyLocalChange(side, change);
      for (const content of removed) this.removed.add(content);
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
    for (const old of removed) this.removed.add(old);
    this.#write(content);
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
      await applyRemoteChange(side, change);
      for (const content of removed) this.removed.add(content);
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
    return [...required].map(([content, why]) => ({ content, why }));
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
  const target = absolute(side, change.path);
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
