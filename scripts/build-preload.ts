// Bundles main/preload.ts into one CommonJS file (dist/main/preload.cjs): a sandboxed preload can require only `electron` and a few built-ins, never another file.
import { basename, dirname, join } from 'node:path';
import { build } from 'vite';

const ROOT = join(import.meta.dirname, '..');
export const PRELOAD_SOURCE = join(ROOT, 'main', 'preload.ts');
export const PRELOAD_OUT = join(ROOT, 'dist', 'main', 'preload.cjs');

/**
 * Vite's library build, without the renderer's vite.config.ts: `electron` stays a `require`, everything
 * else (common/contract.ts and the few lines it uses) is inlined. Not minified, so Electronegativity
 * and a person reading the packed app see the same code as the source.
 */
export async function buildPreload(outFile: string = PRELOAD_OUT): Promise<void> {
  await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    build: {
      outDir: dirname(outFile),
      // dist/main also holds what tsc compiled: only this file is written.
      emptyOutDir: false,
      target: 'chrome140',
      minify: false,
      sourcemap: false,
      reportCompressedSize: false,
      copyPublicDir: false,
      lib: {
        entry: PRELOAD_SOURCE,
        formats: ['cjs'],
        fileName: () => basename(outFile),
      },
      rollupOptions: { external: ['electron'] },
    },
  });
}

if (import.meta.main) {
  await buildPreload();
  console.log(`bundled main/preload.ts into ${PRELOAD_OUT}`);
}
