// Which view is shown, kept in the address's fragment (#shares) so a reload, the back button and a notification's link agree.
import { signal } from '@preact/signals';
import type { ViewName } from '../../../common/contract.ts';

export const VIEW_NAMES: readonly ViewName[] = [
  'first-run',
  'status',
  'activity',
  'issues',
  'shares',
  'search',
  'settings',
];

function viewOf(hash: string): ViewName {
  const name = hash.replace(/^#/, '');
  return VIEW_NAMES.find((view) => view === name) ?? 'status';
}

export class Navigation {
  readonly view = signal<ViewName>(viewOf(window.location.hash));
  /** Bumped by each navigation the user asks for, so the new view can take the focus (not on first load). */
  readonly moves = signal(0);

  constructor() {
    window.addEventListener('hashchange', () => {
      this.view.value = viewOf(window.location.hash);
      this.moves.value += 1;
    });
  }

  go(view: ViewName): void {
    if (this.view.value === view) {
      this.moves.value += 1;
      return;
    }
    window.location.hash = view;
  }
}
