// Selective sync's device folder tree: a check box per folder for what this computer holds (a folder partly held is mixed), each folder opened on demand with one listing, its state and what is known of its size beside it.
import { ChevronDown, ChevronRight, Folder } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { SelectionFolderView, UiError } from '../../../common/contract.ts';
import { assertNever } from '../../../common/errors.ts';
import { formatBytes } from '../../../common/units.ts';
import { toUiError } from '../bridge.ts';
import { formatCount } from '../format.ts';
import { Spinner } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';

/** Where the folders come from: a pair's own listing, or a device folder before its pair is made. */
export interface SelectionSource {
  /** The device folder the tree starts in, for the list's label. */
  root: string;
  /** The folders in `path` (`''`: the root), as the core sees them. */
  list(path: string): Promise<SelectionFolderView[]>;
  /** Whether a folder left out can be opened, to take back a part of it. */
  opensExcluded: boolean;
}

export interface SelectionTreeProps {
  source: SelectionSource;
  /** A box was clicked: include the folder (`include`) or leave it out. The box shows the core's state. */
  onToggle: (folder: SelectionFolderView, include: boolean) => void;
  /** The folder whose change runs (its spinner), or null; every box waits meanwhile. */
  busyPath: string | null;
  /** Changed after a change was made: every folder shown is listed again (states above and below move). */
  refresh: number;
}

type Listing = { folders: SelectionFolderView[] } | { error: UiError } | 'loading';

export function SelectionTree(props: SelectionTreeProps): JSX.Element {
  const [listings, setListings] = useState<ReadonlyMap<string, Listing>>(new Map());
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set(['']));
  // The latest source and open folders, for a listing asked from an effect of an earlier render.
  const source = useRef(props.source);
  source.current = props.source;
  const opened = useRef(open);
  opened.current = open;
  const load = async (path: string): Promise<void> => {
    const set = (listing: Listing): void => setListings((before) => new Map(before).set(path, listing));
    // Listed again after a change: what is shown stays until the new answer replaces it.
    setListings((before) => (before.has(path) ? before : new Map(before).set(path, 'loading')));
    try {
      set({ folders: await source.current.list(path) });
    } catch (failure) {
      set({ error: toUiError(failure) });
    }
  };
  useEffect(() => void load(''), []);
  useEffect(() => {
    if (props.refresh > 0) for (const path of opened.current) void load(path);
  }, [props.refresh]);
  const toggleOpen = (path: string): void => {
    const next = new Set(open);
    if (next.has(path)) next.delete(path);
    else {
      next.add(path);
      void load(path);
    }
    setOpen(next);
  };
  const level = (path: string): JSX.Element => (
    <Level
      path={path}
      listing={listings.get(path) ?? 'loading'}
      open={open}
      onOpen={toggleOpen}
      level={level}
      {...props}
    />
  );
  return (
    <div class="selection-tree" aria-busy={props.busyPath !== null}>
      <ul class="tree" aria-label={`Folders in ${props.source.root}`}>
        {level('')}
      </ul>
    </div>
  );
}

interface LevelProps extends SelectionTreeProps {
  path: string;
  listing: Listing;
  open: ReadonlySet<string>;
  onOpen: (path: string) => void;
  /** The folders of an opened folder, drawn by the tree (so a level needs no listing of its own). */
  level: (path: string) => JSX.Element;
}

function Level(props: LevelProps): JSX.Element {
  const { listing, path } = props;
  if (listing === 'loading') {
    return (
      <li class="muted tree-note" role="status">
        <Spinner /> Looking at the device…
      </li>
    );
  }
  if ('error' in listing) {
    return (
      <li class="tree-note">
        <ErrorNote error={listing.error} />
      </li>
    );
  }
  if (listing.folders.length === 0) {
    return (
      <li class="muted tree-note">
        {path === '' ? `There are no folders in ${props.source.root} to choose from.` : 'No folders inside.'}
      </li>
    );
  }
  return (
    <>
      {listing.folders.map((folder) => (
        <FolderRow key={folder.id} folder={folder} {...props} />
      ))}
    </>
  );
}

function FolderRow(props: LevelProps & { folder: SelectionFolderView }): JSX.Element {
  const { folder, busyPath } = props;
  const boxId = useId();
  const infoId = useId();
  const isOpen = props.open.has(folder.path);
  const outside = folder.state === 'excluded' || folder.state === 'waiting';
  const canOpen = !outside || props.source.opensExcluded;
  // A folder partly held is mixed, and a click takes all of it (as the file managers' trees do).
  const include = folder.state !== 'synced';
  return (
    <li>
      <div class="tree-row">
        <button
          type="button"
          class="icon-button tree-open"
          aria-expanded={canOpen ? isOpen : undefined}
          aria-label={`${isOpen ? 'Close' : 'Open'} ${folder.name}`}
          disabled={!canOpen}
          onClick={() => props.onOpen(folder.path)}
        >
          {isOpen ? <ChevronDown /> : <ChevronRight />}
        </button>
        <input
          id={boxId}
          type="checkbox"
          checked={folder.state === 'synced'}
          indeterminate={folder.state === 'partly'}
          disabled={busyPath !== null}
          aria-describedby={infoId}
          // The box shows what the core says, never the click: the change (or its question) decides.
          onClick={(event) => {
            event.preventDefault();
            props.onToggle(folder, include);
          }}
        />
        <label for={boxId} class="tree-name">
          <Folder aria-hidden="true" />
          {folder.name}
        </label>
        <span class={`tree-info tree-${folder.state}`} id={infoId}>
          {busyPath === folder.path && <Spinner label={`Changing ${folder.name}`} />}
          {folderInfo(folder)}
        </span>
      </div>
      {isOpen && <ul class="tree">{props.level(folder.path)}</ul>}
    </li>
  );
}

/** "1.2 GB · 340 files", "Not synced · size unknown", "New, waiting for you · 1.2 GB · 340 files". */
export function folderInfo(folder: SelectionFolderView): string {
  const size =
    folder.bytes === null
      ? null
      : `${formatBytes(folder.bytes)} · ${formatCount(folder.files ?? 0, 'file', 'files')}`;
  switch (folder.state) {
    case 'synced':
      return size ?? '';
    case 'partly':
      return size === null ? 'Partly synced' : `Partly synced · ${size} here`;
    case 'excluded':
      return 'Not synced · size unknown';
    case 'waiting':
      return `New, waiting for you · ${size ?? 'size unknown'}`;
    default:
      return assertNever(folder.state, 'selection state');
  }
}
