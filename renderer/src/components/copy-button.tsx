// "Copy link": writes a link to the clipboard and says so, or says how to copy it by hand when the browser refuses.
import { Check, Copy } from 'lucide-preact';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { UiError } from '../../../common/contract.ts';
import { toUiError } from '../bridge.ts';
import { Spinner } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';

const CLIPBOARD_REFUSED: UiError = {
  code: 'CLIPBOARD',
  title: 'Could not copy the link',
  message: 'The clipboard was not available to this window. Open the link and copy it from the address bar.',
};

/** `link` may make the link first (a search result has none yet); it rejects with a UiError. */
export function CopyButton(props: {
  link: () => Promise<string>;
  label?: string;
  describedBy?: string;
}): JSX.Element {
  const [state, setState] = useState<'idle' | 'busy' | 'copied'>('idle');
  const [error, setError] = useState<UiError | null>(null);
  const copy = async (): Promise<void> => {
    setState('busy');
    setError(null);
    let url: string;
    try {
      url = await props.link();
    } catch (failure) {
      setError(toUiError(failure));
      setState('idle');
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      setState('copied');
    } catch {
      setError(CLIPBOARD_REFUSED);
      setState('idle');
    }
  };
  return (
    <>
      <button
        type="button"
        class="button small"
        disabled={state === 'busy'}
        aria-busy={state === 'busy'}
        aria-describedby={props.describedBy}
        onClick={() => void copy()}
      >
        {state === 'busy' ? <Spinner /> : state === 'copied' ? <Check /> : <Copy />}
        {state === 'copied' ? 'Copied' : (props.label ?? 'Copy link')}
      </button>
      <span class="visually-hidden" role="status">
        {state === 'copied' ? 'Link copied' : ''}
      </span>
      <ErrorNote error={error} />
    </>
  );
}
