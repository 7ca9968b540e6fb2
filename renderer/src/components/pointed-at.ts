// An element the route points at (the file manager's "Why is this not synced?", "Show in mch-sync"): scrolled into view and given the focus once, when it becomes the one.
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/**
 * The element needs `tabIndex={-1}` to take the focus; the focus moves so a screen reader reads what
 * was asked for, and the element's class (`pointed`) shows it to everyone else.
 */
export function usePointedAt(ref: RefObject<HTMLElement>, pointed: boolean): void {
  useEffect(() => {
    const element = ref.current;
    if (!pointed || element === null) return;
    element.scrollIntoView({ block: 'center' });
    element.focus({ preventScroll: true });
  }, [ref, pointed]);
}
