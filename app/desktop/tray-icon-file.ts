// Which file holds a tray icon: the folder (build/icons/tray in development, resources/icons/tray when packed) and the platform's format.
import { join } from 'node:path';

export interface TrayIconInputs {
  /** The stem of TrayModel.icon, such as `tray-syncing`. */
  stem: string;
  platform: NodeJS.Platform;
  /** Electron's `app.isPackaged`. */
  isPackaged: boolean;
  /** `process.resourcesPath` when packed (electron-builder's extraResources put `icons/tray` there). */
  resourcesPath: string;
  /** The app's folder in development (`app.getAppPath()`), holding `build/`. */
  appPath: string;
}

/** The folder of the tray icons for this run. */
export function trayIconDir(inputs: Omit<TrayIconInputs, 'stem' | 'platform'>): string {
  return inputs.isPackaged
    ? join(inputs.resourcesPath, 'icons', 'tray')
    : join(inputs.appPath, 'build', 'icons', 'tray');
}

/**
 * macOS: the `Template` image (black and clear, which the menu bar tints for light and dark; Electron
 * reads a name ending in `Template` as a template and finds `@2x` beside it). Windows: the `.ico`,
 * which holds every size the notification area asks for. Linux: the PNG (`@2x` found beside it too).
 */
export function trayIconFile(inputs: TrayIconInputs): string {
  if (!/^[a-z0-9-]+$/.test(inputs.stem)) throw new Error(`not an icon stem: ${JSON.stringify(inputs.stem)}`);
  const dir = trayIconDir(inputs);
  if (inputs.platform === 'darwin') return join(dir, `${inputs.stem}Template.png`);
  if (inputs.platform === 'win32') return join(dir, `${inputs.stem}.ico`);
  return join(dir, `${inputs.stem}.png`);
}
