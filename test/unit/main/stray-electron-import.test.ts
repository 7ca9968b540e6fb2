// No test can run Electron here: a stray import of `electron` in code under test fails at once (vitest.config.ts sets ELECTRON_OVERRIDE_DIST_PATH), never trying a download.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url);

describe('a stray import of electron in a test', () => {
  it('is refused at once, without a download', () => {
    expect(process.env['ELECTRON_OVERRIDE_DIST_PATH']).toBeTruthy();
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "import { app } from 'electron'; app.quit();"],
      {
        cwd: ROOT,
        env: process.env,
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(run.error).toBeUndefined();
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/Named export 'app' not found/);
    expect(run.stdout + run.stderr).not.toMatch(/Downloading Electron/);
  });

  it('gets the path of an executable that does not exist from a plain require', () => {
    const run = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
      cwd: ROOT,
      env: process.env,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\/nonexistent\/electron-is-never-run-by-tests\//);
  });
});
