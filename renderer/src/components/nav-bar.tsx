// The list of views: a side bar in a wide window, a row of icons over their names at 400 px.
import type { LucideIcon } from 'lucide-preact';
import { Activity, ArchiveRestore, CircleAlert, FolderSync, Search, Settings, Share2 } from 'lucide-preact';
import type { JSX } from 'preact';
import type { ViewName } from '../../../common/contract.ts';
import { useStores } from '../stores/stores.ts';

/** `short`: the name under its icon in a narrow window, where seven names share 400 px. */
const ENTRIES: ReadonlyArray<{ view: ViewName; label: string; short?: string; icon: LucideIcon }> = [
  { view: 'status', label: 'Status', icon: FolderSync },
  { view: 'activity', label: 'Activity', icon: Activity },
  { view: 'issues', label: 'Issues', icon: CircleAlert },
  { view: 'deleted', label: 'Recently deleted', short: 'Deleted', icon: ArchiveRestore },
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
          {ENTRIES.map(({ view, label, short, icon: Icon }) => (
            <li key={view}>
              <a href={`#${view}`} aria-current={current === view ? 'page' : undefined}>
                <Icon />
                {/* One of the two shows (views.css): a name hidden by display: none is not read either. */}
                <span class="nav-label">
                  {short === undefined ? (
                    label
                  ) : (
                    <>
                      <span class="nav-long">{label}</span>
                      <span class="nav-short">{short}</span>
                    </>
                  )}
                </span>
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
