// Opens an address in the system's default browser: xdg-open on Linux, open on macOS, the URL handler on Windows.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** Opens `url` in a browser; rejects when it surely could not (the caller then shows the address). */
export type BrowserOpener = (url: string) => Promise<void>;

export interface SystemBrowserOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  spawnProcess?: (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;
  /** How long a launcher that is still running counts as "it worked" (some run the browser in the foreground). */
  settleMs?: number;
}

/** The command that opens a URL on this platform, or why there is none. */
export function browserCommand(
  url: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): { command: string; args: string[] } | { unavailable: string } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') {
    // Not `cmd /c start`: cmd would read the URL's `&` as a command separator and expand `%...%`.
    return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', url] };
  }
  // Without a graphical session xdg-open falls back to a text browser in this very terminal.
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) {
    return { unavailable: 'there is no graphical session (DISPLAY and WAYLAND_DISPLAY are unset)' };
  }
  return { command: 'xdg-open', args: [url] };
}

export function systemBrowser(options: SystemBrowserOptions = {}): BrowserOpener {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const spawnProcess = options.spawnProcess ?? spawn;
  const settleMs = options.settleMs ?? 3000;
  return (url) =>
    new Promise<void>((resolve, reject) => {
      const chosen = browserCommand(url, platform, env);
      if ('unavailable' in chosen) {
        reject(new Error(chosen.unavailable));
        return;
      }
      const child = spawnProcess(chosen.command, chosen.args, { stdio: 'ignore', detached: true });
      const timer = setTimeout(() => {
        // Still running: a launcher that keeps the browser in the foreground. Leave it be.
        child.unref();
        resolve();
      }, settleMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`${chosen.command} could not run: ${error.message}`));
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`${chosen.command} failed (exit code ${code ?? 'none'})`));
      });
    });
}
