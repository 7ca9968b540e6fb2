// Asked when a synced folder is unchecked: what becomes of its copy on this computer (to the trash once synced, or kept unsynced); the device keeps it either way.
import { FolderMinus, Trash2 } from 'lucide-preact';
import type { JSX } from 'preact';
import { useId, useState } from 'preact/hooks';
import type { SelectionFolderView } from '../../../common/contract.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton } from './busy-button.tsx';
import { Dialog } from './dialog.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function LeaveOutDialog({
  pairId,
  remoteFolder,
  folder,
  onDone,
  onClose,
}: {
  pairId: string;
  remoteFolder: string;
  folder: SelectionFolderView;
  /** The folder was left out: the tree lists again. */
  onDone: () => void;
  onClose: () => void;
}): JSX.Element {
  const { pairs } = useStores();
  const [chosen, setChosen] = useState<'remove' | 'keep' | null>(null);
  const ids = { remove: useId(), keep: useId() };
  const leave = useAction(async (localCopy: 'remove' | 'keep') => {
    setChosen(localCopy);
    await pairs.changeSelection({ pairId, path: folder.path, include: false, localCopy });
    onDone();
    onClose();
  });
  return (
    <Dialog title={`Stop syncing ${folder.name} to this computer?`} onClose={onClose}>
      <p>
        It stays on the device as it is ({remoteFolder}/{folder.path}), with everything in it, and changes
        made there no longer come here. What becomes of the copy on this computer?
      </p>
      <ul class="leave-out-choices">
        <li>
          <BusyButton
            class="button"
            icon={Trash2}
            busy={leave.busy && chosen === 'remove'}
            disabled={leave.busy}
            aria-describedby={ids.remove}
            onClick={() => void leave.run('remove')}
          >
            Remove the copy from this computer
          </BusyButton>
          <p class="hint" id={ids.remove}>
            It goes to the trash once everything in it is synced: nothing changed here is lost.
          </p>
        </li>
        <li>
          <BusyButton
            class="button"
            icon={FolderMinus}
            busy={leave.busy && chosen === 'keep'}
            disabled={leave.busy}
            aria-describedby={ids.keep}
            onClick={() => void leave.run('keep')}
          >
            Keep it here, unsynced
          </BusyButton>
          <p class="hint" id={ids.keep}>
            The folder stays on this computer as it is; what you change in it is no longer synced.
          </p>
        </li>
      </ul>
      <ErrorNote error={leave.error} />
      <div class="actions dialog-actions">
        <button type="button" class="button" disabled={leave.busy} onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
