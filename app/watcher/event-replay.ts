// Replays raw events path by path and reads what they amount to: moves paired by inode, then one change per path; pure.
import type { ItemKind, RelativePath } from '../model/items.ts';
import { parentOf } from './affected-paths.ts';
import type { KnownItem, LocalChange, LocalChangeKind, RawEvent, RawEventType } from './local-changes.ts';

/** What happened at one path over the pending events. */
export interface Track {
  path: RelativePath;
  /** The item here before the pending events (undefined: nothing was here). */
  before: KnownItem | undefined;
  /** The item here after them. */
  after: KnownItem | undefined;
  /** The `before` item as last seen, when it stopped being here (unlinked or replaced). */
  leftAs: KnownItem | undefined;
  leftAtMs: number;
  /** The last new item that took this path (after an unlink, or renamed over what was here), as it arrived. */
  appearedAs: KnownItem | undefined;
  appearedAtMs: number;
  /** A change event came for an item whose size and mtime are not known (cannot tell a chmod). */
  blindChange: boolean;
}

export function kindOf(type: RawEventType): ItemKind {
  return type === 'addDir' || type === 'unlinkDir' ? 'folder' : 'file';
}

function itemOf(event: RawEvent): KnownItem {
  const item: KnownItem = { kind: kindOf(event.type) };
  if (event.inode !== undefined) item.inode = event.inode;
  if (event.size !== undefined) item.size = event.size;
  if (event.mtimeNs !== undefined) item.mtimeNs = event.mtimeNs;
  return item;
}

/** Content differs, as far as size and mtime tell (a chmod or a rename changes neither). */
export function contentDiffers(a: KnownItem, b: KnownItem): boolean {
  if (a.kind !== 'file' || b.kind !== 'file') return false;
  if (a.size !== undefined && b.size !== undefined && a.size !== b.size) return true;
  return a.mtimeNs !== undefined && b.mtimeNs !== undefined && a.mtimeNs !== b.mtimeNs;
}

function otherIdentity(a: KnownItem, b: KnownItem): boolean {
  if (a.kind !== b.kind) return true;
  return a.inode !== undefined && b.inode !== undefined && a.inode !== b.inode;
}

/** Replays the events path by path. `knownAt` is what was at a path before them (the cleaner's memory, else the index). */
export function replayEvents(
  events: readonly RawEvent[],
  knownAt: (path: RelativePath) => KnownItem | undefined,
): Map<RelativePath, Track> {
  const tracks = new Map<RelativePath, Track>();
  for (const event of events) {
    let track = tracks.get(event.path);
    if (track === undefined) {
      let before = knownAt(event.path);
      // An unlink or change of something neither knows: it was there, identity unknown.
      if (before === undefined && (event.type === 'unlink' || event.type === 'unlinkDir')) {
        before = { kind: kindOf(event.type) };
      }
      if (before === undefined && event.type === 'change') before = { kind: 'file' };
      track = {
        path: event.path,
        before,
        after: before,
        leftAs: undefined,
        leftAtMs: 0,
        appearedAs: undefined,
        appearedAtMs: 0,
        blindChange: false,
      };
      tracks.set(event.path, track);
    }
    const stillBefore = track.before !== undefined && track.leftAs === undefined;
    if (event.type === 'unlink' || event.type === 'unlinkDir') {
      if (stillBefore) {
        track.leftAs = track.after;
        track.leftAtMs = event.atMs;
      }
      track.after = undefined;
      continue;
    }
    const item = itemOf(event);
    const current = track.after;
    if (current !== undefined && !otherIdentity(current, item)) {
      if (event.type === 'change' && (current.size === undefined || current.mtimeNs === undefined)) {
        track.blindChange = true;
      }
      track.after = { ...current, ...item };
      continue;
    }
    // Something new took the path: after an unlink, or renamed over what was here.
    if (current !== undefined && stillBefore) {
      track.leftAs = current;
      track.leftAtMs = event.atMs;
    }
    track.appearedAs = item;
    track.appearedAtMs = event.atMs;
    track.after = item;
  }
  return tracks;
}

/**
 * Pairs each item that left a path with the path where the same inode appeared within the window:
 * a move. Files must also keep size and mtime (a rename keeps both), so a freshly freed inode that
 * the file system hands to a new file is not taken for a move. Returns target path → source track.
 */
