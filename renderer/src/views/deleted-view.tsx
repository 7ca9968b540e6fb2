// Recently deleted: the files gone from the synced folders that can come back (deleted on the device, a conflicted copy settled), found by name, several checked and restored where they were.
import { ArchiveRestore, Search } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import type { DeletedFileView, DeletedListView } from '../../../common/contract.ts';
import { formatBytes } from '../../../common/units.ts';
import { BusyButton, Spinner } from '../components/busy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { useAction } from '../components/use-action.ts';
import { ViewHeader } from '../components/view-header.tsx';
import { baseName, formatCount, formatWhen, isoTime } from '../format.ts';
import { useStores } from '../stores/stores.ts';

/** Typing settles this long before the list is asked again. */
const QUERY_PAUSE_MS = 250;

const keyOf = (file: Pick<DeletedFileView, 'pairId' | 'path'>): string => `${file.pairId}\n${file.path}`;

export function DeletedView(): JSX.Element {
  const { core, pairs } = useStores();
  const ids = { folder: useId(), query: useId(), all: useId() };
  const [pairId, setPairId] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [listed, setListed] = useState<DeletedListView | null>(null);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [outcome, setOutcome] = useState<string | null>(null);
  const load = useAction(async () => {
    setListed(await core.invoke('deleted:list', { pairId, query: query === '' ? null : query }));
  });
  const restore = useAction(async (files: DeletedFileView[]) => {
    setOutcome(null);
    const words: string[] = [];
    // One call per pair: each restores into its own folder and syncs it.
    for (const id of new Set(files.map((file) => file.pairId))) {
      const paths = files.filter((file) => file.pairId === id).map((file) => file.path);
      words.push((await core.invoke('deleted:restore', { pairId: id, paths })).words);
    }
    setOutcome(words.join(' '));
    setChecked(new Set());
    await load.run();
  });
  useEffect(() => {
    const timer = window.setTimeout(() => setQuery(typed.trim()), QUERY_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [typed]);
  // A pass that ends may have kept new deletions: listed again when pairs:changed says one ended.
  const passes = (pairs.pairs.value ?? []).map((pair) => pair.lastSyncAtMs ?? 0).join(',');
  useEffect(() => void load.run(), [pairId, query, passes]);
  const files = listed?.files ?? [];
  const selected = files.filter((file) => checked.has(keyOf(file)));
  const toggle = (file: DeletedFileView, on: boolean): void =>
    setChecked((before) => {
      const next = new Set(before);
      if (on) next.add(keyOf(file));
      else next.delete(keyOf(file));
      return next;
    });
  const pairList = pairs.pairs.value ?? [];
  const nameOfPair = (id: string): string => baseName(pairs.byId(id)?.localRoot ?? id);
  return (
    <div class="view">
      <ViewHeader title="Recently deleted" />
      <p class="hint view-hint">
        Files deleted on the device, and conflicted copies settled, are kept on this computer for 30 days, or
        as long as a folder’s versions settings say; files deleted here are listed while the trash holds them.
        A file restored goes back where it was and syncs to the device again.
      </p>
      <div class="filters">
        <div class="field">
          <label for={ids.folder}>Folder</label>
          <select
            id={ids.folder}
            value={pairId ?? ''}
            onChange={(event) => {
              setPairId(event.currentTarget.value || null);
              setChecked(new Set());
            }}
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
          <label for={ids.query}>Find by name</label>
          <span class="search-field">
            <Search aria-hidden="true" />
            <input
              id={ids.query}
              type="search"
              value={typed}
              onInput={(event) => setTyped(event.currentTarget.value)}
            />
          </span>
        </div>
      </div>
      <ErrorNote error={load.error} />
      {files.length > 0 && (
        <div class="selection-bar">
          <span class="check">
            <input
              id={ids.all}
              type="checkbox"
              checked={selected.length === files.length}
              indeterminate={selected.length > 0 && selected.length < files.length}
              disabled={restore.busy}
              onChange={(event) =>
                setChecked(event.currentTarget.checked ? new Set(files.map(keyOf)) : new Set())
              }
            />
            <label for={ids.all}>
              {selected.length === 0 ? `Select all ${files.length}` : `${selected.length} selected`}
            </label>
          </span>
          <BusyButton
            class="button primary"
            busy={restore.busy}
            disabled={selected.length === 0}
            icon={ArchiveRestore}
            onClick={() => void restore.run(selected)}
          >
            {selected.length <= 1 ? 'Restore selected' : `Restore ${selected.length} selected`}
          </BusyButton>
        </div>
      )}
      {outcome !== null && (
        <p class="note" role="status">
          {outcome}
        </p>
      )}
      <ErrorNote error={restore.error} />
      {listed === null && load.busy && (
        <p class="note note-busy" role="status">
          <Spinner />
          <span>Looking for deleted files…</span>
        </p>
      )}
      {listed !== null && files.length === 0 && (
        <p class="card empty">
          {query === '' ? 'Nothing deleted is kept.' : `No deleted file is named like “${query}”.`}
        </p>
      )}
      <DeletedList
        files={files}
        checked={checked}
        busy={restore.busy}
        folderOf={pairId === null && pairList.length > 1 ? nameOfPair : null}
        onToggle={toggle}
      />
      {listed !== null && listed.total > files.length && (
        <p class="muted small">
          The newest {formatCount(files.length, 'file', 'files')} of {listed.total.toLocaleString()}: find by
          name to see the others.
        </p>
      )}
    </div>
  );
}

function DeletedList(props: {
  files: DeletedFileView[];
  checked: ReadonlySet<string>;
  busy: boolean;
  /** The folder's name beside each file, when files of several folders are listed. */
  folderOf: ((pairId: string) => string) | null;
  onToggle: (file: DeletedFileView, on: boolean) => void;
}): JSX.Element | null {
  const base = useId();
  if (props.files.length === 0) return null;
  return (
    <ul class="deleted-list" aria-label="Deleted files, newest first">
      {props.files.map((file, index) => {
        const id = `${base}-${index}`;
        return (
          <li key={keyOf(file)} class="deleted-row">
            <input
              id={id}
              type="checkbox"
              checked={props.checked.has(keyOf(file))}
              disabled={props.busy}
              onChange={(event) => props.onToggle(file, event.currentTarget.checked)}
            />
            <label for={id} class="deleted-text">
              <span class="deleted-path">{file.path}</span>
              <span class="muted small">
                {props.folderOf !== null && `${props.folderOf(file.pairId)} · `}
                {capitalized(file.why)}{' '}
                <time dateTime={isoTime(file.deletedAtMs)}>{formatWhen(file.deletedAtMs)}</time> ·{' '}
                {formatBytes(file.size)}
                {file.versions > 1 && ` · ${file.versions} versions kept`}
              </span>
            </label>
          </li>
        );
      })}
    </ul>
  );
}

/** "deleted on the device" at the start of a line. */
function capitalized(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
