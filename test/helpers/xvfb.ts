// A private X server (Xvfb) for tests of the clipboard and the file-manager entries; the display number is chosen by Xvfb itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface TestDisplay {
  /** e.g. ":17", for DISPLAY. */
  display: string;
  stop(): Promise<void>;
}

export const XVFB_PATH = '/usr/bin/Xvfb';

export function hasXvfb(): boolean {
  return existsSync(XVFB_PATH);
}

/** Starts Xvfb on a free display (`-displayfd`), without TCP; resolves once it accepts clients. */
export function startXvfb(): Promise<TestDisplay> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      XVFB_PATH,
      ['-displayfd', '3', '-screen', '0', '800x600x24', '-nolisten', 'tcp'],
      {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Xvfb did not start: ${stderr}`));
    }, 15_000);
    let number = '';
    const fd3 = child.stdio[3] as NodeJS.ReadableStream;
    fd3.on('data', (chunk: Buffer) => {
      number += chunk.toString();
      if (!number.includes('\n')) return;
      clearTimeout(timer);
      resolve({
        display: `:${number.trim()}`,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!number.includes('\n')) reject(new Error(`Xvfb exited (${code}): ${stderr}`));
    });
  });
}
