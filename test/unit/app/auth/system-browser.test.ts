// Opening the system browser: the command per platform, and what counts as success or failure.
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { browserCommand, systemBrowser } from '../../../../app/auth/system-browser.ts';

const URL_WITH_SPECIALS = 'http://127.0.0.1:1/identity/authorize?a=1&b=%20x';

describe('browserCommand', () => {
  it('uses open on macOS, the URL handler on Windows and xdg-open in a Linux desktop session', () => {
    expect(browserCommand(URL_WITH_SPECIALS, 'darwin', {})).toEqual({
      command: 'open',
      args: [URL_WITH_SPECIALS],
    });
    expect(browserCommand(URL_WITH_SPECIALS, 'win32', {})).toEqual({
      command: 'rundll32.exe',
      args: ['url.dll,FileProtocolHandler', URL_WITH_SPECIALS],
    });
    expect(browserCommand(URL_WITH_SPECIALS, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual({
      command: 'xdg-open',
      args: [URL_WITH_SPECIALS],
    });
  });

  it('does not try on Linux without a graphical session', () => {
    expect(browserCommand(URL_WITH_SPECIALS, 'linux', {})).toEqual({
      unavailable: 'there is no graphical session (DISPLAY and WAYLAND_DISPLAY are unset)',
    });
  });
});

/** A child process that does what the test says, after the opener has subscribed. */
function fakeSpawn(behave: (child: EventEmitter) => void) {
  const calls: Array<{ command: string; args: readonly string[] }> = [];
  const spawnProcess = (command: string, args: readonly string[]): ChildProcess => {
    calls.push({ command, args });
    const child = Object.assign(new EventEmitter(), { unref: () => undefined });
    setImmediate(() => behave(child));
    return child as unknown as ChildProcess;
  };
  return { calls, spawnProcess };
}

describe('systemBrowser', () => {
  const env = { DISPLAY: ':0' };

  it('succeeds when the launcher exits with 0', async () => {
    const { calls, spawnProcess } = fakeSpawn((child) => child.emit('exit', 0));
    await systemBrowser({ platform: 'linux', env, spawnProcess })(URL_WITH_SPECIALS);
    expect(calls).toEqual([{ command: 'xdg-open', args: [URL_WITH_SPECIALS] }]);
  });

  it('fails when the launcher is missing or exits with an error', async () => {
    const missing = fakeSpawn((child) => child.emit('error', new Error('spawn xdg-open ENOENT')));
    await expect(
      systemBrowser({ platform: 'linux', env, spawnProcess: missing.spawnProcess })('x'),
    ).rejects.toThrow('xdg-open could not run: spawn xdg-open ENOENT');
    const failing = fakeSpawn((child) => child.emit('exit', 3));
    await expect(
      systemBrowser({ platform: 'linux', env, spawnProcess: failing.spawnProcess })('x'),
    ).rejects.toThrow('xdg-open failed (exit code 3)');
  });

  it('counts a launcher still running after a while as a success', async () => {
    const { spawnProcess } = fakeSpawn(() => undefined);
    await systemBrowser({ platform: 'darwin', env, spawnProcess, settleMs: 10 })('x');
  });
});
