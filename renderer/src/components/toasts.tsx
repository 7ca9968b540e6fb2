// The notifications of the core as toasts in the window, each with a button to the view that explains it.
import { X } from 'lucide-preact';
import type { JSX } from 'preact';
import type { ViewName } from '../../../common/contract.ts';
import { useStores } from '../stores/stores.ts';

const VIEW_LABELS: Record<ViewName, string> = {
  'first-run': 'Set up',
  status: 'Show status',
  activity: 'Show activity',
  issues: 'Show issues',
  deleted: 'Show recently deleted',
  shares: 'Show shares',
  search: 'Search',
  settings: 'Open settings',
};

export function Toasts(): JSX.Element {
  const { notifications, navigation } = useStores();
  return (
    // Always in the page, so screen readers hear each toast added to it.
    <section class="toasts" aria-label="Notifications" aria-live="polite">
      {notifications.toasts.value.map((toast) => (
        <div class={`toast toast-${toast.kind}`} key={toast.id}>
          <div class="toast-text">
            <p class="toast-title">
              {toast.title}
              {toast.count > 1 && <span class="count"> ({toast.count})</span>}
            </p>
            <p>{toast.body}</p>
          </div>
          <div class="toast-actions">
            <button
              type="button"
              class="button small"
              onClick={() => {
                notifications.dismiss(toast.id);
                navigation.go(toast.view);
              }}
            >
              {VIEW_LABELS[toast.view]}
            </button>
            <button
              type="button"
              class="icon-button"
              aria-label={`Dismiss: ${toast.title}`}
              onClick={() => notifications.dismiss(toast.id)}
            >
              <X />
            </button>
          </div>
        </div>
      ))}
    </section>
  );
}
