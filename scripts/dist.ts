// `npm run dist`: builds the app, then electron-builder's installers for this platform into dist/packages.
//
// Needs internet access: electron-builder downloads Electron for the target and its packaging tools
// (AppImage, fpm for deb, NSIS). Where a download fails it says so; `npx node scripts/pack-check.ts` checks
// the packed layout without any download. Arguments after `--` go to electron-builder (`-- --x64 --arm64`).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './packaging/build-app.ts';
import { downloadFailureOf } from './packaging/electron-binary.ts';

const projectDir = fileURLToPath(new URL('..', import.meta.url));
const PLATFORM_FLAG: Partial<Record<NodeJS.Platform, string>> = {
  linux: '--linux',
  win32: '--win',
  darwin: '--mac',
};

async function main(args: string[]): Promise<number> {
  const flag = PLATFORM_FLAG[process.platform];
  if (flag === undefined) {
    console.error(`dist: electron-builder has no installers for ${process.platform}.`);
    return 1;
  }
  if (!buildApp(projectDir)) {
    console.error('dist: the build failed (see above); nothing packed.');
    return 1;
  }
  const cli = createRequire(join(projectDir, 'package.json')).resolve('electron-builder/cli.js');
  const child = spawn(
    process.execPath,
    [cli, flag, '--config', 'electron-builder.yml', '--publish', 'never', ...args],
    {
      cwd: projectDir,
      stdio: ['inherit', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString();
    process.stderr.write(chunk);
  });
  const code = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
  if (code === 0) {
    console.log('dist: installers are in dist/packages');
    return 0;
  }
  const failure = downloadFailureOf(log);
  if (failure !== null) {
    console.error(
      [
        '',
        'dist: electron-builder could not download what it packs with:',
        `  ${failure}`,
        'It fetches Electron and its tools (AppImage, fpm, NSIS) from GitHub: run npm run dist on a machine with',
        'internet access (ELECTRON_MIRROR and ELECTRON_BUILDER_BINARIES_MIRROR name a mirror). To check the',
        'packed app without downloads: npx node scripts/pack-check.ts',
      ].join('\n'),
    );
  }
  return code;
}

process.exitCode = await main(process.argv.slice(2));
