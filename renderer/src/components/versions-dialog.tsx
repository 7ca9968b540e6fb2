// A file's kept versions (opened from a search result, an activity line or the tray): each with when it was kept, its size and why, and "Restore", asked first with what becomes of the file there now.
import { History, RotateCcw, X } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FileVersionsView, VersionView } from '../../../common/contract.ts';
import { formatBytes } from '../../../common/units.ts';
import { baseName, formatWhen, isoTime } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton, Spinner } from './busy-button.tsx';
import { Dialog } from './dialog.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function VersionsDialog({
  localPath,
  onClose,
}: {
  localPath: string;
  onClose: () => void;
}): JSX.Element {
  const { core } = useStores();
  const [file, setFile] = useState<FileVersionsView | null>(null);
  /** The version the user asked to restore: the dialog asks first. */
  const [asking, setAsking] = useState<VersionView | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const load = useAction(async () => setFile(await core.invoke('versions:list', { localPath })));
  const restore = useAction(async (version: VersionView) => {
    if (file === null) return;
    const outcome = await core.invoke('versions:restore', {
      pairId: file.pairId,
      path: file.path,
      versionId: version.id,
    });
    setFile(outcome.file);
    setDone(outcome.words);
    setAsking(null);
  });
  useEffect(() => void load.run(), [localPath]);
  const name = baseName(localPath);
  return (
    <Dialog title={`Versions of ${name}`} onClose={onClose} wide>
      <p class="path muted small versions-where">{localPath}</p>
      <ErrorNote error={load.error} />
      {file === null && load.busy && (
        <p class="note note-busy" role="status">
          <Spinner />
          <span>Looking for its versions…</span>
        </p>
      )}
      {file !== null &&
        (asking === null ? (
          <VersionList
            file={file}
            onRestore={(v) => {
              setDone(null);
              restore.clear();
              setAsking(v);
            }}
          />
        ) : (
          <RestoreQuestion
            file={file}
            version={asking}
            busy={restore.busy}
            onRestore={() => void restore.run(asking)}
            onCancel={() => setAsking(null)}
          />
        ))}
      {done !== null && (
        <p class="note versions-done" role="status">
          <RotateCcw aria-hidden="true" />
          <span>{done}</span>
        </p>
      )}
      <ErrorNote error={restore.error} />
      {asking === null && (
        <div class="actions dialog-actions">
          <button type="button" class="button" onClick={onClose}>
            <X aria-hidden="true" />
            Close
          </button>
        </div>
      )}
    </Dialog>
  );
}

function VersionList({
  file,
  onRestore,
}: {
  file: FileVersionsView;
  onRestore: (version: VersionView) => void;
}): JSX.Element {
  const name = baseName(file.path);
  return (
    <>
      <p class="versions-current">
        {file.current === null ? (
          <>Not in the folder now.</>
        ) : (
          <>
            The file now: {formatBytes(file.current.size)}, changed{' '}
            <time dateTime={isoTime(file.current.mTimeMs)}>{formatWhen(file.current.mTimeMs)}</time>.
          </>
        )}
      </p>
      {file.versions.length === 0 ? (
        <p class="card empty">
          <History aria-hidden="true" />
          No earlier version of {name} is kept. A version is kept when a change from the device replaces the
          file here or deletes it, and when a conflict is settled.
        </p>
      ) : (
        <ol class="version-list" aria-label={`Kept versions of ${name}, newest first`}>
          {file.versions.map((version) => (
            <li key={version.id} class="version-row">
              <span class="version-text">
                <strong>Version {version.number}</strong>
                <span class="muted small">
                  Kept <time dateTime={isoTime(version.keptAtMs)}>{formatWhen(version.keptAtMs)}</time> ·{' '}
                  {formatBytes(version.size)} · {version.why}
                </span>
              </span>
              <button
                type="button"
                class="button small"
                aria-label={`Restore version ${version.number} of ${name}`}
                onClick={() => onRestore(version)}
              >
                <RotateCcw aria-hidden="true" />
                Restore…
              </button>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** Asked first: what comes back, and that the file there now is kept in turn (nothing is lost). */
function RestoreQuestion(props: {
  file: FileVersionsView;
  version: VersionView;
  busy: boolean;
  onRestore: () => void;
  onCancel: () => void;
}): JSX.Element {
  const { file, version } = props;
  const name = baseName(file.path);
  const cancel = useRef<HTMLButtonElement>(null);
  // The button that asked is gone: the focus goes to the safe answer.
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div class="restore-question" role="group" aria-label={`Restore version ${version.number} of ${name}?`}>
      <p class="note-title">
        Restore version {version.number} of {name}?
      </p>
      <p>
        The version kept {formatWhen(version.keptAtMs)} ({formatBytes(version.size)}) goes back to{' '}
        <span class="path">{file.localPath}</span> and syncs to the device and your other computers.
      </p>
      <p>
        {file.current === null
          ? 'Nothing is at that place now.'
          : `The file there now (${formatBytes(file.current.size)}) is kept as a version first, so you can go back to it.`}
      </p>
      <div class="actions dialog-actions">
        <button type="button" class="button" ref={cancel} disabled={props.busy} onClick={props.onCancel}>
          Cancel
        </button>
        <BusyButton class="button primary" busy={props.busy} icon={RotateCcw} onClick={props.onRestore}>
          Restore
        </BusyButton>
      </div>
    </div>
  );
}
