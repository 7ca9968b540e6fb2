// The window's settings, `<profile>/ui-settings.json`: start at login, file-manager entries, notifications, poll interval, extra ignore rules.
import { join } from 'node:path';
import { z } from 'zod';
import type { SettingsView } from '../../common/contract.ts';
import { readOptionalFile, writePrivateFileAtomic } from '../profile/private-file.ts';

export const UI_SETTINGS_FILE = 'ui-settings.json';

export const DEFAULT_UI_SETTINGS: SettingsView = {
  startAtLogin: true,
  fileManagerEntries: true,
  notifications: true,
  pollIntervalSeconds: 30,
  ignoreRules: '',
};

// Each field falls back to its default on its own: one bad value never resets the others.
const storedSchema = z.object({
  startAtLogin: z.boolean().catch(DEFAULT_UI_SETTINGS.startAtLogin),
  fileManagerEntries: z.boolean().catch(DEFAULT_UI_SETTINGS.fileManagerEntries),
  notifications: z.boolean().catch(DEFAULT_UI_SETTINGS.notifications),
  pollIntervalSeconds: z.number().int().min(10).max(3600).catch(DEFAULT_UI_SETTINGS.pollIntervalSeconds),
  ignoreRules: z.string().catch(DEFAULT_UI_SETTINGS.ignoreRules),
});

export class UiSettingsFile {
  readonly path: string;

  constructor(profileDir: string) {
    this.path = join(profileDir, UI_SETTINGS_FILE);
  }

  async read(): Promise<SettingsView> {
    const text = await readOptionalFile(this.path);
    if (text === undefined) return { ...DEFAULT_UI_SETTINGS };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A damaged file is not worth failing the window for: defaults, and the next change rewrites it.
      return { ...DEFAULT_UI_SETTINGS };
    }
    return storedSchema.parse({ ...DEFAULT_UI_SETTINGS, ...(typeof parsed === 'object' ? parsed : {}) });
  }

  async update(change: Partial<SettingsView>): Promise<SettingsView> {
    const next = { ...(await this.read()), ...change };
    await writePrivateFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }
}
