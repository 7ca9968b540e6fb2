// Which view is shown, whose versions over it and which item it points at, kept in the address's fragment (#shares, #activity?versions=…, #issues?item=…) so a reload, the back button, a notification's link, the tray's "Versions" and the file manager's entries agree.
import { signal } from '@preact/signals';
import type { ViewName } from '../../../common/contract.ts';
import { routeFragment, routeOf } from '../../../common/window-route.ts';

export const VIEW_NAMES: readonly ViewName[] = [
  'first-run',
  'status',
  'activity',
  'issues',
  'deleted',
  'shares',
  'search',
  'settings',
];

export class Navigation {
  readonly view = signal<ViewName>(routeOf(window.location.hash, VIEW_NAMES).view);
  /** A synced file (its path here) whose versions are shown over the view; null when none. */
  readonly versionsOf = signal<string | null>(routeOf(window.location.hash, VIEW_NAMES).versionsOf ?? null);
  /**
   * A synced item (its path here) the view points at: its issue in Issues, its folder in Status (the
   * file manager's "Why is this not synced?" and "Show in mch-sync"); null when none.
   */
  readonly item = signal<string | null>(routeOf(window.location.hash, VIEW_NAMES).item ?? null);
  /** Bumped by each navigation the user asks for, so the new view can take the focus (not on first load). */
  readonly moves = signal(0);

  constructor() {
    window.addEventListener('hashchange', () => {
      const route = routeOf(window.location.hash, VIEW_NAMES);
      // Opening or closing a file's versions is no move: the dialog takes the focus, and gives it back.
      const moved = route.view !== this.view.value;
      this.view.value = route.view;
      this.versionsOf.value = route.versionsOf ?? null;
      this.item.value = route.item ?? null;
      if (moved) this.moves.value += 1;
    });
  }

  go(view: ViewName): void {
    if (this.view.value === view && this.versionsOf.value === null && this.item.value === null) {
      this.moves.value += 1;
      return;
    }
    window.location.hash = view;
  }

  /** Shows a synced file's versions over the view shown. */
  showVersions(localPath: string): void {
    window.location.hash = routeFragment({ view: this.view.value, versionsOf: localPath });
  }

  closeVersions(): void {
    if (this.versionsOf.value === null) return;
    window.location.hash = this.view.value;
  }
}
