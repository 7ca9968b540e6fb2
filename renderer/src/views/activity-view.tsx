// Activity: recent changes with their time; a line shows its file in the file manager, or its versions; filters by folder and kind (desktop-app.md §2.3).
import type { LucideIcon } from 'lucide-preact';
import {
  ArrowDown,
  ArrowUp,
  CircleDot,
  Cloud,
  Copy,
  FolderPlus,
  History,
  MoveRight,
  PencilLine,
  Trash2,
} from 'lucide-preact';
import type { JSX } from 'preact';
import { useId } from 'preact/hooks';
import type { ActivityKind, ActivityView as Entry } from '../../../common/contract.ts';
import { Spinner } from '../components/busy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { useAction } from '../components/use-action.ts';
import { ViewHeader } from '../components/view-header.tsx';
import { baseName, formatWhen, isoTime } from '../format.ts';
import { useStores } from '../stores/stores.ts';

const KINDS: Record<ActivityKind, { words: string; icon: LucideIcon }> = {
  uploaded: { words: 'Uploaded', icon: ArrowUp },
  downloaded: { words: 'Downloaded', icon: ArrowDown },
  renamed: { words: 'Renamed', icon: PencilLine },
  moved: { words: 'Moved', icon: MoveRight },
  deleted: { words: 'Deleted', icon: Trash2 },
  conflict: { words: 'Conflict copy kept', icon: Copy },
  'online-only': { words: 'On the device, opened on demand', icon: Cloud },
  'created-folder': { words: 'Folder created', icon: FolderPlus },
  other: { words: 'Changed', icon: CircleDot },
};

export function ActivityView(): JSX.Element {
  const { activity, pairs } = useStores();
  const folderId = useId();
  const kindId = useId();
  const entries = activity.shown.value;
  const pairList = pairs.pairs.value ?? [];
  return (
    <div class="view">
      <ViewHeader title="Activity" />
      <div class="filters">
        <div class="field">
          <label for={folderId}>Folder</label>
          <select
            id={folderId}
            value={activity.pairFilter.value ?? ''}
            onChange={(event) => (activity.pairFilter.value = event.currentTarget.value || null)}
          >
            <option value="">All folders</option>
            {pairList.map((pair) => (
              <option key={pair.id} value={pair.id}>
                {baseName(pair.localRoot)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={kindId}>Kind</label>
          <select
            id={kindId}
            value={activity.kindFilter.value ?? ''}
            onChange={(event) =>
              (activity.kindFilter.value = (event.currentTarget.value || null) as ActivityKind | null)
            }
          >
            <option value="">Every change</option>
            {Object.entries(KINDS).map(([kind, { words }]) => (
              <option key={kind} value={kind}>
                {words}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorNote error={activity.error.value} />
      {activity.entries.value !== null && entries.length === 0 && (
        <p class="card empty">
          Nothing has changed {activity.entries.value.length > 0 ? 'of this kind ' : ''}yet.
        </p>
      )}
      <ol class="activity-list" aria-label="Recent changes, newest first">
        {entries.map((entry) => (
          <ActivityLine key={`${entry.atMs}:${entry.pairId}:${entry.path}:${entry.kind}`} entry={entry} />
        ))}
      </ol>
    </div>
  );
}

function ActivityLine({ entry }: { entry: Entry }): JSX.Element {
  const { core, navigation } = useStores();
  const show = useAction(() => core.invoke('shell:showItem', { path: entry.localPath }));
  const { words, icon: Icon } = KINDS[entry.kind];
  return (
    <li class="activity-item">
      <button
        type="button"
        class="row-button activity-line"
        title="Show in folder"
        aria-busy={show.busy}
        disabled={show.busy}
        onClick={() => void show.run()}
      >
        {show.busy ? <Spinner /> : <Icon />}
        <span class="activity-text">
          <span class="activity-path">{entry.path}</span>
          <span class="muted">
            {words} · <time dateTime={isoTime(entry.atMs)}>{formatWhen(entry.atMs)}</time>
          </span>
        </span>
        <span class="visually-hidden">, show in folder</span>
      </button>
      {entry.kind !== 'created-folder' && (
        <button
          type="button"
          class="button small activity-versions"
          aria-label={`Versions of ${entry.path}`}
          onClick={() => navigation.showVersions(entry.localPath)}
        >
          <History aria-hidden="true" />
          <span class="activity-versions-label">Versions</span>
        </button>
      )}
      <ErrorNote error={show.error} />
    </li>
  );
}
