// The conflicts of a pair waiting to be settled, each with both sides as the user must see them to choose, and settling one by path.
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import type { ConflictRow } from '../index/version-rows.ts';
import { localPath, statOrUndefined } from '../sync/local/local-paths.ts';
import { originalPathOfConflictedCopy } from '../sync/plan/conflict-names.ts';
import { settleConflict, type ConflictKeep } from '../sync/versions/conflict-settle.ts';
import { VersionStore } from '../sync/versions/version-store.ts';
import type { PairVersionsPlace } from './version-restore.ts';
import { VersionsError } from './versions-errors.ts';

/** One side of a conflict: the file at the original name, or the conflicted copy. */
export interface ConflictSide {
  path: string;
  size: number;
  mTimeMs: number;
  /** Whose version it is: "this computer", "the device", "another computer". */
  from: string;
}

export interface ConflictEntry {
  /** The conflicted copy, relative to the pair. */
  copyPath: string;
  /** The file it was made beside (the device's version at the original name). */
  originalPath: string;
  madeAtMs: number;
  /** This computer made the copy: its content is this computer's edit. */
  madeHere: boolean;
  copy: ConflictSide;
  original: ConflictSide;
}

/**
 * The conflicts waiting below `folder` ('' the whole pair), newest first: the copies this computer made
 * (recorded when made) and those another computer made (recognised by their name), both files still
 * here, not settled by keeping both.
 */
export async function listConflicts(place: PairVersionsPlace, folder = ''): Promise<ConflictEntry[]> {
  const rows = place.index.versions;
  const known = new Map(rows.conflicts().map((row) => [row.copyPath, row]));
  const candidates: ConflictRow[] = [...known.values()];
  for (const copyPath of rows.conflictedCopyPaths()) {
    if (known.has(copyPath)) continue;
    const originalPath = originalPathOfConflictedCopy(copyPath);
    if (originalPath === copyPath) continue;
    candidates.push({ copyPath, originalPath, madeAtMs: 0, madeHere: false, settled: null });
  }
  const within = (path: string): boolean => folder === '' || path.startsWith(`${folder}/`);
  const found: ConflictEntry[] = [];
  for (const row of candidates) {
    if (row.settled !== null || !within(row.copyPath)) continue;
    const entry = await entryOf(place.root, row);
    if (entry !== undefined) found.push(entry);
  }
  return found.sort((a, b) => b.madeAtMs - a.madeAtMs || a.copyPath.localeCompare(b.copyPath));
}

async function entryOf(root: string, row: ConflictRow): Promise<ConflictEntry | undefined> {
  const copy = await statOrUndefined(localPath(root, row.copyPath));
  const original = await statOrUndefined(localPath(root, row.originalPath));
  if (copy === undefined || original === undefined || !copy.isFile() || !original.isFile()) return undefined;
  return {
    copyPath: row.copyPath,
    originalPath: row.originalPath,
    // A copy from another computer: its own time is when it was made there.
    madeAtMs: row.madeAtMs === 0 ? Number(copy.mtimeMs) : row.madeAtMs,
    madeHere: row.madeHere,
    copy: {
      path: row.copyPath,
      size: Number(copy.size),
      mTimeMs: Number(copy.mtimeMs),
      from: row.madeHere ? 'this computer' : 'another computer',
    },
    original: {
      path: row.originalPath,
      size: Number(original.size),
      mTimeMs: Number(original.mtimeMs),
      from: 'the device',
    },
  };
}

/**
 * Settles the conflict of `path` (its conflicted copy, or the file it was made beside when only one
 * copy is): `this` keeps the conflicted copy's content at the original name, `device` the file there,
 * `both` keeps both files and stops listing it. The loser is kept as a version.
 */
export async function resolveConflict(
  place: PairVersionsPlace,
  path: string,
  keep: 'this' | 'device' | 'both',
): Promise<ConflictEntry> {
  const conflicts = await listConflicts(place);
  const byCopy = conflicts.find((entry) => entry.copyPath === path);
  const byOriginal = conflicts.filter((entry) => entry.originalPath === path);
  if (byCopy === undefined && byOriginal.length > 1) {
    throw new VersionsError(
      'CONFLICT_AMBIGUOUS',
      `${path} has ${byOriginal.length} conflicted copies; name the copy to settle: ${byOriginal.map((entry) => entry.copyPath).join(', ')}.`,
    );
  }
  const conflict = byCopy ?? byOriginal[0];
  if (conflict === undefined) {
    throw new VersionsError('NOT_A_CONFLICT', `${path} is not a conflict waiting to be settled.`);
  }
  const choice: ConflictKeep = keep === 'this' ? 'copy' : keep === 'device' ? 'original' : 'both';
  await settleConflict(new VersionStore(place.root, place.index.versions), place.root, conflict, choice);
  return conflict;
}

/** What the window shows of a side: the first lines of a text file, or that it is an image. */
export type ConflictPreview =
  { kind: 'text'; lines: string[] } | { kind: 'image'; mime: string } | { kind: 'none' };

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** The first `maxLines` lines of a text file (at most 4 KiB read), or the image type; `none` for the rest. */
export async function conflictPreview(root: string, path: string, maxLines = 6): Promise<ConflictPreview> {
  const mime = IMAGE_TYPES[extname(path).toLowerCase()];
  if (mime !== undefined) return { kind: 'image', mime };
  const file = await open(localPath(root, path), 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.includes(0)) return { kind: 'none' };
    const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
    if (text.includes('\uFFFD')) return { kind: 'none' };
    return { kind: 'text', lines: text.split(/\r?\n/).slice(0, maxLines) };
  } finally {
    await file.close();
  }
}
