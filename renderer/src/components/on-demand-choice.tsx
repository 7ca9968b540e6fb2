// "Add a folder": files on demand or whole files, chosen before the pair is made; where this computer cannot have them the choice is off, with why and what to install.
import { CloudDownload } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useId } from 'preact/hooks';
import { formatBytes } from '../../../common/units.ts';
import { useStores } from '../stores/stores.ts';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function OnDemandChoice({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (onDemand: boolean) => void;
}): JSX.Element {
  const { pairs } = useStores();
  const ids = { box: useId(), hint: useId() };
  const load = useAction(() => pairs.loadOnDemandSupport());
  useEffect(() => void load.run(), []);
  const support = pairs.onDemandSupport.value;
  const available = support?.available === true;
  return (
    <div class="field on-demand-choice">
      <div class="check">
        <input
          id={ids.box}
          type="checkbox"
          checked={checked && available}
          disabled={!available}
          aria-describedby={ids.hint}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
        <label for={ids.box}>
          <CloudDownload aria-hidden="true" />
          Files on demand: show every file of the device here, download a file when it is opened
        </label>
      </div>
      <p class="hint check-hint" id={ids.hint}>
        {support === null
          ? 'Checking whether this computer can have them…'
          : support.available
            ? `Files you do not open take no room here; those you open stay, up to ${formatBytes(support.defaultCacheLimitBytes)} (change it in Settings). What the folder holds now moves into the app’s cache folder: nothing is copied or lost.`
            : `Not available on this computer: ${support.reason ?? ''}`}
      </p>
      <ErrorNote error={load.error} />
    </div>
  );
}
