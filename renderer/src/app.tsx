// The window: the views' navigation, the view shown (and a file's versions over it), the toasts and drop-to-share; the first run until there is something to sync.
import type { JSX } from 'preact';
import { useCallback } from 'preact/hooks';
import type { ViewName } from '../../common/contract.ts';
import { DropToShare } from './components/drop-to-share.tsx';
import { NavBar } from './components/nav-bar.tsx';
import { Toasts } from './components/toasts.tsx';
import { useStores } from './stores/stores.ts';
import { VersionsDialog } from './components/versions-dialog.tsx';
import { ActivityView } from './views/activity-view.tsx';
import { DeletedView } from './views/deleted-view.tsx';
import { FirstRunView } from './views/first-run-view.tsx';
import { IssuesView } from './views/issues-view.tsx';
import { SearchView } from './views/search-view.tsx';
import { SettingsView } from './views/settings-view.tsx';
import { SharesView } from './views/shares-view.tsx';
import { StatusView } from './views/status-view.tsx';

const VIEWS: Record<ViewName, () => JSX.Element> = {
  'first-run': FirstRunView,
  status: StatusView,
  activity: ActivityView,
  issues: IssuesView,
  deleted: DeletedView,
  shares: SharesView,
  search: SearchView,
  settings: SettingsView,
};

export function App(): JSX.Element {
  const { account, pairs, navigation, shares } = useStores();
  const current = account.account.value;
  // Nothing to show but the first run before there is an account, a device and a folder.
  const settingUp =
    current?.signedIn !== true || current.device === null || (pairs.pairs.value ?? []).length === 0;
  const view = settingUp ? 'first-run' : navigation.view.value;
  const View = VIEWS[view];
  const versionsOf = navigation.versionsOf.value;
  const onDrop = useCallback(
    (paths: string[]) => {
      navigation.go('shares');
      void shares.shareDropped(paths);
    },
    [navigation, shares],
  );
  return (
    <div class={settingUp ? 'app app-setup' : 'app'}>
      <button type="button" class="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to the view
      </button>
      {!settingUp && <NavBar />}
      <main id="main" tabIndex={-1}>
        <View />
      </main>
      <Toasts />
      {!settingUp && <DropToShare onDrop={onDrop} />}
      {!settingUp && versionsOf !== null && (
        <VersionsDialog key={versionsOf} localPath={versionsOf} onClose={() => navigation.closeVersions()} />
      )}
    </div>
  );
}
