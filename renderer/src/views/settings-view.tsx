// Settings: folder pairs (add, choose their device folders, files on demand, versions, remove asking about the local files), account (sign-out asked first), general settings, the network's limits and proxy, about (desktop-app.md §2.7).
import { CloudDownload, FolderPlus, FolderTree, History, LogOut, Trash2 } from 'lucide-preact';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { PairView } from '../../../common/contract.ts';
import { BusyButton } from '../components/busy-button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { GeneralSettings } from '../components/general-settings.tsx';
import { NetworkSettings } from '../components/network-settings.tsx';
import { PairForm } from '../components/pair-form.tsx';
import { PairOnDemand } from '../components/pair-on-demand.tsx';
import { PairSelection } from '../components/pair-selection.tsx';
import { PairVersions } from '../components/pair-versions.tsx';
import { useAction } from '../components/use-action.ts';
import { ViewHeader } from '../components/view-header.tsx';
import { baseName } from '../format.ts';
import { useStores } from '../stores/stores.ts';

export function SettingsView(): JSX.Element {
  const { settings } = useStores();
  const current = settings.settings.value;
  return (
    <div class="view">
      <ViewHeader title="Settings" />
      <FolderPairs />
      <Account />
      {current !== null && <GeneralSettings settings={current} />}
      <NetworkSettings />
      <About />
    </div>
  );
}

function FolderPairs(): JSX.Element {
  const { pairs } = useStores();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PairView | null>(null);
  /** The pair whose device folders are shown, to choose which are synced. */
  const [choosing, setChoosing] = useState<string | null>(null);
  /** The pair whose files-on-demand setting is shown. */
  const [onDemandOf, setOnDemandOf] = useState<string | null>(null);
  /** The pair whose versions are shown. */
  const [versionsOf, setVersionsOf] = useState<string | null>(null);
  return (
    <section class="card" aria-labelledby="pairs-settings">
      <h2 id="pairs-settings">Folders</h2>
      <ul class="settings-pairs">
        {(pairs.pairs.value ?? []).map((pair) => (
          <li key={pair.id}>
            <span class="settings-pair-text">
              <strong>{baseName(pair.localRoot)}</strong>
              <span class="muted small">
                {pair.localRoot} ⇄ {pair.remoteFolder}
              </span>
              {(pair.onDemand ?? null) !== null && <span class="muted small">Files on demand: on</span>}
            </span>
            <span class="settings-pair-actions">
              <button
                type="button"
                class="button small"
                aria-expanded={choosing === pair.id}
                aria-label={`Choose folders of ${baseName(pair.localRoot)}`}
                onClick={() => setChoosing(choosing === pair.id ? null : pair.id)}
              >
                <FolderTree />
                Choose folders
              </button>
              <button
                type="button"
                class="button small"
                aria-expanded={onDemandOf === pair.id}
                aria-label={`Files on demand of ${baseName(pair.localRoot)}`}
                onClick={() => setOnDemandOf(onDemandOf === pair.id ? null : pair.id)}
              >
                <CloudDownload />
                Files on demand
              </button>
              <button
                type="button"
                class="button small"
                aria-expanded={versionsOf === pair.id}
                aria-label={`Versions of ${baseName(pair.localRoot)}`}
                onClick={() => setVersionsOf(versionsOf === pair.id ? null : pair.id)}
              >
                <History />
                Versions
              </button>
              <button
                type="button"
                class="button small"
                aria-label={`Remove ${baseName(pair.localRoot)}`}
                onClick={() => setRemoving(pair)}
              >
                <Trash2 />
                Remove
              </button>
            </span>
            {choosing === pair.id && <PairSelection pair={pair} />}
            {onDemandOf === pair.id && <PairOnDemand pair={pair} />}
            {versionsOf === pair.id && <PairVersions pair={pair} />}
          </li>
        ))}
      </ul>
      {adding ? (
        <PairForm
          submitLabel="Add and start syncing"
          onAdded={() => setAdding(false)}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <button type="button" class="button" onClick={() => setAdding(true)}>
          <FolderPlus />
          Add a folder
        </button>
      )}
      {removing !== null && <RemovePair pair={removing} onClose={() => setRemoving(null)} />}
    </section>
  );
}

