// "New folder waiting" on a pair's card: a new device folder over the pair's threshold, with its size, answered "Sync it" or "Don't sync".
import { Download, FolderX, FolderDown } from 'lucide-preact';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { PairView, WaitingFolderView } from '../../../common/contract.ts';
import { formatBytes } from '../../../common/units.ts';
import { baseName, formatCount } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function WaitingFolders({ pair }: { pair: PairView }): JSX.Element | null {
  const waiting = pair.selection?.waiting ?? [];
  if (waiting.length === 0) return null;
  return (
    <>
      {waiting.map((folder) => (
        <WaitingFolder
          key={folder.path}
          pair={pair}
          folder={folder}
          askOverBytes={pair.selection?.askOverBytes ?? null}
        />
      ))}
    </>
  );
}

function WaitingFolder({
  pair,
  folder,
  askOverBytes,
}: {
  pair: PairView;
  folder: WaitingFolderView;
  askOverBytes: number | null;
}): JSX.Element {
  const { pairs } = useStores();
  const name = baseName(folder.path);
  const [answer, setAnswer] = useState<boolean | null>(null);
  // Nothing of it is here to keep or remove: "don't sync" leaves it on the device only.
  const answerWith = useAction(async (include: boolean) => {
    setAnswer(include);
    await pairs.changeSelection(
      include
        ? { pairId: pair.id, path: folder.path, include: true, localCopy: null }
        : { pairId: pair.id, path: folder.path, include: false, localCopy: 'keep' },
    );
  });
  const size = `${formatBytes(folder.bytes)} in ${formatCount(folder.files, 'file', 'files')}`;
  return (
    <section class="note note-warn waiting-folder" aria-label={`New folder ${name} waiting`}>
      <FolderDown aria-hidden="true" />
      <div class="note-body">
        <p class="note-title">New folder waiting: {name}</p>
        <p>
          {pair.remoteFolder}/{folder.path} is new on the device and holds {size}
          {askOverBytes === null ? '' : `: more than ${formatBytes(askOverBytes)}`}, so nothing of it comes to
          this computer until you choose.
        </p>
        <div class="actions">
          <BusyButton
            class="button small primary"
            icon={Download}
            busy={answerWith.busy && answer === true}
            disabled={answerWith.busy}
            onClick={() => void answerWith.run(true)}
          >
            Sync it
          </BusyButton>
          <BusyButton
            class="button small"
            icon={FolderX}
            busy={answerWith.busy && answer === false}
            disabled={answerWith.busy}
            onClick={() => void answerWith.run(false)}
          >
            Don&apos;t sync
          </BusyButton>
        </div>
        <ErrorNote error={answerWith.error} />
      </div>
    </section>
  );
}
