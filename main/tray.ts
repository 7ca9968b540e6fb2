// The system tray: D1's TrayModel (throttled by TrayUpdater) mapped onto Electron's Tray, Menu and images; its actions handed back to the caller.
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import type { TrayAction, TrayMenuItem } from '../app/desktop/tray-model.ts';
import type { TrayChange } from '../app/desktop/tray-throttle.ts';

export interface TrayOptions {
  platform: NodeJS.Platform;
  /** The file of an icon stem (trayIconFile). */
  iconFile: (stem: string) => string;
  firstIcon: string;
  onAction: (action: TrayAction) => void;
}

/** Labels are plain text; Windows and Linux read `&` as a mnemonic marker. */
function plain(label: string, platform: NodeJS.Platform): string {
  return platform === 'darwin' ? label : label.replace(/&/g, '&&');
}

export function menuTemplateOf(
  items: readonly TrayMenuItem[],
  options: Pick<TrayOptions, 'platform' | 'onAction'>,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.kind === 'separator') return { id: item.id, type: 'separator' };
    const entry: MenuItemConstructorOptions = {
      id: item.id,
      label: plain(item.label, options.platform),
      enabled: item.kind === 'action' && item.enabled,
    };
    if (item.submenu !== undefined) entry.submenu = menuTemplateOf(item.submenu, options);
    const action = item.action;
    if (action !== undefined) entry.click = () => options.onAction(action);
    return entry;
  });
}

export class AppTray {
  readonly tray: Tray;
  readonly #options: TrayOptions;
  readonly #images = new Map<string, NativeImage>();
  /** What was applied last (Electron's Tray cannot be asked), for the end-to-end test. */
  readonly shown: { icon: string; tooltip: string; menu: string[] };

  constructor(options: TrayOptions) {
    this.#options = options;
    this.tray = new Tray(this.#image(options.firstIcon));
    this.shown = { icon: options.firstIcon, tooltip: '', menu: [] };
    // Windows and macOS open the window on a click; Linux sends no clicks once a menu is set.
    this.tray.on('click', () => options.onAction({ type: 'open-window' }));
  }

  /** What TrayUpdater decided to change. */
  apply(change: TrayChange): void {
    if (change.icon !== undefined) {
      this.tray.setImage(this.#image(change.icon));
      this.shown.icon = change.icon;
    }
    if (change.tooltip !== undefined) {
      this.tray.setToolTip(change.tooltip);
      this.shown.tooltip = change.tooltip;
    }
    if (change.menu !== undefined) {
      this.shown.menu = change.menu.map((item) => item.label);
      this.tray.setContextMenu(Menu.buildFromTemplate(menuTemplateOf(change.menu, this.#options)));
    }
  }

  destroy(): void {
    this.tray.destroy();
  }

  #image(stem: string): NativeImage {
    let image = this.#images.get(stem);
    if (image === undefined) {
      image = nativeImage.createFromPath(this.#options.iconFile(stem));
      // The name ends in Template already; saying so again keeps it when the file name changes.
      if (this.#options.platform === 'darwin') image.setTemplateImage(true);
      this.#images.set(stem, image);
    }
    return image;
  }
}
