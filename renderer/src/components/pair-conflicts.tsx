// A pair's conflicts under Issues: each with both sides side by side and "Keep this computer's", "Keep the device's" or "Keep both"; several checked are settled alike at once. The loser is always kept as a version.
import { Copy, Files, HardDrive, Monitor } from 'lucide-preact';
import type { JSX } from 'preact';
import { useId, useRef, useState } from 'preact/hooks';
import type { ConflictKeepView, ConflictView } from '../../../common/contract.ts';
import { baseName } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton } from './busy-button.tsx';
import { ConflictSide } from './conflict-side.tsx';
import { ErrorNote } from './error-note.tsx';
import { usePointedAt } from './pointed-at.ts';
import { useAction } from './use-action.ts';

/** "Keep this computer's" when this computer made the copy; another computer's copy is said so. */
function keepCopyWords(conflicts: readonly ConflictView[]): string {
  return conflicts.every((conflict) => conflict.copy.from === 'this-computer')
    ? 'Keep this computer’s'
    : conflicts.every((conflict) => conflict.copy.from === 'other-computer')
      ? 'Keep the other computer’s'
      : 'Keep the conflicted copies';
}

const KEEP_ICONS = { this: Monitor, device: HardDrive, both: Files } as const;

export function PairConflicts({
  pairId,
  conflicts,
  pointed = null,
}: {
  pairId: string;
  conflicts: ConflictView[];
  /** The conflicted copy of the conflict a route points at (`#issues?item=…`), highlighted. */
  pointed?: string | null;
}): JSX.Element {
  const { conflicts: store } = useStores();
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  /** What was asked last (which conflicts, which answer): its button turns, its words stay. */
  const [asked, setAsked] = useState<{ paths: string[]; keep: ConflictKeepView } | null>(null);
  const settle = useAction(async (paths: string[], keep: ConflictKeepView) => {
    setAsked({ paths, keep });
    const done = await store.resolve(pairId, paths, keep);
    setChecked((before) => new Set([...before].filter((path) => !done.settled.includes(path))));
  });
  const selectAllId = useId();
  const shown = new Set(conflicts.map((conflict) => conflict.copyPath));
  const selected = conflicts.filter((conflict) => checked.has(conflict.copyPath));
  const toggle = (copyPath: string, on: boolean): void =>
    setChecked((before) => {
      const next = new Set([...before].filter((path) => shown.has(path)));
      if (on) next.add(copyPath);
      else next.delete(copyPath);
      return next;
    });
  const busyWith = (paths: string[], keep: ConflictKeepView): boolean =>
    settle.busy && asked?.keep === keep && asked.paths.join('\n') === paths.join('\n');
  const buttons = (targets: ConflictView[], suffix: string): JSX.Element => {
    const paths = targets.map((conflict) => conflict.copyPath);
    const words: Record<ConflictKeepView, string> = {
      this: keepCopyWords(targets),
      device: 'Keep the device’s',
      both: 'Keep both',
    };
    return (
      <>
        {(['this', 'device', 'both'] as const).map((keep) => (
          <BusyButton
            key={keep}
            class={keep === 'both' ? 'button small' : 'button small primary-quiet'}
            busy={busyWith(paths, keep)}
            disabled={settle.busy || paths.length === 0}
            icon={KEEP_ICONS[keep]}
            onClick={() => void settle.run(paths, keep)}
          >
            {words[keep]}
            {suffix}
          </BusyButton>
        ))}
      </>
    );
  };
  return (
    <div class="pair-conflicts">
      {conflicts.length > 1 && (
        <div class="conflict-bar" role="group" aria-label="Settle the conflicts checked">
          <span class="check conflict-select-all">
            <input
              id={selectAllId}
              type="checkbox"
              checked={selected.length === conflicts.length}
              indeterminate={selected.length > 0 && selected.length < conflicts.length}
              disabled={settle.busy}
              onChange={(event) => setChecked(event.currentTarget.checked ? new Set(shown) : new Set())}
            />
            <label for={selectAllId}>
              {selected.length === 0 ? `Select all ${conflicts.length}` : `${selected.length} selected`}
            </label>
          </span>
          {selected.length > 0 && (
            <span class="conflict-bar-actions">{buttons(selected, ' for all selected')}</span>
          )}
        </div>
      )}
      <ErrorNote error={settle.error} />
      <ul class="conflict-list">
        {conflicts.map((conflict) => (
          <ConflictItem
            key={conflict.copyPath}
            conflict={conflict}
            checked={checked.has(conflict.copyPath)}
            pointed={pointed === conflict.copyPath}
            selectable={conflicts.length > 1}
            busy={settle.busy}
            onCheck={(on) => toggle(conflict.copyPath, on)}
            actions={buttons([conflict], '')}
          />
        ))}
      </ul>
    </div>
  );
}

function ConflictItem(props: {
  conflict: ConflictView;
  checked: boolean;
  pointed: boolean;
  selectable: boolean;
  busy: boolean;
  onCheck: (on: boolean) => void;
  actions: JSX.Element;
}): JSX.Element {
  const { conflict } = props;
  const headingId = useId();
  const checkId = useId();
  const copyNewer = conflict.copy.mTimeMs > conflict.original.mTimeMs;
  const ref = useRef<HTMLLIElement>(null);
  usePointedAt(ref, props.pointed);
  const whose = conflict.copy.from === 'this-computer' ? 'on this computer' : 'on another computer';
  return (
    <li
      ref={ref}
      class={props.pointed ? 'card issue conflict pointed' : 'card issue conflict'}
      aria-labelledby={headingId}
      tabIndex={-1}
      aria-current={props.pointed ? 'true' : undefined}
    >
      <p class="issue-head">
        {props.selectable && (
          <input
            id={checkId}
            type="checkbox"
            checked={props.checked}
            disabled={props.busy}
            aria-label={`Select the conflict of ${conflict.originalPath}`}
            onChange={(event) => props.onCheck(event.currentTarget.checked)}
          />
        )}
        <span class="tag tag-conflict">
          <Copy aria-hidden="true" class="tag-icon" />
          Conflict
        </span>
        <span class="issue-path" id={headingId}>
          {conflict.originalPath}
        </span>
      </p>
      <p>
        Changed {whose} and on the device. Choose the version that keeps the name{' '}
        {baseName(conflict.originalPath)}: the other is kept in its versions, so nothing is lost. Or keep
        both, side by side.
      </p>
      <div class="conflict-sides">
        <ConflictSide side={conflict.copy} newer={copyNewer} />
        <ConflictSide side={conflict.original} newer={conflict.original.mTimeMs > conflict.copy.mTimeMs} />
      </div>
      <div class="actions" role="group" aria-label={`Settle the conflict of ${conflict.originalPath}`}>
        {props.actions}
      </div>
    </li>
  );
}
