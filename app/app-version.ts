// The client's version, read from the nearest package.json above this module: the same answer from the sources, from the compiled dist/ and from a packed app.asar.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Walks up from `startDir` to the first package.json named `name`. The compiled tree (dist/app/…) and
 * the packed app (app.asar/dist/app/…) sit one folder deeper than the sources, so a fixed relative path
 * would find the package in one layout only.
 */
export function packageVersion(startDir: string, name = 'mch-sync'): string {
  let dir = startDir;
  for (;;) {
    const candidate = join(dir, 'package.json');
    let text: string | undefined;
    try {
      text = readFileSync(candidate, 'utf8');
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const parsed = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (parsed.name === name && typeof parsed.version === 'string') return parsed.version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json of ${name} above ${startDir}`);
    dir = parent;
  }
}

/** This client's version. */
export function clientVersion(): string {
  return packageVersion(dirname(fileURLToPath(import.meta.url)));
}
