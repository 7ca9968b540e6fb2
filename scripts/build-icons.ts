// Rasterises the SVG icons in build/icons/src into the tray images and app icons electron-builder and main/ use.
//
//   npx node scripts/build-icons.ts                 write build/icons/tray/* , build/icon.png, build/icon.ico
//   npx node scripts/build-icons.ts --check         exit 1 when a committed file differs from its source
//   npx node scripts/build-icons.ts --preview F.png a magnified sheet of the tray icons on light and dark panels
//
// The outputs are committed (electron-builder reads them at pack time, and a fresh clone needs no render step);
// test/unit/build/icons.test.ts fails when one is out of date with its SVG.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderIconSet } from './icons/icon-set.ts';
import { previewSheet } from './icons/preview-sheet.ts';

const buildDir = fileURLToPath(new URL('../build/', import.meta.url));
const sourceDir = join(buildDir, 'icons', 'src');

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

function main(argv: string[]): number {
  const previewAt = argv.indexOf('--preview');
  if (previewAt >= 0) {
    const out = argv[previewAt + 1];
    if (out === undefined) {
      console.error('build-icons: --preview needs a file name');
      return 2;
    }
    writeFileSync(out, previewSheet(sourceDir));
    console.log(`build-icons: wrote ${out}`);
    return 0;
  }
  const check = argv.includes('--check');
  const stale: string[] = [];
  for (const [relative, bytes] of renderIconSet(sourceDir)) {
    const path = join(buildDir, relative);
    const current = readOrNull(path);
    if (current !== null && current.equals(bytes)) continue;
    if (check) {
      stale.push(`build/${relative}`);
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    console.log(`build-icons: wrote build/${relative}`);
  }
  if (stale.length > 0) {
    console.error(`build-icons: out of date with build/icons/src (run npx node scripts/build-icons.ts):`);
    for (const file of stale) console.error(`  ${file}`);
    return 1;
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
