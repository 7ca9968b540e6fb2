// The settings and the about box: settings:get and app:about, then settings:changed; updates answer the new settings.
import { signal } from '@preact/signals';
import type { AboutView, SettingsView } from '../../../common/contract.ts';
import type { Core } from '../bridge.ts';

export class SettingsStore {
  readonly settings = signal<SettingsView | null>(null);
  readonly about = signal<AboutView | null>(null);
  readonly #core: Core;

  constructor(core: Core) {
    this.#core = core;
    core.on('settings:changed', (settings) => {
      this.settings.value = settings;
    });
  }

  async load(): Promise<void> {
    const [settings, about] = await Promise.all([
      this.#core.invoke('settings:get', {}),
      this.#core.invoke('app:about', {}),
    ]);
    this.settings.value = settings;
    this.about.value = about;
  }

  async update(change: Partial<SettingsView>): Promise<void> {
    this.settings.value = await this.#core.invoke('settings:update', change);
  }
}
