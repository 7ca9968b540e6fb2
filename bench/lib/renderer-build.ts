// Builds renderer/ with the settings of vite.config.ts into a folder of the bench's own, so a UI bench never depends on (or races) dist/renderer.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { rendererViteConfig } from '../../vite.config.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface BuiltRenderer {
  /** The built renderer: index.html and assets/. */
  dir: string;
  remove(): void;
}

export async function buildRenderer(): Promise<BuiltRenderer> {
  // Inside the repository (gitignored), as the renderer-bundle bench does.
  mkdirSync(join(ROOT, '.scratch'), { recursive: true });
  const scratch = mkdtempSync(join(ROOT, '.scratch', 'ui-bench-renderer-'));
  const dir = join(scratch, 'renderer');
  try {
    await build({ ...rendererViteConfig(join(ROOT, 'renderer'), dir), configFile: false });
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return { dir, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}
