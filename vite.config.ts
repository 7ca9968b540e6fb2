// Vite settings of the renderer bundle (`npm run build:renderer` → dist/renderer/); the bundle bench builds its baseline with the same settings.
import { join } from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig, type UserConfig } from 'vite';

/** The build of a page whose index.html is in `root`, written to `outDir`. */
export function rendererViteConfig(root: string, outDir: string): UserConfig {
  return {
    root,
    // Relative asset paths: the headless host serves the folder at `/`, Electron will load it from a
    // custom protocol; `./assets/...` works under both.
    base: './',
    plugins: [preact()],
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      // The CSP has no 'unsafe-inline': the polyfill would be an inline script, and every browser the
      // window runs in (Electron's Chromium, a current browser) supports modulepreload anyway.
      modulePreload: { polyfill: false },
      // Everything as files under 'self': no data: URIs a stricter policy would have to allow.
      assetsInlineLimit: 0,
      reportCompressedSize: false,
    },
  };
}

const repository = import.meta.dirname;

export default defineConfig(
  rendererViteConfig(join(repository, 'renderer'), join(repository, 'dist', 'renderer')),
);
