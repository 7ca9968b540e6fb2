// One side of a conflict as the user compares it: whose it is, when it changed, its size, and its first lines or a small picture.
import { ExternalLink } from 'lucide-preact';
import type { JSX } from 'preact';
import type { ConflictSideView } from '../../../common/contract.ts';
import { formatBytes } from '../../../common/units.ts';
import { baseName, formatWhen, isoTime } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function ConflictSide({
  side,
  newer,
}: {
  side: ConflictSideView;
  /** Changed after the other side: said beside its time. */
  newer: boolean;
}): JSX.Element {
  const { core } = useStores();
  const open = useAction(() => core.invoke('shell:openPath', { path: side.localPath }));
  const name = baseName(side.path);
  return (
    <section class={`conflict-side conflict-${side.from}`} aria-label={`${side.fromWords}’s version`}>
      <h3 class="conflict-from">{side.fromWords}</h3>
      <p class="small">
        Changed <time dateTime={isoTime(side.mTimeMs)}>{formatWhen(side.mTimeMs)}</time>
        {newer && <span class="tag tag-newer">newer</span>}
      </p>
      <p class="small muted">
        {formatBytes(side.size)} · <span class="path">{name}</span>
      </p>
      <Preview side={side} />
      <BusyButton class="button small" busy={open.busy} icon={ExternalLink} onClick={() => void open.run()}>
        Open
      </BusyButton>
      <ErrorNote error={open.error} />
    </section>
  );
}

function Preview({ side }: { side: ConflictSideView }): JSX.Element {
  const { preview } = side;
  switch (preview.kind) {
    case 'text':
      return side.size === 0 ? (
        <p class="conflict-preview muted small">An empty file.</p>
      ) : (
        <pre
          class="conflict-preview conflict-text"
          aria-label={`The first lines of ${side.fromWords}’s version`}
        >
          {preview.lines.join('\n')}
        </pre>
      );
    case 'image':
      return (
        <img
          class="conflict-preview conflict-image"
          src={preview.dataUrl}
          alt={`${side.fromWords}’s version of ${baseName(side.path)}`}
        />
      );
    case 'none':
      return <p class="conflict-preview muted small">{preview.words}</p>;
  }
}
