// One digest per folder of what it holds on disk, from a scan or from the index: equal digests, nothing changed there.
import { createHash } from 'node:crypto';
import type { ItemKind } from './items.ts';

/**
 * Bump when what goes into a digest changes (or what the scanner leaves out): digests written by another
 * version are then never equal, and the first pass of the new version compares item by item.
 */
export const FOLDER_DIGEST_VERSION = 1;

/** One direct child of a folder as the digest sees it: the local half of an index row, or a scanned entry. */
export interface DigestItem {
  /** The name as on disk (not normalised). */
  name: string;
  kind: ItemKind;
  inode: string | null;
  /** Files only; folders' sizes and mtimes change with their children and are no change of their own. */
  size: number | null;
  mtimeNs: bigint | null;
}

/**
 * The line one child adds. A name holds no NUL (no file system allows one), so NUL ends it, and the
 * lines sort by name. An index row without a local half (`null`s) gives a line no scan can give.
 */
export function digestLine(item: DigestItem): string {
  return item.kind === 'folder'
    ? folderDigestLine(item.name, item.inode)
    : fileDigestLine(item.name, item.inode, item.size, item.mtimeNs);
}

export function folderDigestLine(name: string, inode: string | null): string {
  return `${name}\u0000d${inode ?? '-'}\u0000`;
}

export function fileDigestLine(
  name: string,
  inode: string | null,
  size: number | null,
  mtimeNs: bigint | null,
): string {
  return `${name}\u0000f${inode ?? '-'} ${size ?? '-'} ${mtimeNs ?? '-'}\u0000`;
}

/** The digest of a folder from its children's lines, in any order (`lines` is sorted in place). */
export function digestOfLines(lines: string[]): string {
  // Default sort: UTF-16 code units, the same order on both sides whatever SQLite would have given.
  lines.sort();
  return createHash('sha256').update(lines.join('')).digest('base64');
}

export function folderDigest(items: Iterable<DigestItem>): string {
  const lines: string[] = [];
  for (const item of items) lines.push(digestLine(item));
  return digestOfLines(lines);
}
