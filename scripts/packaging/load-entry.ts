// Child process of packed-app-check.ts: loads a packed app's main entry in Node with `electron` stubbed.
//
//   node load-entry.ts <app folder> <resources folder> <electron stub .mjs>
//
// Prints one JSON line: {"ok":true,"settled":bool} once the entry's module graph loaded (settled false when its
// top-level code still waits, e.g. on app.whenReady()), or {"ok":false,"code","message"} when a module is
// missing or the entry throws. Module resolution is Node's own, so a dependency absent from the package
// fails here as it would in Electron: ERR_MODULE_NOT_FOUND (import) or MODULE_NOT_FOUND (require).
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [appDir, resourcesDir, stubFile] = process.argv.slice(2);
if (appDir === undefined || resourcesDir === undefined || stubFile === undefined) {
  console.error('usage: load-entry.ts <app folder> <resources folder> <electron stub>');
  process.exit(2);
}
const stubUrl = pathToFileURL(stubFile).href;

// In-thread hooks (unlike module.register's) also cover require(), so CommonJS glue is checked too.
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: stubUrl, format: 'module', shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
// Electron sets this; main/ finds the tray icons under it.
Object.assign(process, { resourcesPath: resourcesDir });

const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { main?: string };
const entry = join(appDir, manifest.main ?? 'index.js');
let settled = false;

function report(result: object): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

process.on('exit', () => {
  if (!settled) report({ ok: true, settled: false });
});

import(pathToFileURL(entry).href).then(
  () => {
    settled = true;
    report({ ok: true, settled: true });
    process.exit(0);
  },
  (error: unknown) => {
    settled = true;
    const failure = error instanceof Error ? (error as Error & { code?: unknown }) : null;
    const code = typeof failure?.code === 'string' ? failure.code : 'ERR_LOAD';
    report({ ok: false, code, message: failure?.message ?? String(error) });
    process.exit(1);
  },
);
