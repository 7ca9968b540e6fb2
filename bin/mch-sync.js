#!/usr/bin/env node
// Entry point of the `mch-sync` command: the TypeScript sources run on Node's own type stripping.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `mch-sync needs Node 22.18 or newer (this is ${process.version}). Run it through npm, which uses the ` +
      'Node of the project: npm run sync -- [options]',
  );
  process.exit(1);
}
// Before anything is loaded: a pass over a million files must not leave V8 4× the heap it needs.
const { limitHeapGrowth } = await import('../app/system/heap-growth.ts');
limitHeapGrowth();
const { main } = await import('../app/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
