// A benchmark's working folder that can be kept between runs (mirroring 100,000 files takes minutes).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WorkFolder {
  path: string;
  /** True when a kept folder made for the same `sizes` was found: the setup can be skipped. */
  reused: boolean;
  /** Marks the setup as complete (a kept folder is reused from then on). */
  ready(): void;
  /** Removes the folder unless it is kept. */
  done(): void;
}

/**
 * `keepDir` (from an environment variable) keeps the folder and reuses it when it was made for the same
 * `sizes`; without it, a new temporary folder is made and removed at the end.
 */
export function workFolder(keepDir: string | undefined, prefix: string, sizes: string): WorkFolder {
  const path = keepDir ?? mkdtempSync(join(tmpdir(), prefix));
  const mark = join(path, 'ready');
  const reused = keepDir !== undefined && existsSync(mark) && readFileSync(mark, 'utf8') === sizes;
  if (!reused) {
    rmSync(path, { recursive: true, force: true });
    mkdirSync(path, { recursive: true });
  }
  return {
    path,
    reused,
    ready: () => {
      if (keepDir !== undefined) writeFileSync(mark, sizes);
    },
    done: () => {
      if (keepDir === undefined) rmSync(path, { recursive: true, force: true });
    },
  };
}
