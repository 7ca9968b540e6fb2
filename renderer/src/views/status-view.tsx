// Status: every folder pair with its state, progress and controls (desktop-app.md §2.2); the pair of the item a route points at (`#status?item=…`) highlighted.
import { CloudOff, FolderPlus, Globe, House, Play } from 'lucide-preact';
import type { JSX } from 'preact';
import type { AccountView } from '../../../common/contract.ts';
import { isRouteItem } from '../../../common/window-route.ts';
import { BusyButton } from '../components/busy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { PairCard } from '../components/pair-card.tsx';
import { PauseButtons } from '../components/pause-buttons.tsx';
import { useAction } from '../components/use-action.ts';
import { ViewHeader } from '../components/view-header.tsx';
import { useStores } from '../stores/stores.ts';

/** "Living-room cloud · at home": how the running client reaches the device (issue #33); nothing while it is not known. */
function DeviceLine({ account }: { account: AccountView | null }): JSX.Element | null {
  const device = account?.device;
  const connection = device?.connection;
  if (device === null || device === undefined || connection === null || connection === undefined) return null;
  const Icon = !connection.reachable ? CloudOff : connection.via === 'relay' ? Globe : House;
  const where = !connection.reachable
    ? 'not answering: changes wait until it does'
    : connection.via === 'home'
      ? 'at home'
      : connection.via === 'relay'
        ? 'through the internet (slower than at home)'
        : 'at the address set by hand';
  return (
    <p class="device-line muted">
      <Icon aria-hidden="true" />
      <span>
        {device.name} · {where}
      </span>
    </p>
  );
}

export function StatusView(): JSX.Element {
  const { pairs, navigation, account } = useStores();
  const item = navigation.item.value;
  // A pair nested in another holds its own items: the deepest folder that holds the item is its pair.
  const pointedPair =
    item === null
      ? undefined
      : (pairs.pairs.value ?? [])
          .filter((pair) => isRouteItem(item, pair.localRoot, '', true))
          .sort((a, b) => b.localRoot.length - a.localRoot.length)[0];
  const list = pairs.pairs.value ?? [];
  const allPaused = list.length > 0 && list.every((pair) => pair.paused);
  const all = useAction((work: () => Promise<void>) => work());
  return (
    <div class="view">
      <ViewHeader title="Status">
        {list.length > 1 &&
          (allPaused ? (
            <BusyButton
              class="button small"
              busy={all.busy}
              icon={Play}
              onClick={() => void all.run(() => pairs.resume(null))}
            >
              Resume all
            </BusyButton>
          ) : (
            <PauseButtons
              class="button small"
              busy={all.busy}
              label="Pause all"
              pause={(length) => void all.run(() => pairs.pause(null, length))}
            />
          ))}
      </ViewHeader>
      <DeviceLine account={account.account.value} />
      <ErrorNote error={all.error} />
      {list.length === 0 ? (
        <div class="card empty">
          <p>No folder is synced yet.</p>
          <a class="button primary" href="#first-run">
            <FolderPlus />
            Add a folder
          </a>
        </div>
      ) : (
        <div class="pairs">
          {list.map((pair) => (
            <PairCard key={pair.id} pair={pair} pointedItem={pair.id === pointedPair?.id ? item : null} />
          ))}
        </div>
      )}
    </div>
  );
}
