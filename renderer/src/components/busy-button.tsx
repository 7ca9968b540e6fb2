// A button whose call is running: disabled, marked busy for screen readers, a turning spinner in place of its icon from the click until the answer.
import type { LucideIcon } from 'lucide-preact';
import { LoaderCircle } from 'lucide-preact';
import type { ComponentChildren, JSX } from 'preact';

/** The turning circle of work in progress (still under prefers-reduced-motion). */
export function Spinner({ label }: { label?: string }): JSX.Element {
  return (
    <>
      <LoaderCircle class="spinner" aria-hidden="true" />
      {label !== undefined && <span class="visually-hidden">{label}</span>}
    </>
  );
}

export interface BusyButtonProps {
  busy: boolean;
  icon?: LucideIcon;
  children: ComponentChildren;
  onClick?: () => void;
  type?: 'button' | 'submit';
  /** `button` plus its kind: `button small`, `button primary`... */
  class?: string;
  disabled?: boolean;
  'aria-label'?: string;
  'aria-describedby'?: string;
}

export function BusyButton(props: BusyButtonProps): JSX.Element {
  const { busy, icon: Icon } = props;
  return (
    <button
      type={props.type ?? 'button'}
      class={props.class ?? 'button'}
      disabled={busy || props.disabled === true}
      aria-busy={busy}
      aria-label={props['aria-label']}
      aria-describedby={props['aria-describedby']}
      onClick={props.onClick}
    >
      {busy ? <Spinner /> : Icon !== undefined ? <Icon /> : null}
      {props.children}
    </button>
  );
}
