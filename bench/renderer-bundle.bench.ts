// The window's bundle size: gzip of every JS and CSS file Vite writes for renderer/, beside a Preact "hello world" built with the same settings; goal under 150 KB.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { rendererViteConfig } from '../vite.config.ts';

const ROOT = join(import.meta.dirname, '..');
const GOAL_BYTES = 150 * 1024;

interface Bundle {
  files: Array<{ name: string; raw: number; gzip: number }>;
  raw: number;
  gzip: number;
}

/** Builds the page whose index.html is in `root` into a temporary folder and measures what it wrote. */
async function measure(root: string, scratch: string): Promise<Bundle> {
  const outDir = mkdtempSync(join(scratch, 'out-'));
  await build({ ...rendererViteConfig(root, outDir), configFile: false });
  const files = readdirSync(join(outDir, 'assets'))
    .filter((name) => ['.js', '.css'].includes(extname(name)))
    .map((name) => {
      const bytes = readFileSync(join(outDir, 'assets', name));
      return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
  return {
    files,
    raw: files.reduce((sum, file) => sum + file.raw, 0),
    gzip: files.reduce((sum, file) => sum + file.gzip, 0),
  };
}

/** The smallest Preact page: the part of the bundle any Preact window pays. */
function writeHelloWorld(folder: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>hello</title>' +
      '<script type="module" src="./main.tsx"></script></head><body><div id="root"></div></body></html>\n',
  );
  writeFileSync(
    join(folder, 'main.tsx'),
    "import { render } from 'preact';\n" +
      "const root = document.getElementById('root');\n" +
      'if (root !== null) render(<h1>Hello, world</h1>, root);\n',
  );
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

// Inside the repository (gitignored) so the hello world resolves preact from its node_modules.
mkdirSync(join(ROOT, '.scratch'), { recursive: true });
const scratch = mkdtempSync(join(ROOT, '.scratch', 'renderer-bundle-'));
try {
  const hello = join(scratch, 'hello');
  writeHelloWorld(hello);
  const baseline = await measure(hello, scratch);
  const ui = await measure(join(ROOT, 'renderer'), scratch);
  console.log('\nRenderer bundle (Vite, same settings; gzip -9 of the JS and CSS under assets/)');
  console.log('| case | files | raw | gzip | ratio to baseline (gzip) |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(
    `| Preact hello world | ${baseline.files.length} | ${kb(baseline.raw)} | ${kb(baseline.gzip)} | 1.00 (baseline) |`,
  );
  console.log(
    `| mch-sync window | ${ui.files.length} | ${kb(ui.raw)} | ${kb(ui.gzip)} | ${(ui.gzip / baseline.gzip).toFixed(2)} |`,
  );
  for (const file of ui.files) console.log(`|   ${file.name} | | ${kb(file.raw)} | ${kb(file.gzip)} | |`);
  const within = ui.gzip < GOAL_BYTES;
  console.log(`\nGoal: under ${kb(GOAL_BYTES)} gzip: ${within ? 'met' : 'NOT met'} (${kb(ui.gzip)}).`);
  if (!within) process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
