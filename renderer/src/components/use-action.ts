// One call started from a control: whether it is running, and the UiError it ended with, for that control's own words.
import { useCallback, useState } from 'preact/hooks';
import type { UiError } from '../../../common/contract.ts';
import { toUiError } from '../bridge.ts';

export interface Action<A extends unknown[]> {
  busy: boolean;
  error: UiError | null;
  /** Resolves true when the call succeeded; never rejects (the error is kept instead). */
  run: (...args: A) => Promise<boolean>;
  clear: () => void;
}

export function useAction<A extends unknown[]>(work: (...args: A) => Promise<unknown>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<UiError | null>(null);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        await work(...args);
        return true;
      } catch (failure) {
        setError(toUiError(failure));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [work],
  );
  const clear = useCallback(() => setError(null), []);
  return { busy, error, run, clear };
}
