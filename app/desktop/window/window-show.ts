// How the app's window is brought up at a route (the tray, a notification, the file manager's "Show in mch-sync" and "Why is this not synced?"): what to load, and whether to restore it from the taskbar first.
import { routeFragment, type WindowRoute } from '../../../common/window-route.ts';

export interface WindowShowInput {
  /** The renderer's address, `mch-app://ui/`. */
  appUrl: string;
  /** The page's address now (`webContents.getURL()`): '' before the first load. */
  currentUrl: string;
  /** Where to open it; null: as it is (the first time, the page's default view). */
  route: WindowRoute | null;
  /** Minimized to the taskbar: `show()` alone leaves it there on Windows and most Linux desktops. */
  minimized: boolean;
}

export interface WindowShowSteps {
  /**
   * The address to load, or null to leave the page as it is. Only the fragment changes after the first
   * load: the renderer routes by it (`hashchange`), so it is an in-page navigation, never a reload that
   * would lose what the window holds (a form, a scroll position).
   */
  load: string | null;
  restore: boolean;
}

export function windowShowOf(input: WindowShowInput): WindowShowSteps {
  const target = input.route === null ? input.appUrl : `${input.appUrl}#${routeFragment(input.route)}`;
  const loaded = input.currentUrl !== '';
  // The same address again would fire no hashchange: the page already shows it.
  const load = !loaded ? target : input.route === null || input.currentUrl === target ? null : target;
  return { load, restore: input.minimized };
}
