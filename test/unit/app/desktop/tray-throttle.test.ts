// TrayUpdater: the first change at once, then at most one apply a second with the latest model, only what changed, nothing when idle.
import { describe, expect, it } from 'vitest';
import { TrayUpdater, type TrayChange } from '../../../../app/desktop/tray-throttle.ts';
import type { TrayMenuItem, TrayModel } from '../../../../app/desktop/tray-model.ts';
import { ManualClock } from '../watcher/manual-clock.ts';

const quit: TrayMenuItem = {
  id: 'quit',
  label: 'Quit',
  enabled: true,
  kind: 'action',
  action: { type: 'quit' },
};

function model(icon: string, tooltip: string, status = tooltip): TrayModel {
  return {
    state: 'syncing',
    icon,
    tooltip,
    menu: [{ id: 'status', label: status, enabled: false, kind: 'status' }, quit],
  };
}

function setup(minIntervalMs?: number): { clock: ManualClock; applied: TrayChange[]; updater: TrayUpdater } {
  const clock = new ManualClock();
  const applied: TrayChange[] = [];
  const updater = new TrayUpdater({
    clock,
    apply: (change) => applied.push(change),
    ...(minIntervalMs === undefined ? {} : { minIntervalMs }),
  });
  return { clock, applied, updater };
}

describe('TrayUpdater', () => {
  it('applies the first model at once, whole', () => {
    const { applied, updater, clock } = setup();
    const first = model('tray-up-to-date', 'Up to date');
    updater.update(first);
    expect(applied).toEqual([{ icon: 'tray-up-to-date', tooltip: 'Up to date', menu: first.menu }]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('a burst within a second is one trailing apply with the latest model, at the end of the second', () => {
    const { applied, updater, clock } = setup();
    updater.update(model('tray-syncing', 'Syncing 0 of 100 files'));
    for (let done = 1; done <= 50; done++) {
      clock.advance(10);
      updater.update(model('tray-syncing', `Syncing ${done} of 100 files`));
    }
    expect(applied).toHaveLength(1);
    clock.advance(499);
    expect(applied).toHaveLength(1);
    clock.advance(1);
    expect(applied).toHaveLength(2);
    // The icon did not change, so only the tooltip and the menu (its status line) are applied.
    expect(applied[1]).toEqual({
      tooltip: 'Syncing 50 of 100 files',
      menu: model('tray-syncing', 'Syncing 50 of 100 files').menu,
    });
  });

  it('never applies twice within the interval over a long stream of events', () => {
    const { applied, updater, clock } = setup();
    const appliedAt: number[] = [];
    const timed = new TrayUpdater({ clock, apply: () => appliedAt.push(clock.now()) });
    for (let event = 0; event < 2000; event++) {
      timed.update(model('tray-syncing', `Syncing ${event} of 2000 files`));
      updater.update(model('tray-syncing', `Syncing ${event} of 2000 files`));
      clock.advance(7);
    }
    clock.advance(1000);
    // 14 s of events at one per 7 ms: one apply a second (15, with the first at 0 and the last trailing).
    expect(appliedAt.length).toBe(15);
    for (let index = 1; index < appliedAt.length; index++) {
      expect((appliedAt[index] ?? 0) - (appliedAt[index - 1] ?? 0)).toBeGreaterThanOrEqual(1000);
    }
    expect(applied.at(-1)?.tooltip).toBe('Syncing 1999 of 2000 files');
  });

  it('applies nothing and sets no timer when the model did not change', () => {
    const { applied, updater, clock } = setup();
    updater.update(model('tray-up-to-date', 'Up to date'));
    clock.advance(5000);
    for (let index = 0; index < 100; index++) {
      updater.update(model('tray-up-to-date', 'Up to date'));
      expect(clock.pendingTimers).toBe(0);
    }
    // Within the interval too: an unchanged model does not arm the trailing timer.
    updater.update(model('tray-up-to-date', 'Up to date'));
    expect(clock.pendingTimers).toBe(0);
    expect(applied).toHaveLength(1);
  });

  it('a change back to what is shown before the second ends applies nothing', () => {
    const { applied, updater, clock } = setup();
    updater.update(model('tray-up-to-date', 'Up to date'));
    clock.advance(100);
    updater.update(model('tray-syncing', 'Syncing'));
    clock.advance(100);
    updater.update(model('tray-up-to-date', 'Up to date'));
    clock.advance(1000);
    expect(applied).toHaveLength(1);
    expect(clock.pendingTimers).toBe(0);
  });

  it('after a quiet second a change is applied at once (the leading edge)', () => {
    const { applied, updater, clock } = setup();
    updater.update(model('tray-syncing', 'Syncing'));
    clock.advance(3000);
    updater.update(model('tray-up-to-date', 'Up to date'));
    expect(applied).toHaveLength(2);
    expect(applied[1]).toMatchObject({ icon: 'tray-up-to-date', tooltip: 'Up to date' });
  });

  it('applies only the icon when only the icon changed', () => {
    const { applied, updater, clock } = setup();
    updater.update(model('tray-syncing', 'Same words'));
    clock.advance(1000);
    updater.update(model('tray-attention', 'Same words'));
    expect(applied[1]).toEqual({ icon: 'tray-attention' });
  });

  it('applies a menu that changed alone, within the same limit', () => {
    const { applied, updater, clock } = setup();
    updater.update(model('tray-syncing', 'Syncing', 'one'));
    clock.advance(200);
    updater.update(model('tray-syncing', 'Syncing', 'two'));
    expect(applied).toHaveLength(1);
    clock.advance(800);
    expect(applied[1]).toEqual({ menu: model('tray-syncing', 'Syncing', 'two').menu });
  });

  it('close drops a pending change and ignores later updates', () => {
    const { applied, updater, clock } = setup();
    updater.update(model('tray-syncing', 'Syncing 1'));
    clock.advance(10);
    updater.update(model('tray-syncing', 'Syncing 2'));
    expect(clock.pendingTimers).toBe(1);
    updater.close();
    expect(clock.pendingTimers).toBe(0);
    clock.advance(5000);
    updater.update(model('tray-paused', 'Paused'));
    expect(applied).toHaveLength(1);
  });

  it('takes another interval', () => {
    const { applied, updater, clock } = setup(5000);
    updater.update(model('tray-syncing', 'a'));
    clock.advance(1000);
    updater.update(model('tray-syncing', 'b'));
    clock.advance(3999);
    expect(applied).toHaveLength(1);
    clock.advance(1);
    expect(applied).toHaveLength(2);
  });
});

/** Runs every timer longer than 1 ms a millisecond early, as Node's timers may against performance.now(). */
class EarlyClock extends ManualClock {
  override setTimeout(callback: () => void, delayMs: number): ReturnType<ManualClock['setTimeout']> {
    return super.setTimeout(callback, delayMs > 1 ? delayMs - 1 : delayMs);
  }
}

describe('TrayUpdater on a clock whose timers fire early', () => {
  it('waits out the rest: two applies are never less than the interval apart', () => {
    const clock = new EarlyClock();
    const appliedAt: number[] = [];
    const updater = new TrayUpdater({ clock, apply: () => appliedAt.push(clock.now()) });
    for (let event = 0; event < 400; event++) {
      updater.update(model('tray-syncing', `Syncing ${event}`));
      clock.advance(25);
    }
    clock.advance(2000);
    expect(appliedAt.length).toBe(11);
    for (let index = 1; index < appliedAt.length; index++) {
      expect((appliedAt[index] ?? 0) - (appliedAt[index - 1] ?? 0)).toBeGreaterThanOrEqual(1000);
    }
  });
});
