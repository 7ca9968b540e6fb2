// "Add a folder": which folders of the device folder come to this computer, chosen before the pair is made (its first pass brings what is checked and asks nothing).
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { formatCount } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { SelectionTree } from './selection-tree.tsx';

export function SelectionPreview({
  remoteFolder,
  excluded,
  onChange,
}: {
  remoteFolder: string;
  /** The folders left out so far (paths below `remoteFolder`). */
  excluded: string[];
  onChange: (excluded: string[]) => void;
}): JSX.Element {
  const { pairs } = useStores();
  const [open, setOpen] = useState(false);
  const [refresh, setRefresh] = useState(0);
  return (
    <details class="advanced choose-folders" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Choose which of its folders to sync
        {excluded.length > 0 && ` (${formatCount(excluded.length, 'folder', 'folders')} left out)`}
      </summary>
      {open && (
        <>
          <p class="hint">
            Checked folders come to this computer; an unchecked one stays on the device only. A folder of that
            name already in yours stays as it is, unsynced. You can change this later in Settings.
          </p>
          <SelectionTree
            key={remoteFolder}
            source={{
              root: remoteFolder,
              list: (path) => pairs.previewSelection(remoteFolder, excluded, path),
              // Taking back a part of a folder left out is for Settings, once the pair is made.
              opensExcluded: false,
            }}
            busyPath={null}
            refresh={refresh}
            onToggle={(folder, include) => {
              const below = (path: string): boolean => path.startsWith(`${folder.path}/`);
              // Checked: it and all it holds come; unchecked: it stands for what was left out inside it.
              onChange(
                include
                  ? excluded.filter((path) => path !== folder.path && !below(path))
                  : [...excluded.filter((path) => !below(path)), folder.path],
              );
              setRefresh((count) => count + 1);
            }}
          />
        </>
      )}
    </details>
  );
}
