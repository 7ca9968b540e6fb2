// Where the window opens, as its address's fragment: a view, and a file's versions over it (the tray's "Versions", a search result).
import { describe, expect, it } from 'vitest';
import type { ViewName } from '../../../common/contract.ts';
import { routeFragment, routeOf } from '../../../common/window-route.ts';

const VIEWS: ViewName[] = ['status', 'activity', 'deleted'];

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
});
