// What a search result offers when it is synced here: open, show in folder, copy a share link, its versions.
import { ExternalLink, FolderSearch, History } from 'lucide-preact';
import type { JSX } from 'preact';
import { useStores } from '../stores/stores.ts';
import { BusyButton } from './busy-button.tsx';
import { CopyButton } from './copy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function ResultActions(props: {
  localPath: string | null;
  isFolder: boolean;
  describedBy: string;
}): JSX.Element {
  const { core, shares, navigation } = useStores();
  const open = useAction((path: string) => core.invoke('shell:openPath', { path }));
  const show = useAction((path: string) => core.invoke('shell:showItem', { path }));
  const { localPath, describedBy } = props;
  if (localPath === null) {
    return <p class="muted small">Not in a synced folder: open it from the device.</p>;
  }
  return (
    <div class="actions">
      <BusyButton
        class="button small"
        busy={open.busy}
        icon={ExternalLink}
        aria-describedby={describedBy}
        onClick={() => void open.run(localPath)}
      >
        Open
      </BusyButton>
      <BusyButton
        class="button small"
        busy={show.busy}
        icon={FolderSearch}
        aria-describedby={describedBy}
        onClick={() => void show.run(localPath)}
      >
        Show in folder
      </BusyButton>
      <CopyButton
        label="Copy share link"
        describedBy={describedBy}
        link={async () => (await shares.create([localPath])).url}
      />
      {!props.isFolder && (
        <button
          type="button"
          class="button small"
          aria-describedby={describedBy}
          onClick={() => navigation.showVersions(localPath)}
        >
          <History aria-hidden="true" />
          Versions…
        </button>
      )}
      <ErrorNote error={open.error ?? show.error} />
    </div>
  );
}
