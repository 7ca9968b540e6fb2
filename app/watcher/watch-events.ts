// Turns raw file system events into clean local changes (moves paired by inode, safe-saves as one edit, own writes dropped); pure.
import { temporaryOrSystemReason } from '../sync/local/local-names.ts';
import { STATE_FOLDER_NAME } from '../model/names.ts';
import type { ItemKind, LocalEntry, RelativePath } from '../model/items.ts';
import { collapseAffectedPaths, parentOf, type AffectedPathLimits } from './affected-paths.ts';
import {
  classify,
  contentDiffers,
  kindOf,
  pairMoves,
  replayEvents,
  withoutImplied,
  type Track,
} from './event-replay.ts';
import type { ExpectedEchoes } from './expected-echoes.ts';
import type { CleanedBatch, KnownItem, LocalChange, RawEvent } from './local-changes.ts';

export type {
  CleanedBatch,
  KnownItem,
  LocalChange,
  LocalChangeKind,
  RawEvent,
  RawEventType,
} from './local-changes.ts';

export interface EventCleanerOptions {
  /** An unlink and an add of the same inode this close together are one move (default 1000 ms). */
  moveWindowMs?: number;
  /** The client's own writes, swallowed once each. */
  echoes?: ExpectedEchoes;
  /** The item last seen at a path the cleaner has not seen (the index), to pair a move away from it. */
  knownItem?: (path: RelativePath) => KnownItem | undefined;
  /** Paths excluded by `.mchignore` rules, dropped like temporary files. */
  isIgnored?: (path: RelativePath, kind: ItemKind) => boolean;
  affectedLimits?: AffectedPathLimits;
  /** Ripe deletions wait for younger ones at most this long after the oldest (default `DELETION_GROUP_MS`). */
  deletionGroupMs?: number;
}

/** How long deletions that keep coming are held together before the ripe ones go out anyway. */
export const DELETION_GROUP_MS = 10_000;

/** The pending events replayed: tracks by path, the moves paired, and what each track amounts to. */
interface Replayed {
  tracks: Map<RelativePath, Track>;
  moves: Map<RelativePath, Track>;
  sources: Set<RelativePath>;
  outcomes: { track: Track; outcome: LocalChange[] }[];
}

/**
 * At most this many pending events can be settled (four renames): past it, more are likely on the way
 * (a burst of renames, a tool moving a selection), and the batch waits for the long quiet time.
 */
export const SETTLED_MAX_EVENTS = 8;

// Partial downloads end in `.mch-partial`; the scanner skips them only with a leading dot, but no user
// file has this suffix and an executor rename of one must never come back as a change.
const PARTIAL_SUFFIX = '.mch-partial';

/** Why a path is never synced (a component is the state folder, or a temporary or system name), or undefined. */
export function neverSyncedReason(path: RelativePath): string | undefined {
  if (path === '') return undefined;
  for (const name of path.split('/')) {
    if (name === STATE_FOLDER_NAME) return "the client's own state folder";
    const reason = temporaryOrSystemReason(name);
    if (reason !== undefined) return reason;
    if (name.endsWith(PARTIAL_SUFFIX)) return 'an unfinished download';
  }
  return undefined;
}

/**
 * Collects raw events and, on `drain`, turns those pending into cleaned changes. Keeps what it knows
 * of every item (seeded from a scan, then from events) to recognise an unlinked item when it shows up
 * elsewhere. No I/O and no timers: time comes in with the events and with `drain(nowMs)`.
 */
export class EventCleaner {
  readonly #windowMs: number;
  readonly #groupMs: number;
  readonly #options: EventCleanerOptions;
  readonly #known = new Map<RelativePath, KnownItem>();
  #pending: RawEvent[] = [];

  constructor(options: EventCleanerOptions = {}) {
    this.#windowMs = options.moveWindowMs ?? 1000;
    this.#groupMs = options.deletionGroupMs ?? DELETION_GROUP_MS;
    this.#options = options;
  }

  /** Events waiting for `drain`. */
  get pendingCount(): number {
    return this.#pending.length;
  }

