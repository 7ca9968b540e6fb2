// Shares: every link with what it shares, copy, open, revoke (asked first); new links from the picker or by dropping files (desktop-app.md §2.5).
import { ExternalLink, Link2, Share2, Trash2 } from 'lucide-preact';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { ShareView } from '../../../common/contract.ts';
import { BusyButton } from '../components/busy-button.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { Dialog } from '../components/dialog.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { LocalPicker } from '../components/local-picker.tsx';
import { useAction } from '../components/use-action.ts';
import { ViewHeader } from '../components/view-header.tsx';
import { formatCount, formatWhen, isoTime } from '../format.ts';
import { useStores } from '../stores/stores.ts';

/** "report.pdf", "report.pdf and 2 more"; an item gone from the device still counts. */
export function shareTitle(share: ShareView): string {
  const named = share.items.map((item) => item.name).filter((name) => name !== null);
  const first = named[0] ?? 'Items no longer on the device';
  const others = share.items.length - 1;
  return others > 0 && named.length > 0 ? `${first} and ${others} more` : first;
}

export function SharesView(): JSX.Element {
  const { shares, core } = useStores();
  const [picking, setPicking] = useState(false);
  const create = useAction(async (paths: string[]) => {
    await shares.create(paths);
    setPicking(false);
  });
  const created = shares.created.value;
  const list = shares.shares.value;
  return (
    <div class="view">
      <ViewHeader title="Shares">
        <button type="button" class="button primary" onClick={() => setPicking(true)}>
          <Share2 />
          Choose items
        </button>
      </ViewHeader>
      <p class="hint view-hint">
        {core.canResolveDroppedFiles
          ? 'Or drop files from a synced folder on this window.'
          : 'Drop works in the desktop app; use "Choose items" here.'}
      </p>
      <ErrorNote error={shares.dropError.value ?? create.error ?? shares.error.value} />
      {created !== null && (
        <div class="card created" role="status">
          <p class="note-title">
            <Link2 />
            {created.reused ? 'These items already had a link' : 'Link ready'}: {shareTitle(created)}
          </p>
          <p class="share-url">{created.url}</p>
          <div class="actions">
            <CopyButton link={() => Promise.resolve(created.url)} />
          </div>
        </div>
      )}
      {list !== null && list.length === 0 && <p class="card empty">No links yet.</p>}
      {list !== null && list.length > 0 && (
        <ul class="share-list" aria-label="Links">
          {list.map((share) => (
            <ShareItem key={share.shareId} share={share} />
          ))}
        </ul>
      )}
      {picking && (
        <LocalPicker onClose={() => setPicking(false)} onShare={create.run} sharing={create.busy} />
      )}
    </div>
  );
}

function ShareItem({ share }: { share: ShareView }): JSX.Element {
  const { shares, core } = useStores();
  const [confirming, setConfirming] = useState(false);
  const open = useAction(() => core.invoke('shell:openUrl', { url: share.url }));
  const revoke = useAction(async () => {
    await shares.revoke(share.shareId);
    setConfirming(false);
  });
  const title = shareTitle(share);
  const titleId = `share-${share.shareId}`;
  return (
    <li class="card share">
      <h2 id={titleId} class="share-title">
        {title}
      </h2>
      <p class="muted small">
        {formatCount(share.items.length, 'item', 'items')} · created{' '}
        <time dateTime={isoTime(share.createdAtMs)}>{formatWhen(share.createdAtMs)}</time>
      </p>
      <p class="share-url">{share.url}</p>
      <div class="actions">
        <CopyButton link={() => Promise.resolve(share.url)} describedBy={titleId} />
        <BusyButton
          class="button small"
          busy={open.busy}
          icon={ExternalLink}
          aria-describedby={titleId}
          onClick={() => void open.run()}
        >
          Open
        </BusyButton>
        <button
          type="button"
          class="button small danger-quiet"
          aria-describedby={titleId}
          onClick={() => setConfirming(true)}
        >
          <Trash2 />
          Revoke
        </button>
      </div>
      <ErrorNote error={open.error} />
      {confirming && (
        <Dialog title="Revoke this link?" onClose={() => setConfirming(false)}>
          <p>
            Anyone who has the link to <strong>{title}</strong> can no longer open it. The files stay where
            they are.
          </p>
          <ErrorNote error={revoke.error} />
          <div class="actions dialog-actions">
            <button type="button" class="button" disabled={revoke.busy} onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <BusyButton
              class="button danger"
              busy={revoke.busy}
              icon={Trash2}
              onClick={() => void revoke.run()}
            >
              Revoke link
            </BusyButton>
          </div>
        </Dialog>
      )}
    </li>
  );
}
