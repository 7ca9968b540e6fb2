// The client's version and its package's folder, read from the nearest package.json above this module: the same answer from the sources, dist/, a packed app.asar and the installed bundle.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the first package.json named `name` at or above `startDir`. */
export function packageRoot(startDir: string, name = 'mch-sync'): string {
  let dir = startDir;
  for (;;) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, 'package.json'), 'utf8');
    } catch {
      text = undefined;
    }
    if (text !== undefined && (JSON.parse(text) as { name?: unknown }).name === name) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json of ${name} above ${startDir}`);
    dir = parent;
  }
}

/**
 * The version in the first package.json named `name` at or above `startDir`. The compiled tree
 * (dist/app/…), the packed app (app.asar/dist/app/…) and the installed bundle sit deeper than the
 * sources, so a fixed relative path would find the package in one layout only.
 */
export function packageVersion(startDir: string, name = 'mch-sync'): string {
  const dir = packageRoot(startDir, name);
  const parsed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof parsed.version !== 'string')
    throw new Error(`the package.json of ${name} in ${dir} has no version`);
  return parsed.version;
}

/** This client's version. */
export function clientVersion(): string {
  return packageVersion(dirname(fileURLToPath(import.meta.url)));
}
