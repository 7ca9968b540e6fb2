// The stores of one window, made over one bridge, and the first load of each.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Core } from '../bridge.ts';
import { AccountStore } from './account-store.ts';
import { ActivityStore } from './activity-store.ts';
import { ConflictsStore } from './conflicts-store.ts';
import { IssuesStore } from './issues-store.ts';
import { Navigation } from './navigation.ts';
import { NotificationsStore } from './notifications-store.ts';
import { PairsStore } from './pairs-store.ts';
import { SearchStore } from './search-store.ts';
import { SettingsStore } from './settings-store.ts';
import { SharesStore } from './shares-store.ts';

export interface Stores {
  core: Core;
  navigation: Navigation;
  account: AccountStore;
  pairs: PairsStore;
  issues: IssuesStore;
  conflicts: ConflictsStore;
  activity: ActivityStore;
  shares: SharesStore;
  settings: SettingsStore;
  notifications: NotificationsStore;
  search: SearchStore;
}

/** Listeners are set before the first loads, so nothing said in between is lost. */
export function createStores(core: Core): Stores {
  const pairs = new PairsStore(core);
  const account = new AccountStore(core);
  return {
    core,
    navigation: new Navigation(),
    account,
    pairs,
    issues: new IssuesStore(core, pairs),
    conflicts: new ConflictsStore(core, pairs),
    activity: new ActivityStore(core),
    shares: new SharesStore(core, account),
    settings: new SettingsStore(core),
    notifications: new NotificationsStore(core),
    search: new SearchStore(core),
  };
}

/**
 * What the window needs to show anything; rejects with a UiError. Activity, issues and shares load
 * beside it and keep their own error for their view.
 */
export async function loadStores(stores: Stores): Promise<void> {
  void stores.activity.load();
  await Promise.all([stores.account.load(), stores.pairs.load(), stores.settings.load()]);
}

export const StoresContext = createContext<Stores | null>(null);

export function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (stores === null) throw new Error('useStores outside StoresContext');
  return stores;
}
