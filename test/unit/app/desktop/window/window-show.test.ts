// The app's window brought up at a route: the first show loads the page, a new route after that changes only the fragment, the same one or none leaves the page alone; a minimized window is restored.
import { describe, expect, it } from 'vitest';
import { windowShowOf } from '../../../../../app/desktop/window/window-show.ts';

const APP_URL = 'mch-app://ui/';

describe('windowShowOf', () => {
  it('loads the page at the first show, at the route when there is one', () => {
    expect(windowShowOf({ appUrl: APP_URL, currentUrl: '', route: null, minimized: false })).toEqual({
      load: APP_URL,
      restore: false,
    });
    expect(
      windowShowOf({ appUrl: APP_URL, currentUrl: '', route: { view: 'issues' }, minimized: false }).load,
    ).toBe(`${APP_URL}#issues`);
  });

  it('sends a loaded page to a new route by its fragment (an in-page navigation, no reload)', () => {
    const steps = windowShowOf({
      appUrl: APP_URL,
      currentUrl: `${APP_URL}#status`,
      route: { view: 'issues', item: '/home/ann/Cloud/a b.txt' },
      minimized: false,
    });
    expect(steps.load).toBe(`${APP_URL}#issues?item=%2Fhome%2Fann%2FCloud%2Fa%20b.txt`);
  });

  it('leaves a loaded page as it is when no route is asked, or the one it shows', () => {
    const current = `${APP_URL}#issues?item=%2Fa`;
    expect(
      windowShowOf({ appUrl: APP_URL, currentUrl: current, route: null, minimized: false }).load,
    ).toBeNull();
    expect(
      windowShowOf({
        appUrl: APP_URL,
        currentUrl: current,
        route: { view: 'issues', item: '/a' },
        minimized: false,
      }).load,
    ).toBeNull();
  });

  it('restores a minimized window before showing it', () => {
    expect(windowShowOf({ appUrl: APP_URL, currentUrl: APP_URL, route: null, minimized: true }).restore).toBe(
      true,
    );
  });
});
