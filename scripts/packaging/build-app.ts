// Builds what the Electron app runs: npm run build (tsc, assets, renderer), then the preload bundle.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** True when every step succeeded; each step prints its own output. */
export function buildApp(projectDir: string): boolean {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], {
    cwd: projectDir,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (build.status !== 0) return false;
  // main/'s preload bundle (dist/main/preload.cjs), once its script exists and unless npm run build runs it.
  const preload = join(projectDir, 'scripts', 'build-preload.ts');
  if (!existsSync(preload)) return true;
  return spawnSync(process.execPath, [preload], { cwd: projectDir, stdio: 'inherit' }).status === 0;
}
