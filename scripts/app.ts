// `npm run app`: builds the app and starts it in Electron; where Electron's binary is missing, says how to get it.
//
// Arguments after `--` go to the app (`npm run app -- --hidden`, `npm run app -- --share ~/MyCloud/a.txt`).
// The app uses the profile mch-sync uses ($MCH_PROFILE, else the platform's default: README "Sign in").
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './packaging/build-app.ts';
import { findElectronBinary, missingElectronMessage } from './packaging/electron-binary.ts';

const projectDir = fileURLToPath(new URL('..', import.meta.url));

function main(args: string[]): void {
  const binary = findElectronBinary(join(projectDir, 'node_modules', 'electron'), process.env);
  if (!binary.found) {
    console.error(missingElectronMessage(binary));
    process.exitCode = 1;
    return;
  }
  if (!buildApp(projectDir)) {
    console.error('app: the build failed (see above); nothing started.');
    process.exitCode = 1;
    return;
  }
  const child = spawn(binary.path, [projectDir, ...args], { cwd: projectDir, stdio: 'inherit' });
  // Ctrl+C reaches Electron through the terminal; a SIGTERM to this script is passed on so quitting is clean.
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', () => undefined);
  child.on('close', (code, signal) => {
    process.exitCode = code ?? (signal === null ? 1 : 128);
    process.off('SIGTERM', forward);
    process.removeAllListeners('SIGINT');
  });
}

main(process.argv.slice(2));
