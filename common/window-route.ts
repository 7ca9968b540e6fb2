// Where the window opens, as the fragment of its address: a view (`#activity`), and a file whose versions it shows over it (`#activity?versions=<path>`); the tray, notifications and the renderer share it.
import type { ViewName } from './contract.ts';

export interface WindowRoute {
  view: ViewName;
  /** A synced file's path here: its versions are shown over the view. */
  versionsOf?: string;
}

const VERSIONS_KEY = 'versions=';

/** The fragment, without its `#`: `activity`, `activity?versions=%2Fhome%2Fann%2Fa.txt`. */
export function routeFragment(route: WindowRoute): string {
  return route.versionsOf === undefined
    ? route.view
    : `${route.view}?${VERSIONS_KEY}${encodeURIComponent(route.versionsOf)}`;
}

/** The route of a fragment (with or without its `#`); a view it does not know is `fallback`. */
export function routeOf(
  fragment: string,
  views: readonly ViewName[],
  fallback: ViewName = 'status',
): WindowRoute {
  const [name = '', query = ''] = fragment.replace(/^#/, '').split('?', 2);
  const view = views.find((known) => known === name) ?? fallback;
  const versions = query.startsWith(VERSIONS_KEY) ? decoded(query.slice(VERSIONS_KEY.length)) : undefined;
  return versions === undefined || versions === '' ? { view } : { view, versionsOf: versions };
}

/** A fragment typed or mangled by hand decodes to nothing rather than throwing. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
