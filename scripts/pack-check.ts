// Packs the app with a stand-in Electron and checks the result: `npx node scripts/pack-check.ts` (after npm run build).
//
// The same check as test/integration/packaging/pack-dir.test.ts, for a person: it prints each finding and
// exits 1 when there is one. `--keep` leaves the packed app in the printed folder for a look.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronTypesFile } from './packaging/electron-stub.ts';
import { checkPackedApp } from './packaging/packed-app-check.ts';
import { compiledAppFiles, packDir } from './packaging/pack-dir.ts';

const projectDir = fileURLToPath(new URL('..', import.meta.url));

async function main(keep: boolean): Promise<number> {
  const manifest = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as { main?: string };
  if (manifest.main === undefined || !existsSync(join(projectDir, manifest.main))) {
    console.error(
      `pack-check: package.json "main" (${manifest.main ?? 'not set'}) names no built file; run npm run build.`,
    );
    return 1;
  }
  const outDir = mkdtempSync(join(tmpdir(), 'mch-pack-check-'));
  try {
    const packed = await packDir(projectDir, outDir);
    const findings = await checkPackedApp({
      resourcesDir: packed.resourcesDir,
      electronTypes: electronTypesFile(projectDir),
      expectFiles: compiledAppFiles(projectDir),
    });
    for (const finding of findings) console.error(`pack-check: ${finding.kind}: ${finding.detail}`);
    if (findings.length === 0)
      console.log(`pack-check: ${packed.appDir} holds everything its main process loads`);
    return findings.length === 0 ? 0 : 1;
  } finally {
    if (keep) console.log(`pack-check: left ${outDir}`);
    else rmSync(outDir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.includes('--keep'));
