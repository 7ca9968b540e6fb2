// The in-window toasts: each notification event, a grouped one replacing its earlier self (same id, new count).
import { signal } from '@preact/signals';
import type { NotificationView } from '../../../common/contract.ts';
import type { Core } from '../bridge.ts';

/** More than this and the oldest goes: the core already groups bursts, this only bounds the screen. */
const SHOWN = 4;

export class NotificationsStore {
  readonly toasts = signal<NotificationView[]>([]);

  constructor(core: Core) {
    core.on('notification', (notification) => {
      const others = this.toasts.value.filter((toast) => toast.id !== notification.id);
      this.toasts.value = [...others, notification].slice(-SHOWN);
    });
  }

  dismiss(id: string): void {
    this.toasts.value = this.toasts.value.filter((toast) => toast.id !== id);
  }
}