function RemovePair({ pair, onClose }: { pair: PairView; onClose: () => void }): JSX.Element {
  const { pairs } = useStores();
  /** The answer given (keep the files or not), for its button's spinner. */
  const [removing, setRemoving] = useState<boolean | null>(null);
  const remove = useAction(async (keepLocalFiles: boolean) => {
    await pairs.remove(pair.id, keepLocalFiles);
    onClose();
  });
  return (
    <Dialog title={`Stop syncing ${baseName(pair.localRoot)}?`} onClose={onClose}>
      <p>
        The folder on the device ({pair.remoteFolder}) stays as it is. Keep the local files in{' '}
        <strong>{pair.localRoot}</strong>?
      </p>
      <ErrorNote error={remove.error} />
      <div class="actions dialog-actions">
        <button type="button" class="button" disabled={remove.busy} onClick={onClose}>
          Cancel
        </button>
        <BusyButton
          class="button danger"
          busy={remove.busy && removing === false}
          disabled={remove.busy}
          onClick={() => {
            setRemoving(false);
            void remove.run(false);
          }}
        >
          Move them to the trash
        </BusyButton>
        <BusyButton
          class="button primary"
          busy={remove.busy && removing === true}
          disabled={remove.busy}
          onClick={() => {
            setRemoving(true);
            void remove.run(true);
          }}
        >
          Keep the files
        </BusyButton>
      </div>
    </Dialog>
  );
}

function Account(): JSX.Element {
  const { account } = useStores();
  const [asking, setAsking] = useState(false);
  const current = account.account.value;
  return (
    <section class="card" aria-labelledby="account-settings">
      <h2 id="account-settings">Account</h2>
      <dl class="facts">
        <dt>Signed in as</dt>
        <dd>
          {current?.user?.name ?? 'Nobody'}
          {current?.user?.email ? <span class="muted"> ({current.user.email})</span> : null}
        </dd>
        <dt>Device</dt>
        <dd>{current?.device?.name ?? 'None chosen'}</dd>
        <dt>Sign-in kept in</dt>
        <dd>
          {current?.secretStore === 'keychain'
            ? 'the system keychain'
            : current?.secretStore === 'file'
              ? 'a private file (no keychain was found on this computer)'
              : '—'}
        </dd>
      </dl>
      <button type="button" class="button" onClick={() => setAsking(true)}>
        <LogOut />
        Sign out
      </button>
      {asking && <SignOut onClose={() => setAsking(false)} />}
    </section>
  );
}

/** Asked first: what stops (each folder's sync), what does not change (the files, the links made). */
function SignOut({ onClose }: { onClose: () => void }): JSX.Element {
  const { account, pairs } = useStores();
  const signOut = useAction(() => account.signOut());
  const names = (pairs.pairs.value ?? []).map((pair) => baseName(pair.localRoot));
  const device = account.account.value?.device?.name;
  return (
    <Dialog title="Sign out of mch-sync?" onClose={onClose}>
      <p>
        {names.length === 0
          ? 'Nothing is synced until you sign in again.'
          : `Syncing stops for ${listed(names)} until you sign in again.`}{' '}
        The files stay as they are on this computer and
        {device === undefined ? ' on the device' : ` on ${device}`}; nothing is deleted.
      </p>
      <p>
        Share links you made keep working. Making new ones, search and &ldquo;Copy share link&rdquo; in the
        file manager wait for the next sign-in.
      </p>
      <ErrorNote error={signOut.error} />
      <div class="actions dialog-actions">
        <button type="button" class="button" disabled={signOut.busy} onClick={onClose}>
          Cancel
        </button>
        <BusyButton
          class="button danger"
          busy={signOut.busy}
          icon={LogOut}
          onClick={() => void signOut.run()}
        >
          Sign out
        </BusyButton>
      </div>
    </Dialog>
  );
}

/** "Work", "Work and Notes", "Work, Notes and Photos". */
function listed(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

function About(): JSX.Element {
  const about = useStores().settings.about.value;
  return (
    <section class="card" aria-labelledby="about-settings">
      <h2 id="about-settings">About</h2>
      <dl class="facts">
        <dt>Version</dt>
        <dd>{about?.version ?? '—'}</dd>
        <dt>Settings folder</dt>
        <dd class="path">{about?.profileDir ?? '—'}</dd>
        <dt>Logs</dt>
        <dd class="path">{about?.logsDir ?? '—'}</dd>
        <dt>This window&apos;s log</dt>
        <dd class="path">{about?.logFile ?? '—'}</dd>
      </dl>
    </section>
  );
}
