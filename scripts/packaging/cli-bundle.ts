// The installed command's modules bundled into a few chunks (rolldown): a start then reads a handful of files instead of resolving hundreds.
//
// Measured on this machine: `mch-sync status` spends most of its start in Node's module loader (zod alone
// is 225 resolutions), and `run --once` loads about 200 of our modules. The bundle keeps the dynamic
// imports as chunks, so a command still loads only what it uses. Native packages stay outside (their
// binaries are loaded by path), and so do the files the modules find through app/app-files.ts (the
// migrations, the addons, the mount process, the window), which stay in dist/ beside the bundle.
import { rolldown } from 'rolldown';
import { join } from 'node:path';

/** Packages loaded with their native binaries: required at run time from node_modules, never bundled. */
const NATIVE = [/^better-sqlite3(\/|$)/, /^@napi-rs\/keyring/];

/** Bundles `root/dist/app` (the compiled CLI) into `root/bundle/`: main.js, heap-growth.js and their chunks. */
export async function bundleCli(root: string): Promise<void> {
  const bundle = await rolldown({
    input: {
      main: join(root, 'dist', 'app', 'cli', 'main.js'),
      'heap-growth': join(root, 'dist', 'app', 'system', 'heap-growth.js'),
    },
    platform: 'node',
    cwd: root,
    external: [/^node:/, ...NATIVE],
    logLevel: 'warn',
  });
  try {
    // One flat folder: every chunk is at the same depth, wherever the installation is moved.
    await bundle.write({
      dir: join(root, 'bundle'),
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: '[name]-[hash].js',
    });
  } finally {
    await bundle.close();
  }
}
