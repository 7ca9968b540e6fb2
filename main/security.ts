// desktop-app.md §6 for every web contents and the session: no navigation away from the app page, no new windows (web links go to the browser), no webviews, every permission denied, no remote content.
import type { Session, WebContents } from 'electron';
import { isTrustedRendererUrl } from '../app/desktop/ipc-trust.ts';
import { shellTargetOf } from '../app/desktop/shell-target.ts';
import type { MainLog } from './ipc.ts';

export interface HardenOptions {
  appOrigin: string;
  /** Opens an http(s) link in the system browser. */
  openInBrowser: (url: string) => void;
  log: MainLog;
}

/** Web links the page tries to follow open in the browser; everything else is dropped. */
function sendAway(url: string, options: HardenOptions): void {
  const target = shellTargetOf(url);
  if (target.kind === 'url') options.openInBrowser(target.url);
  else options.log('warn', `refused to open ${JSON.stringify(url.slice(0, 200))}`);
}

export function hardenWebContents(contents: WebContents, options: HardenOptions): void {
  const stay = (event: { preventDefault(): void }, url: string): void => {
    if (isTrustedRendererUrl(url, options.appOrigin)) return;
    event.preventDefault();
    sendAway(url, options);
  };
  contents.on('will-navigate', (event) => stay(event, event.url));
  contents.on('will-frame-navigate', (event) => {
    // Sub-frames: the CSP already allows none; the main frame is handled by will-navigate.
    if (!event.isMainFrame) event.preventDefault();
  });
  contents.on('will-redirect', (event) => stay(event, event.url));
  contents.setWindowOpenHandler(({ url }) => {
    sendAway(url, options);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The window's session: no permission is ever granted, and nothing is fetched from the network. */
export function hardenSession(session: Session, options: Pick<HardenOptions, 'log'>): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    options.log('warn', `denied the permission ${permission}`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onBeforeRequest(
    { urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*', 'ftp://*/*'] },
    (details, callback) => {
      options.log('warn', `blocked remote content ${JSON.stringify(details.url.slice(0, 200))}`);
      callback({ cancel: true });
    },
  );
}
