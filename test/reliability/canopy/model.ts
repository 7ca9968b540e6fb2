// The in-memory tree a scenario is simulated on: items by path, and the changes a user can make to it.
import { assertNever } from '../../../common/errors.ts';

export type ItemKind = 'file' | 'folder';
export type Side = 'local' | 'remote';

/** One item of a tree; files carry their content (unique per version, so it can be traced). */
export interface TreeItem {
  path: string;
  kind: ItemKind;
  content?: string;
}

/** What one user does on one side; plain data, so a scenario can be printed, saved and replayed. */
export type Change =
  | { op: 'create-file'; path: string; content: string }
  | { op: 'create-folder'; path: string }
  /** `atomic`: written to a temporary file and renamed over the old one, as many editors save. */
  | { op: 'edit'; path: string; content: string; atomic?: boolean }
  | { op: 'delete'; path: string }
  /** A rename, a move or both, of a file or a whole folder. */
  | { op: 'move'; from: string; to: string }
  | { op: 'file-to-folder'; path: string }
  | { op: 'folder-to-file'; path: string; content: string };

/** Exact path → item. Parents are always present before children can be. */
export type Tree = Map<string, TreeItem>;

/** How a side compares sibling names: exactly (Linux, the device) or as a case-insensitive volume does. */
export type NameKey = (name: string) => string;

export const exactKey: NameKey = (name) => name;
/** Like macOS's default volume: case-insensitive and normalisation-insensitive. */
export const foldedKey: NameKey = (name) => name.normalize('NFC').toLowerCase();

/** What a change did to content: versions the user removed (deleted or overwrote), overwrote, wrote. */
export interface ChangeEffect {
  removed: string[];
  /** The part of `removed` replaced in place by an edit (the rest was deleted). */
  overwritten: string[];
  written: string[];
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function join(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

export function depthOf(path: string): number {
  return path === '' ? 0 : path.split('/').length;
}

export function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

export function treeOf(items: readonly TreeItem[]): Tree {
  return new Map(items.map((item) => [item.path, { ...item }]));
}

/** Items sorted so parents come before children. */
export function itemsOf(tree: Tree): TreeItem[] {
  return [...tree.values()].sort((a, b) => depthOf(a.path) - depthOf(b.path) || compare(a.path, b.path));
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function isFolder(tree: Tree, path: string): boolean {
  return path === '' || tree.get(path)?.kind === 'folder';
}

/** The sibling that already has `name` under `key`, if any. */
export function siblingWithName(tree: Tree, parent: string, name: string, key: NameKey): string | undefined {
  const wanted = key(name);
  for (const path of tree.keys()) {
    if (parentOf(path) === parent && key(nameOf(path)) === wanted) return path;
  }
  return undefined;
}

function removeSubtree(tree: Tree, path: string): string[] {
  const removed: string[] = [];
  for (const [other, item] of tree) {
    if (!isWithin(other, path)) continue;
    if (item.content !== undefined) removed.push(item.content);
    tree.delete(other);
  }
  return removed;
}

function canPlace(tree: Tree, path: string, key: NameKey, movingFrom?: string): boolean {
  const parent = parentOf(path);
  if (!isFolder(tree, parent)) return false;
  const clash = siblingWithName(tree, parent, nameOf(path), key);
  // A case-only rename on a case-insensitive volume meets the item itself, which is fine.
  return clash === undefined || clash === movingFrom;
}

/**
 * Applies `change` to `tree` in place when it is possible there (the item exists, the name is free
 * under `key`...) and says what it did to content; null (and `tree` untouched) when it is not.
 */
export function applyChange(tree: Tree, change: Change, key: NameKey): ChangeEffect | null {
  switch (change.op) {
    case 'create-file':
    case 'create-folder': {
      if (!canPlace(tree, change.path, key)) return null;
      if (change.op === 'create-folder') {
        tree.set(change.path, { path: change.path, kind: 'folder' });
        return { removed: [], overwritten: [], written: [] };
      }
      tree.set(change.path, { path: change.path, kind: 'file', content: change.content });
      return { removed: [], overwritten: [], written: [change.content] };
    }
    case 'edit': {
      const item = tree.get(change.path);
      if (item?.kind !== 'file' || item.content === undefined) return null;
      const old = item.content;
      item.content = change.content;
      return { removed: [old], overwritten: [old], written: [change.content] };
    }
    case 'delete': {
      if (!tree.has(change.path)) return null;
      return { removed: removeSubtree(tree, change.path), overwritten: [], written: [] };
    }
    case 'move': {
      const { from, to } = change;
      if (!tree.has(from) || from === to || isWithin(parentOf(to), from)) return null;
      if (!canPlace(tree, to, key, from)) return null;
      const moved = [...tree.entries()].filter(([path]) => isWithin(path, from));
      for (const [path] of moved) tree.delete(path);
      for (const [path, item] of moved) {
        const target = to + path.slice(from.length);
        tree.set(target, { ...item, path: target });
      }
      return { removed: [], overwritten: [], written: [] };
    }
    case 'file-to-folder': {
      const item = tree.get(change.path);
      if (item?.kind !== 'file') return null;
      const removed = removeSubtree(tree, change.path);
      tree.set(change.path, { path: change.path, kind: 'folder' });
      return { removed, overwritten: [], written: [] };
    }
    case 'folder-to-file': {
      const item = tree.get(change.path);
      if (item?.kind !== 'folder') return null;
      const removed = removeSubtree(tree, change.path);
      tree.set(change.path, { path: change.path, kind: 'file', content: change.content });
      return { removed, overwritten: [], written: [change.content] };
    }
    default:
      return assertNever(change, 'change');
  }
}
