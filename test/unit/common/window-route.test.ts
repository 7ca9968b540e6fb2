// Where the window opens, as its address's fragment: a view, a file's versions over it (the tray's "Versions", a search result), and the item it points at (the file manager's entries).
import { describe, expect, it } from 'vitest';
import type { ViewName } from '../../../common/contract.ts';
import { isRouteItem, routeFragment, routeOf } from '../../../common/window-route.ts';

const VIEWS: ViewName[] = ['status', 'activity', 'deleted', 'issues'];

describe('the window route', () => {
  it('reads a view alone, and what it does not know as the status view', () => {
    expect(routeOf('#deleted', VIEWS)).toEqual({ view: 'deleted' });
    expect(routeOf('activity', VIEWS)).toEqual({ view: 'activity' });
    expect(routeOf('#nowhere', VIEWS)).toEqual({ view: 'status' });
    expect(routeOf('', VIEWS)).toEqual({ view: 'status' });
  });

  it('carries a file’s path with any character there and back', () => {
    const path = '/home/ann/Docs/a #1 & b?c=d %20 é.txt';
    const fragment = routeFragment({ view: 'activity', versionsOf: path });
    expect(fragment).not.toContain('#');
    expect(fragment.split('?')).toHaveLength(2);
    expect(routeOf(`#${fragment}`, VIEWS)).toEqual({ view: 'activity', versionsOf: path });
  });

  it('drops a path that does not decode, keeping the view', () => {
    expect(routeOf('#activity?versions=%E0%A4%A', VIEWS)).toEqual({ view: 'activity' });
    expect(routeOf('#activity?versions=', VIEWS)).toEqual({ view: 'activity' });
  });

  it('carries the item a view points at, alone or beside a file’s versions, with any character', () => {
    const item = '/home/ann/My Cloud/a&b=c?#d %2F é.txt';
    const fragment = routeFragment({ view: 'issues', item });
    expect(fragment).toBe(`issues?item=${encodeURIComponent(item)}`);
    expect(routeOf(`#${fragment}`, VIEWS)).toEqual({ view: 'issues', item });
    const both = routeFragment({ view: 'activity', versionsOf: '/v & w', item });
    expect(routeOf(both, VIEWS)).toEqual({ view: 'activity', versionsOf: '/v & w', item });
    // A key it does not know, or an item that does not decode, is left out; the rest stays.
    expect(routeOf('#issues?zoom=2&item=%2Fa', VIEWS)).toEqual({ view: 'issues', item: '/a' });
    expect(routeOf('#issues?item=%E0%A4%A', VIEWS)).toEqual({ view: 'issues' });
  });

  it('tells whether a route’s item is a pair’s item, in the separators of the pair’s system', () => {
    expect(isRouteItem('/home/ann/Cloud/docs/a.txt', '/home/ann/Cloud', 'docs/a.txt')).toBe(true);
    expect(isRouteItem('/home/ann/Cloud', '/home/ann/Cloud', '')).toBe(true);
    expect(isRouteItem('/home/ann/Cloud/docs/a.txt', '/home/ann/Cloud', 'docs')).toBe(false);
    expect(isRouteItem('/home/ann/Cloud/docs/a.txt', '/home/ann/Cloud', '', true)).toBe(true);
    expect(isRouteItem('/a.txt', '/', 'a.txt')).toBe(true);
    // A folder whose name starts like the pair's is not inside it.
    expect(isRouteItem('/home/ann/Cloud2/a.txt', '/home/ann/Cloud', '', true)).toBe(false);
    // On Linux a backslash is part of a name, never a separator.
    expect(isRouteItem('/home/ann/Cloud/notes/draft\\1.txt', '/home/ann/Cloud', 'notes/draft\\1.txt')).toBe(
      true,
    );
    expect(isRouteItem('/home/ann/Cloud/notes\\draft.txt', '/home/ann/Cloud', 'notes/draft.txt')).toBe(false);
    // A Windows folder holds its items behind backslashes.
    expect(isRouteItem('C:\\Users\\ann\\Cloud\\docs\\a.txt', 'C:\\Users\\ann\\Cloud', 'docs/a.txt')).toBe(
      true,
    );
    expect(isRouteItem('C:\\Users\\ann\\Cloud\\docs\\a.txt', 'C:\\Users\\ann\\Cloud', '', true)).toBe(true);
  });
});
