// A modal dialog on the native <dialog> (focus kept inside, Escape closes, the page behind inert).
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
}

/** Open while rendered: the caller renders it to open and stops rendering it to close. */
export function Dialog({ title, onClose, children, wide = false }: DialogProps): JSX.Element {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    element.showModal();
    return () => element.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      class={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
