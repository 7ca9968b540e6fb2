// Desktop notifications through Electron's Notification: the core's grouped notifications and the share action's notices, each opening the view that explains it when clicked.
import { Notification } from 'electron';
import type { ViewName } from '../common/contract.ts';

export interface Notice {
  title: string;
  body: string;
  view: ViewName;
}

/**
 * Shown notifications are kept until closed or clicked: one that is garbage-collected loses its click
 * handler (Windows and Linux then click into nothing).
 */
export class Notifier {
  readonly #open: (view: ViewName) => void;
  readonly #shown = new Set<Notification>();

  constructor(open: (view: ViewName) => void) {
    this.#open = open;
  }

  show(notice: Notice): void {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title: notice.title, body: notice.body });
    this.#shown.add(notification);
    notification.on('click', () => {
      this.#shown.delete(notification);
      this.#open(notice.view);
    });
    notification.on('close', () => this.#shown.delete(notification));
    notification.show();
  }

  close(): void {
    for (const notification of this.#shown) notification.close();
    this.#shown.clear();
  }
}
