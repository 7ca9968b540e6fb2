// Who is signed in and to which device: account:get, then account:changed; the sign-in and device calls.
import { signal } from '@preact/signals';
import type { AccountView, DeviceView } from '../../../common/contract.ts';
import type { Core } from '../bridge.ts';

export class AccountStore {
  readonly account = signal<AccountView | null>(null);
  /** Null until asked for (the device step of the first run). */
  readonly devices = signal<DeviceView[] | null>(null);
  readonly #core: Core;

  constructor(core: Core) {
    this.#core = core;
    core.on('account:changed', (account) => {
      this.account.value = account;
    });
  }

  async load(): Promise<void> {
    this.account.value = await this.#core.invoke('account:get', {});
  }

  async signInWithPassword(configUrl: string, username: string, password: string): Promise<void> {
    this.account.value = await this.#core.invoke('account:signInPassword', { configUrl, username, password });
  }

  async signInWithBrowser(configUrl: string): Promise<void> {
    this.account.value = await this.#core.invoke('account:signInBrowser', { configUrl });
  }

  async signOut(): Promise<void> {
    this.account.value = await this.#core.invoke('account:signOut', {});
  }

  async loadDevices(): Promise<void> {
    this.devices.value = await this.#core.invoke('devices:list', {});
  }

  async chooseDevice(deviceId: string): Promise<void> {
    this.account.value = await this.#core.invoke('devices:choose', { deviceId });
  }
}
