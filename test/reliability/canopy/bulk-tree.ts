// The harness's own items beside a scenario's tree: many files in folders (bulk deletes, big roots), and big.bin's versions.
import type { TreeItem } from './model.ts';

/**
 * `folders` folders `<prefix>-1`... each with subfolders `s1` and `s2` and `files` files between
 * them, parents first. Names no scenario makes, and contents unique to the seed: the ledger and the
 * duplicate check tell each apart.
 */
export function folderTree(seed: number, prefix: string, folders: number, files: number): TreeItem[] {
  const items: TreeItem[] = [];
  for (let folder = 1; folder <= folders; folder++) {
    const top = `${prefix}-${folder}`;
    items.push({ path: top, kind: 'folder' });
    items.push({ path: `${top}/s1`, kind: 'folder' }, { path: `${top}/s2`, kind: 'folder' });
    for (let file = 1; file <= files; file++) {
      const name = `f${String(file).padStart(2, '0')}.txt`;
      items.push({
        path: `${top}/s${(file % 2) + 1}/${name}`,
        kind: 'file',
        content: `${seed}:${prefix}${folder}/${name}\n`,
      });
    }
  }
  return items;
}

/** The top-level folders of `folderTree`, first to last. */
export function treeFolders(prefix: string, folders: number): string[] {
  return Array.from({ length: folders }, (_, index) => `${prefix}-${index + 1}`);
}

export const BIG_FILE = 'big.bin';
const LINE = 64;

/**
 * Version `version` of big.bin, `size` bytes: lines of 64 bytes, each naming the seed, the version
 * and its number, so bytes of two versions side by side (a torn upload) match neither.
 */
export function bigVersion(seed: number, version: number, size: number): string {
  const lines: string[] = [];
  for (let line = 0; line * LINE < size; line++) {
    const text = `${seed}:big v${version} line ${line} `;
    lines.push(`${text.padEnd(LINE - 1, '.')}\n`);
  }
  return lines.join('').slice(0, size);
}

/** What every line of a version holds: a chunk of an upload holding it is that version's. */
export function bigTag(seed: number, version: number): string {
  return `${seed}:big v${version} line `;
}
