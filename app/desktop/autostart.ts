// Start at login: a Linux XDG autostart entry written or removed here; macOS and Windows through the login items Electron sets.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { execWord, keyFileValue } from '../integrate/quoting.ts';
import { writeFileAtomic } from '../profile/private-file.ts';
import type { SystemSwitch } from '../system/system-switch.ts';

/** What the Electron glue fills with `app.setLoginItemSettings` / `app.getLoginItemSettings().openAtLogin`. */
export interface LoginItemPort {
  setLoginItem(open: boolean, args: string[]): void;
  getLoginItem(): boolean;
}

/** The word that asks for no window at start (parseLaunchArgs reads it). */
export const HIDDEN_ARG = '--hidden';

export interface AutostartEntry {
  /** The file's stem: `<appId>.desktop`. */
  appId: string;
  name: string;
  comment: string;
  /** A themed icon name or an absolute path. */
  icon: string;
  /** The program (absolute) and its words, `--hidden` included where wanted. */
  command: readonly string[];
}

/** XDG Autostart spec: `$XDG_CONFIG_HOME/autostart` (a relative value is invalid and ignored), else `~/.config/autostart`. */
export function autostartDir(env: NodeJS.ProcessEnv, home: string): string {
  const config = env['XDG_CONFIG_HOME'];
  return join(config !== undefined && isAbsolute(config) ? config : join(home, '.config'), 'autostart');
}

export const AUTOSTART_MARKER =
  '# Written by mch-sync: turn "Start at login" off in its settings to remove it.';

/** The entry, its Exec quoted per the Desktop Entry spec and every value escaped as a key file string. */
export function renderAutostartEntry(entry: AutostartEntry): string {
  return [
    AUTOSTART_MARKER,
    '[Desktop Entry]',
    'Type=Application',
    `Name=${keyFileValue(entry.name)}`,
    `Comment=${keyFileValue(entry.comment)}`,
    `Icon=${keyFileValue(entry.icon)}`,
    `Exec=${keyFileValue(entry.command.map(execWord).join(' '))}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Linux: the entry in the autostart folder is the switch. */
export class LinuxAutostart implements SystemSwitch {
  readonly path: string;
  readonly #content: string;

  constructor(options: { entry: AutostartEntry; env: NodeJS.ProcessEnv; home: string }) {
    this.path = join(autostartDir(options.env, options.home), `${options.entry.appId}.desktop`);
    this.#content = renderAutostartEntry(options.entry);
  }

  /**
   * On when the file is there and not switched off inside: GNOME's startup settings write
   * `X-GNOME-Autostart-enabled=false`, and the spec's `Hidden=true` means deleted.
   */
  async isEnabled(): Promise<boolean> {
    const text = await readOptional(this.path);
    if (text === undefined) return false;
    return !/^\s*(Hidden\s*=\s*true|X-GNOME-Autostart-enabled\s*=\s*false)\s*$/m.test(text);
  }

  async setEnabled(enabled: boolean): Promise<void> {
    if (!enabled) {
      await rm(this.path, { force: true });
      return;
    }
    // Written again when different, so a moved app (a new AppImage path) starts from where it is now.
    if ((await readOptional(this.path)) === this.#content) return;
    await mkdir(join(this.path, '..'), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.path, this.#content, 0o644);
  }
}

/** macOS and Windows: Electron's login items, with `--hidden` (Windows passes it; macOS starts the app as is). */
export class LoginItemAutostart implements SystemSwitch {
  readonly #port: LoginItemPort;

  constructor(port: LoginItemPort) {
    this.#port = port;
  }

  isEnabled(): Promise<boolean> {
    return Promise.resolve(this.#port.getLoginItem());
  }

  setEnabled(enabled: boolean): Promise<void> {
    this.#port.setLoginItem(enabled, enabled ? [HIDDEN_ARG] : []);
    return Promise.resolve();
  }
}

export interface AutostartChoice {
  platform: NodeJS.Platform;
  entry: AutostartEntry;
  env: NodeJS.ProcessEnv;
  home: string;
  /** Given by the Electron glue; without it (the headless host) macOS and Windows have no switch. */
  loginItems?: LoginItemPort;
}

/** The platform's way, or null where there is none. */
export function autostartFor(choice: AutostartChoice): SystemSwitch | null {
  if (choice.platform === 'darwin' || choice.platform === 'win32') {
    return choice.loginItems === undefined ? null : new LoginItemAutostart(choice.loginItems);
  }
  return new LinuxAutostart({ entry: choice.entry, env: choice.env, home: choice.home });
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