  /** Deletions among them (an unlink of a file or a folder), which a drain may hold for the move window. */
  get pendingDeletions(): number {
    let count = 0;
    for (const event of this.#pending) if (event.type === 'unlink' || event.type === 'unlinkDir') count += 1;
    return count;
  }

  /**
   * Whether the pending events already say all they will: few (`SETTLED_MAX_EVENTS`), no folder among
   * them, and every one half of a move paired by inode, or nothing at all (a chmod). Then a batch need
   * not wait out the long quiet time. Anything else may be the start of something longer: an unlink
   * whose add has not come (a move out, or one whose other half is late), a folder (chokidar reports its
   * children after it, over up to a second for thousands), a created or replaced file (being written:
   * delete then create, a safe-save), an edit (the next write may follow).
   */
  get settled(): boolean {
    if (this.#pending.length > SETTLED_MAX_EVENTS) return false;
    if (this.#pending.some((event) => kindOf(event.type) === 'folder')) return false;
    for (const { outcome } of this.#replay().outcomes) {
      if (outcome.some((change) => change.kind !== 'moved')) return false;
    }
    return true;
  }

  /** The pending events replayed path by path: each track with the changes it amounts to. */
  #replay(): Replayed {
    // What was at a path: the cleaner's memory, else the index (the service keeps no scan of every
    // file). An atomic save over a file the cleaner never saw an event for replaces the index's item:
    // with only the memory asked, a save then a delete read as a file made and gone (soak seed 73131).
    const tracks = replayEvents(this.#pending, (path) => this.knownItemAt(path));
    const moves = pairMoves(tracks, this.#windowMs);
    const sources = new Set([...moves.values()].map((track) => track.path));
    const folderMoves = new Map<RelativePath, RelativePath>();
    for (const [target, source] of moves) {
      if (source.leftAs?.kind === 'folder') folderMoves.set(target, source.path);
    }
    const outcomes = [...tracks.values()].map((track) => ({
      track,
      outcome: this.#cameWithFolder(track, folderMoves)
        ? []
        : classify(track, moves.get(track.path), sources.has(track.path)),
    }));
    return { tracks, moves, sources, outcomes };
  }

  /**
   * Whether a new item below a moved folder is the item that was at the same place below the folder's
   * old path (same inode, kind and content): it moved with its folder. A watcher that reads a folder
   * new to it reports what it holds as added, with no unlink of the old paths to pair them with.
   */
  #cameWithFolder(track: Track, folderMoves: Map<RelativePath, RelativePath>): boolean {
    const after = track.after;
    if (folderMoves.size === 0 || track.before !== undefined || after?.inode === undefined) return false;
    for (let ancestor = parentOf(track.path); ancestor !== ''; ancestor = parentOf(ancestor)) {
      const source = folderMoves.get(ancestor);
      if (source === undefined) continue;
      const was = this.knownItemAt(source + track.path.slice(ancestor.length));
      return was?.inode === after.inode && was.kind === after.kind && !contentDiffers(was, after);
    }
    return false;
  }

  /** Replaces what is known with a scan's entries and drops the pending events (after a full rescan). */
  seed(entries: Iterable<LocalEntry>): void {
    this.#known.clear();
    this.#pending = [];
    for (const entry of entries) {
      this.#known.set(entry.path, {
        kind: entry.kind,
        inode: entry.inode,
        size: entry.size,
        mtimeNs: entry.mtimeNs,
      });
    }
  }

  /** The item known at `path`, if any (to tell whether a symlink replaced something synced). */
  knownItemAt(path: RelativePath): KnownItem | undefined {
    return this.#known.get(path) ?? this.#options.knownItem?.(path);
  }

  /** Records one event; events for paths that are never synced are dropped here. */
  push(event: RawEvent): void {
    if (event.path === '' || neverSyncedReason(event.path) !== undefined) return;
    if (this.#options.isIgnored?.(event.path, kindOf(event.type))) return;
    this.#pending.push(event);
  }

  /** Cleans the pending events into changes; deletions younger than the move window stay pending. */
  drain(nowMs: number): CleanedBatch {
    const { tracks, moves, sources, outcomes } = this.#replay();
    const changes: LocalChange[] = [];
    const deleted: Track[] = [];
    for (const { track, outcome } of outcomes) {
      changes.push(...outcome);
      if (outcome.length === 1 && outcome[0]?.kind === 'deleted' && track.after === undefined) {
        deleted.push(track);
      }
    }
    const held = this.#held(tracks, deleted, sources, nowMs);
    const ready = changes.filter((change) => !(change.kind === 'deleted' && held.paths.has(change.path)));
    const accounted = this.#accountedWrites(outcomes);
    this.#commit(tracks, moves, held.paths);
    this.#pending = this.#pending.filter((event) => held.paths.has(event.path));

    const cleaned = withoutImplied(ready);
    const echoes = this.#options.echoes;
    // The accounted writes use up the echoes announced for them, and are no changes themselves.
    const onlyAccounted = new Set(accounted);
    const changesOut = echoes
      ? echoes.swallow([...cleaned, ...accounted], nowMs).filter((change) => !onlyAccounted.has(change))
      : cleaned;
    const affected = changesOut.flatMap((change) =>
      change.fromPath === undefined ? [change.path] : [change.fromPath, change.path],
    );
    const batch: CleanedBatch = {
      changes: changesOut,
      affectedPaths:
        changesOut.length === 0 ? [] : collapseAffectedPaths(affected, this.#options.affectedLimits),
    };
    if (held.untilMs !== undefined) batch.heldUntilMs = held.untilMs;
    return batch;
  }

  /**
   * Paths that an add or a change event reached and that are, at the end, what the memory or the index
   * already had there: mostly the engine's own writes, recorded in the index before their events came.
   * As writes they use up the echo the executor announced; left, such an echo would take a later real
   * change at that path (or another spelling of it) for itself (soak seed 74084).
   */
  #accountedWrites(outcomes: Replayed['outcomes']): LocalChange[] {
    const written = new Set<RelativePath>();
    for (const event of this.#pending)
      if (event.type !== 'unlink' && event.type !== 'unlinkDir') written.add(event.path);
    const accounted: LocalChange[] = [];
    for (const { track, outcome } of outcomes) {
      if (outcome.length > 0 || track.after === undefined || !written.has(track.path)) continue;
      accounted.push({ kind: 'created', path: track.path, itemKind: track.after.kind });
    }
    return accounted;
  }

  /** Deletions younger than the window (and what vanished under them) wait: their add may be late. */
  #held(
    tracks: Map<RelativePath, Track>,
    deleted: Track[],
    sources: Set<RelativePath>,
    nowMs: number,
  ): { paths: Set<RelativePath>; untilMs: number | undefined } {
    // A folder something else took the place of (a file, another folder) goes out now, and what
    // vanished below it goes with it: held, it would wait alone for an add of its inode, and a new
    // item given the freed inode number meanwhile would be taken for its move (soak seed 30088).
    const replacedFolders = new Set<RelativePath>();
    for (const track of tracks.values()) {
      if (track.leftAs?.kind === 'folder' && track.after !== undefined && !sources.has(track.path)) {
        replacedFolders.add(track.path);
      }
    }
    const roots = new Set<RelativePath>();
    let untilMs: number | undefined;
    const waiting = deleted.filter(
      (track) => replacedFolders.size === 0 || !hasAncestorIn(track.path, replacedFolders),
    );
    for (const track of waiting) {
      const ripeAtMs = track.leftAtMs + this.#windowMs;
      if (ripeAtMs <= nowMs) continue;
      roots.add(track.path);
      untilMs = untilMs === undefined ? ripeAtMs : Math.min(untilMs, ripeAtMs);
    }
    // Deletions go out together: a ripe one waits with the younger ones, so `rm -rf a b c` (whose events
    // arrive over some milliseconds) is one batch, planned and guarded as one, not a folder per pass
    // that each stays under the mass-delete guard. A storm of deletions that goes on for longer than
    // `DELETION_GROUP_MS` lets out what is ripe: the engine's guard counts deletes across passes.
    if (roots.size > 0) {
      let oldest = nowMs;
      for (const track of waiting) oldest = Math.min(oldest, track.leftAtMs);
      if (nowMs - oldest < this.#groupMs) for (const track of waiting) roots.add(track.path);
    }
    const paths = new Set<RelativePath>();
    if (roots.size === 0) return { paths, untilMs };
    for (const track of tracks.values()) {
      if (track.after !== undefined || sources.has(track.path)) continue;
      for (let path = track.path; ; path = parentOf(path)) {
        if (roots.has(path)) {
          paths.add(track.path);
          break;
        }
        if (path === '') break;
      }
    }
    return { paths, untilMs };
  }

  /** Makes the known items reflect the drained events. */
  #commit(tracks: Map<RelativePath, Track>, moves: Map<RelativePath, Track>, held: Set<RelativePath>): void {
    // Items below a folder that moved or vanished move or vanish with it, events or not.
    const folderMoves = new Map<RelativePath, RelativePath>();
    for (const [target, source] of moves) {
      if (source.leftAs?.kind === 'folder') folderMoves.set(source.path, target);
    }
    const goneFolders = new Set<RelativePath>();
    for (const track of tracks.values()) {
      if (held.has(track.path) || track.leftAs?.kind !== 'folder') continue;
      if (!folderMoves.has(track.path)) goneFolders.add(track.path);
    }
    if (folderMoves.size > 0 || goneFolders.size > 0) {
      for (const [path, item] of [...this.#known]) {
        if (tracks.has(path)) continue;
        for (let ancestor = parentOf(path); ; ancestor = parentOf(ancestor)) {
          const target = folderMoves.get(ancestor);
          if (target !== undefined || goneFolders.has(ancestor)) {
            this.#known.delete(path);
            const moved = target === undefined ? undefined : target + path.slice(ancestor.length);
            if (moved !== undefined && !tracks.has(moved)) this.#known.set(moved, item);
            break;
          }
          if (ancestor === '') break;
        }
      }
    }
    for (const track of tracks.values()) {
      if (held.has(track.path)) continue;
      if (track.after === undefined) this.#known.delete(track.path);
      else this.#known.set(track.path, track.after);
    }
  }
}

/** Whether a proper ancestor of `path` is in `folders`. */
function hasAncestorIn(path: RelativePath, folders: Set<RelativePath>): boolean {
  for (let ancestor = parentOf(path); ancestor !== ''; ancestor = parentOf(ancestor)) {
    if (folders.has(ancestor)) return true;
  }
  return false;
}
