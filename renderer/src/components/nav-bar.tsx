// The list of views: a side bar in a wide window, a row of icons over their names at 400 px.
import type { LucideIcon } from 'lucide-preact';
import { Activity, CircleAlert, FolderSync, Search, Settings, Share2 } from 'lucide-preact';
import type { JSX } from 'preact';
import type { ViewName } from '../../../common/contract.ts';
import { useStores } from '../stores/stores.ts';

const ENTRIES: ReadonlyArray<{ view: ViewName; label: string; icon: LucideIcon }> = [
  { view: 'status', label: 'Status', icon: FolderSync },
  { view: 'activity', label: 'Activity', icon: Activity },
  { view: 'issues', label: 'Issues', icon: CircleAlert },
  { view: 'shares', label: 'Shares', icon: Share2 },
  { view: 'search', label: 'Search', icon: Search },
  { view: 'settings', label: 'Settings', icon: Settings },
];

export function NavBar(): JSX.Element {
  const { navigation, pairs } = useStores();
  const current = navigation.view.value;
  const issues = pairs.issueTotal.value;
  return (
    <nav class="nav" aria-label="Views">
      <div class="nav-sticky">
        <p class="nav-brand" aria-hidden="true">
          mch-sync
        </p>
        <ul>
          {ENTRIES.map(({ view, label, icon: Icon }) => (
            <li key={view}>
              <a href={`#${view}`} aria-current={current === view ? 'page' : undefined}>
                <Icon />
                <span class="nav-label">{label}</span>
                {view === 'issues' && issues > 0 && (
                  <span class="badge">
                    {issues}
                    <span class="visually-hidden"> to look at</span>
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
