// The app's one window: the renderer from mch-app://ui with every webPreferences field set, placed as a popover near the tray or as a normal window, hidden (not closed) when closed.
import { BrowserWindow, screen, type Rectangle } from 'electron';
import type { ViewName } from '../common/contract.ts';
import type { WindowRoute } from '../common/window-route.ts';
import { windowPlacementOf } from '../app/desktop/window/window-placement.ts';
import { windowShowOf } from '../app/desktop/window/window-show.ts';
import { APP_URL } from './app-protocol.ts';

/** desktop-app.md §2: the views fit a 400×600 popover. */
export const WINDOW_SIZE = { width: 400, height: 600 } as const;

export interface AppWindow {
  window: BrowserWindow;
  /** Shows the window (placed near the tray when it knows where that is), on `view` when given. */
  show(view?: ViewName | WindowRoute | null, trayBounds?: Rectangle | null): void;
  /** Lets the next close really close (quitting). */
  allowClose(): void;
}

export function createAppWindow(options: { preload: string; icon?: string }): AppWindow {
  const window = new BrowserWindow({
    ...WINDOW_SIZE,
    minWidth: 360,
    minHeight: 420,
    show: false,
    title: 'mch-sync',
    autoHideMenuBar: true,
    ...(options.icon === undefined ? {} : { icon: options.icon }),
    // Every field explicitly, as desktop-app.md §6 asks: defaults changed between Electron versions, and
    // Electronegativity reads only a literal here and assumes the old ones. The preload is the bundled
    // one file; sandboxed, it cannot load another.
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      plugins: false,
      enableWebSQL: false,
      webgl: false,
      autoplayPolicy: 'document-user-activation-required',
      // A middle click would otherwise ask for a new window (denied anyway): not even asked.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  let quitting = false;
  // The tray app keeps running when its window closes (desktop-app.md §6).
  window.on('close', (event) => {
    if (quitting) return;
    event.preventDefault();
    window.hide();
  });
  const show = (view?: ViewName | WindowRoute | null, trayBounds?: Rectangle | null): void => {
    const anchor = trayBounds ?? null;
    const point = anchor === null ? screen.getCursorScreenPoint() : { x: anchor.x, y: anchor.y };
    const placement = windowPlacementOf({
      trayBounds: anchor,
      workArea: screen.getDisplayNearestPoint(point).workArea,
      size: WINDOW_SIZE,
    });
    if (!window.isVisible()) {
      window.setBounds({ x: placement.x, y: placement.y, width: placement.width, height: placement.height });
    }
    const route = typeof view === 'string' ? { view } : (view ?? null);
    const steps = windowShowOf({
      appUrl: APP_URL,
      currentUrl: window.webContents.getURL(),
      route,
      minimized: window.isMinimized(),
    });
    if (steps.load !== null) void window.loadURL(steps.load);
    if (steps.restore) window.restore();
    window.show();
    window.focus();
  };
  return { window, show, allowClose: () => (quitting = true) };
}
