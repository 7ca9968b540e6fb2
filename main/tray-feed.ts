// Feeds the tray from the core's events: the latest account, pairs and recent files become a TrayModel, applied through the once-a-second TrayUpdater.
import type { AccountView, ActivityView, PairView } from '../common/contract.ts';
import { trayModelOf } from '../app/desktop/tray-model.ts';
import { TrayUpdater, type TrayChange } from '../app/desktop/tray-throttle.ts';
import { systemClock } from '../app/system/clock.ts';
import type { UiCore } from '../app/ui/ui-core.ts';

/**
 * Enough recent entries for the menu's five files after duplicates of one path are dropped, and for
 * the tooltip to tell conflicts from other issues (it counts the `conflict` entries among them): a
 * burst of conflicts is a few hundred at most before the window is looked at.
 */
const RECENT_KEPT = 500;

/** Starts feeding `apply`; returns the function that stops. */
export async function feedTray(core: UiCore, apply: (change: TrayChange) => void): Promise<() => void> {
  const updater = new TrayUpdater({ clock: systemClock, apply });
  let account = (await core.handlers['account:get']({})) as AccountView;
  let pairs: PairView[] = core.pairViews();
  let recent: ActivityView[] = [];
  try {
    recent = ((await core.handlers['activity:list']({ pairId: null })) as ActivityView[]).slice(
      0,
      RECENT_KEPT,
    );
  } catch {
    // Signed out: no activity yet.
  }
  const update = (): void => updater.update(trayModelOf({ account, pairs, recent }));
  const stop = core.onEvent((name, payload) => {
    if (name === 'account:changed') account = payload as AccountView;
    else if (name === 'pairs:changed') pairs = payload as PairView[];
    else if (name === 'activity:added')
      recent = [...(payload as ActivityView[]), ...recent].slice(0, RECENT_KEPT);
    else return;
    update();
  });
  update();
  return () => {
    stop();
    updater.close();
  };
}
