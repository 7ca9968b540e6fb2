// What a search result offers when it is synced here: open, show in folder, copy a share link.
import { ExternalLink, FolderSearch } from 'lucide-preact';
import type { JSX } from 'preact';
import { useStores } from '../stores/stores.ts';
import { CopyButton } from './copy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function ResultActions(props: {
  localPath: string | null;
  isFolder: boolean;
  describedBy: string;
}): JSX.Element {
  const { core, shares } = useStores();
  const act = useAction((name: 'shell:openPath' | 'shell:showItem', path: string) =>
    core.invoke(name, { path }),
  );
  const { localPath, describedBy } = props;
  if (localPath === null) {
    return <p class="muted small">Not in a synced folder: open it from the device.</p>;
  }
  return (
    <div class="actions">
      <button
        type="button"
        class="button small"
        aria-describedby={describedBy}
        onClick={() => void act.run('shell:openPath', localPath)}
      >
        <ExternalLink />
        Open
      </button>
      <button
        type="button"
        class="button small"
        aria-describedby={describedBy}
        onClick={() => void act.run('shell:showItem', localPath)}
      >
        <FolderSearch />
        Show in folder
      </button>
      <CopyButton
        label="Copy share link"
        describedBy={describedBy}
        link={async () => (await shares.create([localPath])).url}
      />
      <ErrorNote error={act.error} />
    </div>
  );
}
