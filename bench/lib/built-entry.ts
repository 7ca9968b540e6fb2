// The compiled CLI as a command: `npm run build`, then an entry like bin/mch-sync.js that runs dist/.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const BUILT_MAIN = new URL('../../dist/app/cli/main.js', import.meta.url).href;
const BUILT_HEAP_GROWTH = new URL('../../dist/app/system/heap-growth.js', import.meta.url).href;

/** Builds the app and writes an entry like bin/mch-sync.js that runs the compiled CLI; returns its path. */
export function builtEntry(work: string): string {
  const build = spawnSync('npm', ['run', 'build'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
  const entry = join(work, 'mch-sync-built.mjs');
  writeFileSync(
    entry,
    `// mch-sync from the compiled build, as bin/mch-sync.js runs the sources.\n` +
      `const { limitHeapGrowth } = await import(${JSON.stringify(BUILT_HEAP_GROWTH)});\n` +
      'limitHeapGrowth();\n' +
      `const { main } = await import(${JSON.stringify(BUILT_MAIN)});\n` +
      'process.exitCode = await main(process.argv.slice(2));\n',
  );
  return entry;
}
