// The settings that live in the system rather than the profile (start at login, the file-manager entries): shown as the system has them, changed through the host's switches.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingsView } from '../../common/contract.ts';
import { MchError } from '../../common/errors.ts';
import { writePrivateFileAtomic } from '../profile/private-file.ts';
import type { SystemSwitch } from '../system/system-switch.ts';
import type { UiSettingsFile } from './ui-settings.ts';

/** Each host's switches; null where the host has no way (the headless host on macOS and Windows). */
export interface SystemSwitches {
  startAtLogin: SystemSwitch | null;
  fileManagerEntries: SystemSwitch | null;
}

type SystemKey = keyof SystemSwitches;
const SYSTEM_KEYS: readonly SystemKey[] = ['startAtLogin', 'fileManagerEntries'];

const UNAVAILABLE: Record<SystemKey, string> = {
  startAtLogin: 'Start at login needs the desktop app on this system (or a login item you add yourself).',
  fileManagerEntries:
    "On this system the desktop app's installer adds the file-manager entries (Windows), or the app ships them (macOS).",
};

export class SettingUnavailableError extends MchError {
  constructor(message: string) {
    super('SETTING_UNAVAILABLE', 'Not available here', message);
  }
}

/** Written once the app has applied its first-start defaults, so they are applied only once per profile. */
export const FIRST_START_MARKER = 'desktop-first-start.json';

export class SystemSettings {
  readonly #file: UiSettingsFile;
  readonly #switches: SystemSwitches;
  readonly #profileDir: string;

  constructor(options: { file: UiSettingsFile; switches: SystemSwitches; profileDir: string }) {
    this.#file = options.file;
    this.#switches = options.switches;
    this.#profileDir = options.profileDir;
  }

  /** The stored settings, with each system setting as the system has it (off where there is no switch). */
  async read(): Promise<SettingsView> {
    const stored = await this.#file.read();
    for (const key of SYSTEM_KEYS) {
      const found = this.#switches[key];
      stored[key] = found === null ? false : await found.isEnabled();
    }
    return stored;
  }

  /** Changes the system first (a failure stores nothing), then the profile's copy. */
  async update(change: Partial<SettingsView>): Promise<SettingsView> {
    for (const key of SYSTEM_KEYS) {
      const wanted = change[key];
      if (wanted === undefined) continue;
      const found = this.#switches[key];
      if (found === null) {
        if (wanted) throw new SettingUnavailableError(UNAVAILABLE[key]);
        continue;
      }
      await found.setEnabled(wanted);
    }
    await this.#file.update(change);
    return this.read();
  }

  /**
   * The desktop app at each start. The first time for a profile: the stored settings (on by default)
   * are applied, so the app starts at login and the entries appear. Later: what is on is written
   * again (the app may have moved: a new AppImage path, an update), what the person turned off,
   * here or in the desktop's own settings, stays off.
   */
  async applyAtStart(): Promise<void> {
    const marker = join(this.#profileDir, FIRST_START_MARKER);
    const first = !existsSync(marker);
    const stored = await this.#file.read();
    for (const key of SYSTEM_KEYS) {
      const found = this.#switches[key];
      if (found === null) continue;
      if (first ? stored[key] : await found.isEnabled()) await found.setEnabled(true);
    }
    if (first) await writePrivateFileAtomic(marker, `${JSON.stringify({ appliedAtMs: Date.now() })}\n`);
  }
}
