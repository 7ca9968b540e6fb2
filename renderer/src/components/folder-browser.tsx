// A browser of the device's folders (remote:listFolders), with "New folder": a folder opened (or made) is the one chosen; the device root it starts at is not.
import { CornerLeftUp, Folder, FolderPlus } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import type { RemoteFolderListing } from '../../../common/contract.ts';
import { useStores } from '../stores/stores.ts';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function FolderBrowser({ onChoose }: { onChoose: (path: string) => void }): JSX.Element {
  const { core } = useStores();
  const [listing, setListing] = useState<RemoteFolderListing | null>(null);
  const [newName, setNewName] = useState<string | null>(null);
  const nameId = useId();
  const open = useAction(async (folderId: string | null, choose = true) => {
    const next = await core.invoke('remote:listFolders', { folderId });
    setListing(next);
    if (choose) onChoose(next.folder.path);
  });
  const create = useAction(async (parentId: string, name: string) => {
    const folder = await core.invoke('remote:createFolder', { parentId, name });
    setNewName(null);
    await open.run(folder.id);
  });
  // The device's root once, when the browser appears; not chosen (the whole device is never offered).
  useEffect(() => void open.run(null, false), []);
  const parentId = listing?.parentId ?? null;

  return (
    <div class="folder-browser">
      <p class="muted folder-where">Folders in {listing?.folder.path ?? '…'}</p>
      <div class="folder-tools">
        <button
          type="button"
          class="button small"
          disabled={parentId === null || open.busy}
          onClick={() => parentId !== null && void open.run(parentId)}
        >
          <CornerLeftUp />
          Up
        </button>
        <button type="button" class="button small" onClick={() => setNewName('')} disabled={listing === null}>
          <FolderPlus />
          New folder
        </button>
      </div>
      {newName !== null && listing !== null && (
        <div class="inline-form">
          <label for={nameId}>Name of the new folder</label>
          <input id={nameId} value={newName} onInput={(event) => setNewName(event.currentTarget.value)} />
          <button
            type="button"
            class="button small primary"
            disabled={newName.trim() === '' || create.busy}
            onClick={() => void create.run(listing.folder.id, newName.trim())}
          >
            Create
          </button>
          <button type="button" class="button small" onClick={() => setNewName(null)}>
            Cancel
          </button>
        </div>
      )}
      <ErrorNote error={open.error ?? create.error} />
      {listing !== null && (
        <ul class="folder-list" aria-label={`Folders in ${listing.folder.path}`}>
          {listing.children.length === 0 && <li class="muted">No folders here.</li>}
          {listing.children.map((child) => (
            <li key={child.id}>
              <button type="button" class="row-button" onClick={() => void open.run(child.id)}>
                <Folder />
                {child.name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