export function pairMoves(tracks: Map<RelativePath, Track>, windowMs: number): Map<RelativePath, Track> {
  const targets = new Map<string, Track>();
  for (const track of tracks.values()) {
    const appeared = track.appearedAs;
    // Only where the item still is at the end: a → b → c is one move a → c.
    if (appeared?.inode === undefined || track.after?.inode !== appeared.inode) continue;
    if (!targets.has(appeared.inode)) targets.set(appeared.inode, track);
  }
  const moves = new Map<RelativePath, Track>();
  if (targets.size === 0) return moves;
  for (const source of tracks.values()) {
    const left = source.leftAs;
    if (left?.inode === undefined) continue;
    const target = targets.get(left.inode);
    if (target === undefined || target === source || moves.has(target.path)) continue;
    const appeared = target.appearedAs as KnownItem;
    if (appeared.kind !== left.kind || contentDiffers(left, appeared)) continue;
    if (Math.abs(target.appearedAtMs - source.leftAtMs) > windowMs) continue;
    moves.set(target.path, source);
  }
  return moves;
}

/** The changes one path's events amount to, given the moves paired. */
export function classify(track: Track, source: Track | undefined, movedAway: boolean): LocalChange[] {
  const { path, before, after } = track;
  const out: LocalChange[] = [];
  if (source !== undefined && after !== undefined) {
    out.push({ kind: 'moved', path, fromPath: source.path, itemKind: after.kind });
    const original = source.before ?? after;
    if (contentDiffers(original, after)) out.push({ kind: 'modified', path, itemKind: after.kind });
    return out;
  }
  if (after === undefined) {
    if (before !== undefined && !movedAway) out.push({ kind: 'deleted', path, itemKind: before.kind });
    return out;
  }
  if (before === undefined) return [{ kind: 'created', path, itemKind: after.kind }];
  if (track.leftAs === undefined) {
    // The same item all along: a folder has no content of its own (device-api.md §3).
    if (after.kind === 'file' && (contentDiffers(before, after) || track.blindChange)) {
      out.push({ kind: 'modified', path, itemKind: 'file' });
    }
    return out;
  }
  // Another item took the path.
  if (before.kind !== after.kind) {
    if (!movedAway) out.push({ kind: 'deleted', path, itemKind: before.kind });
    out.push({ kind: 'created', path, itemKind: after.kind });
  } else if (movedAway) {
    out.push({ kind: 'created', path, itemKind: after.kind });
  } else if (after.kind === 'file') {
    // A safe-save: a temporary file renamed over this one, or delete then create.
    out.push({ kind: 'modified', path, itemKind: 'file' });
  }
  return out;
}

/** Drops what a folder's own change already says: its subtree moved, arrived or vanished with it. */
export function withoutImplied(changes: LocalChange[]): LocalChange[] {
  const folderMoves = new Map<RelativePath, RelativePath>();
  const createdFolders = new Set<RelativePath>();
  const deletedFolders = new Set<RelativePath>();
  for (const change of changes) {
    if (change.itemKind !== 'folder') continue;
    if (change.kind === 'moved' && change.fromPath !== undefined)
      folderMoves.set(change.fromPath, change.path);
    if (change.kind === 'created') createdFolders.add(change.path);
    if (change.kind === 'deleted') deletedFolders.add(change.path);
  }
  const implied = (change: LocalChange): boolean => {
    switch (change.kind) {
      case 'moved': {
        const from = change.fromPath ?? '';
        return someAncestor(from, (ancestor) => {
          const target = folderMoves.get(ancestor);
          return target !== undefined && change.path === target + from.slice(ancestor.length);
        });
      }
      case 'created':
      case 'modified':
        return someAncestor(change.path, (ancestor) => createdFolders.has(ancestor));
      case 'deleted':
        return someAncestor(change.path, (ancestor) => deletedFolders.has(ancestor));
    }
  };
  const order: Record<LocalChangeKind, number> = { moved: 0, created: 1, modified: 2, deleted: 3 };
  return changes
    .filter((change) => !implied(change))
    .sort((a, b) => order[a.kind] - order[b.kind] || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Whether `test` holds for a proper ancestor of `path` (the root '' holds no changes, so it is skipped). */
function someAncestor(path: RelativePath, test: (ancestor: RelativePath) => boolean): boolean {
  for (let ancestor = parentOf(path); ancestor !== ''; ancestor = parentOf(ancestor)) {
    if (test(ancestor)) return true;
  }
  return false;
}
