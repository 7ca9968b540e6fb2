// What each tray menu action does: open the window (at a view, or at a file's versions) or a folder, show a file, pause, resume or sync every pair, copy a link, quit.
import type { Shell } from 'electron';
import type { PauseLength, ViewName } from '../common/contract.ts';
import type { WindowRoute } from '../common/window-route.ts';
import { assertNever } from '../common/errors.ts';
import type { TrayAction } from '../app/desktop/tray-model.ts';
import { dispatch } from '../app/ui/dispatch.ts';
import type { UiCore } from '../app/ui/ui-core.ts';

export interface TrayActionContext {
  core: UiCore;
  shell: Pick<Shell, 'openPath' | 'showItemInFolder'>;
  show: (view?: ViewName | WindowRoute | null) => void;
  /** The share action, batched as requests from the file manager are. */
  share: (paths: string[]) => void;
  quit: () => void;
}

export function runTrayAction(action: TrayAction, context: TrayActionContext): void {
  const { core } = context;
  const every = (name: 'sync:pause' | 'sync:resume' | 'sync:now', length?: PauseLength): void => {
    void dispatch(core.handlers, name, { pairId: null, ...(length && { for: length }) }).then((result) => {
      if (!result.ok) core.options.log('warn', `${name}: ${result.error.message}`);
    });
  };
  switch (action.type) {
    case 'open-window':
      return context.show(action.view ?? null);
    case 'open-versions':
      return context.show({ view: 'activity', versionsOf: action.path });
    case 'open-folder':
      void context.shell.openPath(action.path).then((failure) => {
        if (failure !== '') core.options.log('warn', `open ${action.path}: ${failure}`);
      });
      return;
    case 'show-item':
      return context.shell.showItemInFolder(action.path);
    case 'pause-all':
      return every('sync:pause', action.for);
    case 'resume-all':
      return every('sync:resume');
    case 'sync-now':
      return every('sync:now');
    case 'copy-link':
      return context.share([action.path]);
    case 'quit':
      return context.quit();
    default:
      return assertNever(action, 'tray action');
  }
}
