// A browser of the device's folders (remote:listFolders): a folder opened is the one chosen; "New folder" names one to make inside the folder shown, made on the device only when syncing starts. The device root it starts at is never chosen.
import { CornerLeftUp, Folder, FolderPlus } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import type { RemoteFolderListing } from '../../../common/contract.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton, Spinner } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

/** A folder chosen: one that exists, or a new one (`isNew`) that the pair's first pass makes. */
export interface ChosenFolder {
  path: string;
  isNew: boolean;
}

export function FolderBrowser({
  onChoose,
  chosen,
}: {
  onChoose: (folder: ChosenFolder) => void;
  chosen: ChosenFolder | null;
}): JSX.Element {
  const { core } = useStores();
  const [listing, setListing] = useState<RemoteFolderListing | null>(null);
  const [newName, setNewName] = useState<string | null>(null);
  /** Which folder is being opened (its id, or 'root'), for its spinner. */
  const [opening, setOpening] = useState<string | null>(null);
  const nameId = useId();
  const hintId = useId();
  const open = useAction(async (folderId: string | null, choose = true) => {
    setOpening(folderId ?? 'root');
    try {
      const next = await core.invoke('remote:listFolders', { folderId });
      setListing(next);
      setNewName(null);
      if (choose) onChoose({ path: next.folder.path, isNew: false });
    } finally {
      setOpening(null);
    }
  });
  // The device's root once, when the browser appears; not chosen (the whole device is never offered).
  useEffect(() => void open.run(null, false), []);
  const parentId = listing?.parentId ?? null;
  const here = listing?.folder.path ?? null;
  // Nothing is made here: the name becomes the device folder, made when syncing starts (or never, on Cancel).
  const useNewName = (name: string): void => {
    if (here === null) return;
    onChoose({ path: here === '/' ? `/${name}` : `${here}/${name}`, isNew: true });
    setNewName(null);
  };
  const pendingHere =
    chosen !== null && chosen.isNew && here !== null && parentOf(chosen.path) === here ? chosen : null;

  return (
    <div class="folder-browser" aria-busy={open.busy}>
      <p class="muted folder-where">
        Folders in {here ?? '…'}
        {open.busy && <Spinner label="Loading the folders" />}
      </p>
      <div class="folder-tools">
        <BusyButton
          class="button small"
          busy={opening !== null && opening === parentId}
          icon={CornerLeftUp}
          disabled={parentId === null || open.busy}
          onClick={() => parentId !== null && void open.run(parentId)}
        >
          Up
        </BusyButton>
        <button type="button" class="button small" onClick={() => setNewName('')} disabled={listing === null}>
          <FolderPlus />
          New folder
        </button>
      </div>
      {newName !== null && listing !== null && (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (newName.trim() !== '') useNewName(newName.trim());
          }}
        >
          <label for={nameId}>Name of the new folder</label>
          <input
            id={nameId}
            value={newName}
            required
            pattern="[^\/]+"
            title="A folder name, without /"
            aria-describedby={hintId}
            onInput={(event) => setNewName(event.currentTarget.value)}
          />
          <button type="submit" class="button small primary" disabled={newName.trim() === ''}>
            Use this name
          </button>
          <button type="button" class="button small" onClick={() => setNewName(null)}>
            Cancel
          </button>
          <p class="hint" id={hintId}>
            Made in {listing.folder.path} when syncing starts; nothing changes on the device before.
          </p>
        </form>
      )}
      <ErrorNote error={open.error} />
      {listing !== null && (
        <ul class="folder-list" aria-label={`Folders in ${listing.folder.path}`}>
          {listing.children.length === 0 && pendingHere === null && <li class="muted">No folders here.</li>}
          {pendingHere !== null && (
            <li class="folder-new">
              <FolderPlus />
              {baseOf(pendingHere.path)} <span class="muted">(new, made when syncing starts)</span>
            </li>
          )}
          {listing.children.map((child) => (
            <li key={child.id}>
              <button
                type="button"
                class="row-button"
                disabled={open.busy}
                aria-busy={opening === child.id}
                onClick={() => void open.run(child.id)}
              >
                {opening === child.id ? <Spinner /> : <Folder />}
                {child.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
