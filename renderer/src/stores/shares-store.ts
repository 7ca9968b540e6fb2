// The share links: shares:list (again whenever the device changes), then shares:changed; create and revoke.
import { computed, effect, signal } from '@preact/signals';
import type { ShareView, UiError } from '../../../common/contract.ts';
import { toUiError, type Core } from '../bridge.ts';
import type { AccountStore } from './account-store.ts';

export class SharesStore {
  readonly shares = signal<ShareView[] | null>(null);
  readonly error = signal<UiError | null>(null);
  /** The last link made in this window, shown until the next. */
  readonly created = signal<(ShareView & { reused: boolean }) | null>(null);
  /** A failed share of dropped files, or what to do instead when the host cannot tell their paths. */
  readonly dropError = signal<UiError | null>(null);
  readonly #core: Core;

  constructor(core: Core, account: AccountStore) {
    this.#core = core;
    core.on('shares:changed', (shares) => {
      this.shares.value = newestFirst(shares);
    });
    // Links live on the device: none to list before one is chosen, another list after a change.
    const deviceId = computed(() => account.account.value?.device?.id ?? null);
    effect(() => {
      if (deviceId.value === null) this.shares.value = null;
      else void this.load();
    });
  }

  async load(): Promise<void> {
    try {
      this.shares.value = newestFirst(await this.#core.invoke('shares:list', {}));
      this.error.value = null;
    } catch (error) {
      this.error.value = toUiError(error);
    }
  }

  /** A link to the synced items at `paths`; the core reuses an existing link of the same selection. */
  async create(paths: string[]): Promise<ShareView & { reused: boolean }> {
    const created = await this.#core.invoke('shares:create', { paths, fresh: false });
    this.created.value = created;
    const others = (this.shares.value ?? []).filter((share) => share.shareId !== created.shareId);
    const { reused: _reused, ...share } = created;
    this.shares.value = newestFirst([share, ...others]);
    return created;
  }

  /** Files dropped on the window: a link when the host told their paths, else words saying to use the picker. */
  async shareDropped(paths: string[]): Promise<void> {
    this.dropError.value = null;
    if (paths.length === 0) {
      this.dropError.value = {
        code: 'DROP_WITHOUT_PATHS',
        title: 'Drop works in the desktop app',
        message:
          'This window runs in a browser, which does not say where a dropped file is. Use "Choose items" here.',
      };
      return;
    }
    try {
      await this.create(paths);
    } catch (error) {
      this.dropError.value = toUiError(error);
    }
  }

  async revoke(shareId: string): Promise<void> {
    await this.#core.invoke('shares:revoke', { shareId });
    this.shares.value = (this.shares.value ?? []).filter((share) => share.shareId !== shareId);
  }
}

function newestFirst(shares: ShareView[]): ShareView[] {
  return [...shares].sort((a, b) => b.createdAtMs - a.createdAtMs);
}
