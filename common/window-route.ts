// Where the window opens, as the fragment of its address: a view (`#activity`), a file whose versions it shows over it (`#activity?versions=<path>`), and an item it points at (`#issues?item=<path>`); the tray, notifications, the file manager's entries and the renderer share it.
import type { ViewName } from './contract.ts';

export interface WindowRoute {
  view: ViewName;
  /** A synced file's path here: its versions are shown over the view. */
  versionsOf?: string;
  /**
   * A synced item's path here (absolute) that the view points at: its issue in Issues ("Why is this
   * not synced?"), its folder's card in Status ("Show in mch-sync").
   */
  item?: string;
}

const VERSIONS_KEY = 'versions';
const ITEM_KEY = 'item';

/** The fragment, without its `#`: `activity`, `activity?versions=%2Fhome%2Fann%2Fa.txt`, `issues?item=…`. */
export function routeFragment(route: WindowRoute): string {
  const query: string[] = [];
  if (route.versionsOf !== undefined) query.push(`${VERSIONS_KEY}=${encodeURIComponent(route.versionsOf)}`);
  if (route.item !== undefined) query.push(`${ITEM_KEY}=${encodeURIComponent(route.item)}`);
  return query.length === 0 ? route.view : `${route.view}?${query.join('&')}`;
}

/** The route of a fragment (with or without its `#`); a view it does not know is `fallback`. */
export function routeOf(
  fragment: string,
  views: readonly ViewName[],
  fallback: ViewName = 'status',
): WindowRoute {
  const [name = '', query = ''] = fragment.replace(/^#/, '').split('?', 2);
  const view = views.find((known) => known === name) ?? fallback;
  const route: WindowRoute = { view };
  // Each value is encoded whole (encodeURIComponent), so `&` and `=` inside a path never split it.
  for (const part of query.split('&')) {
    const equals = part.indexOf('=');
    const key = part.slice(0, equals);
    const value = equals < 0 ? undefined : decoded(part.slice(equals + 1));
    if (value === undefined || value === '') continue;
    if (key === VERSIONS_KEY) route.versionsOf = value;
    else if (key === ITEM_KEY) route.item = value;
  }
  return route;
}

/**
 * Whether `item` (a route's absolute path) is the pair's item at `relativePath` (`/`-separated, '' the
 * folder itself), or with `orBelow` also anything inside it. The separator is the one of `localRoot`'s
 * system: a Windows folder (`C:\Users\ann\MyCloud`) holds `a/b.txt` at `…\a\b.txt`, while on Linux
 * and macOS a backslash is part of a name (`draft\1.txt`), never a separator.
 */
export function isRouteItem(item: string, localRoot: string, relativePath: string, orBelow = false): boolean {
  const separator = /^(?:[A-Za-z]:[\\/]|\\\\)/.test(localRoot) ? '\\' : '/';
  // The core's folders are resolved: no separator at the end but at a root's (`/`, `C:\`).
  const joint = localRoot.endsWith(separator) ? '' : separator;
  const target =
    relativePath === '' ? localRoot : `${localRoot}${joint}${relativePath.split('/').join(separator)}`;
  const below = target.endsWith(separator) ? target : `${target}${separator}`;
  return item === target || (orBelow && item.startsWith(below));
}

/** A fragment typed or mangled by hand decodes to nothing rather than throwing. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
