// Pause, of one folder or of every folder: "Pause" until resumed, or for a while from a short disclosure (for 1 hour, until tomorrow at 08:00).
import { Pause } from 'lucide-preact';
import type { JSX } from 'preact';
import type { PauseLength } from '../../../common/contract.ts';
import { BusyButton } from './busy-button.tsx';

export function PauseButtons({
  busy,
  label,
  class: className,
  pause,
}: {
  busy: boolean;
  /** "Pause" or "Pause all": until resumed. */
  label: string;
  class?: string;
  pause: (length?: PauseLength) => void;
}): JSX.Element {
  const buttonClass = className ?? 'button';
  return (
    <>
      <span title="Pause until I resume">
        <BusyButton busy={busy} class={buttonClass} icon={Pause} onClick={() => pause()}>
          {label}
        </BusyButton>
      </span>
      <details class="pause-for">
        <summary class={buttonClass}>Pause for a while…</summary>
        <div role="group" aria-label="Pause for a while">
          <button type="button" class={buttonClass} disabled={busy} onClick={() => pause('1h')}>
            Pause for 1 hour
          </button>
          <button type="button" class={buttonClass} disabled={busy} onClick={() => pause('tomorrow')}>
            Pause until tomorrow
          </button>
        </div>
      </details>
    </>
  );
}
