#!/usr/bin/env node
// Entry point of the `mch-sync` command: a checkout runs its TypeScript sources, an installed copy its compiled JavaScript.
import { existsSync, mkdirSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `mch-sync needs Node 22.18 or newer (this is ${process.version}). Run it through npm, which uses the ` +
      'Node of the project: npm run sync -- [options]',
  );
  process.exit(1);
}

// V8's compiled code for every module, kept between runs: a command's start is mostly compiling what
// it loads (zod alone is ~50 ms cold). In the user's own cache folder, not the shared temporary one
// (Node's default), where another user could leave code for us to run; NODE_COMPILE_CACHE still wins.
function compileCacheDir() {
  if (process.env.NODE_COMPILE_CACHE) return undefined;
  const base =
    process.platform === 'win32'
      ? (process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'))
      : process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const dir = join(base, 'mch-sync', 'compile-cache');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return null;
  }
}
const cacheDir = compileCacheDir();
if (cacheDir !== null) enableCompileCache(cacheDir);

// A checkout always runs its sources, so an edit is never hidden behind an older build. `npm run
// install-cli` installs the compiled build without them, its modules bundled into bundle/ (a start
// reads a few files instead of resolving hundreds); dist/ alone is the compiled build unbundled.
const fromSources = existsSync(new URL('../app/cli/main.ts', import.meta.url));
const bundled = !fromSources && existsSync(new URL('../bundle/main.js', import.meta.url));
const entry = (path) =>
  new URL(
    fromSources ? `../${path}.ts` : bundled ? `../bundle/${path.split('/').pop()}.js` : `../dist/${path}.js`,
    import.meta.url,
  ).href;

// Before anything is loaded: a pass over a million files must not leave V8 4× the heap it needs.
const { limitHeapGrowth } = await import(entry('app/system/heap-growth'));
limitHeapGrowth();
const { main } = await import(entry('app/cli/main'));
process.exitCode = await main(process.argv.slice(2));
