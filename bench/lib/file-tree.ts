// Writes the local trees the sync benchmarks run on: a fixed number of files spread over a fixed number of folders.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TreeShape {
  files: number;
  folders: number;
  /** Folders are grouped under this many top folders (1: all folders directly in the root). */
  topFolders: number;
  /** Bytes of file number `index` (0-based, counted over the whole tree). */
  size: (index: number) => number;
}

export interface WrittenTree {
  files: number;
  folders: number;
  bytes: number;
}

/** Sizes 1-4 KiB, the same sequence on every run (a linear congruential generator, not Math.random). */
export function smallFileSizes(seed = 1): (index: number) => number {
  const sizes: number[] = [];
  let state = seed >>> 0;
  return (index) => {
    while (sizes.length <= index) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      sizes.push(1024 + (state % (3 * 1024 + 1)));
    }
    return sizes[index] as number;
  };
}

/**
 * The tree: `top-T/folder-F/file-I.txt` (or `folder-F/file-I.txt` with one top folder), files filled
 * with printable bytes, so no content sniffing on the device side takes a different path.
 */
export function writeTree(root: string, shape: TreeShape): WrittenTree {
  const perFolder = Math.ceil(shape.files / shape.folders);
  const filler = Buffer.alloc(64 * 1024, 'abcdefghijklmnopqrstuvwxyz0123456789\n');
  let written = 0;
  let bytes = 0;
  for (let f = 0; f < shape.folders; f += 1) {
    const folder =
      shape.topFolders > 1
        ? join(root, `top-${f % shape.topFolders}`, `folder-${f}`)
        : join(root, `folder-${f}`);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < perFolder && written < shape.files; i += 1) {
      const size = shape.size(written);
      // A different start in the filler for each file, so files of one size differ.
      const start = written % 37;
      writeFileSync(join(folder, `file-${i}.txt`), filler.subarray(start, start + size));
      written += 1;
      bytes += size;
    }
  }
  const tops = shape.topFolders > 1 ? Math.min(shape.topFolders, shape.folders) : 0;
  return { files: written, folders: shape.folders + tops, bytes };
}
