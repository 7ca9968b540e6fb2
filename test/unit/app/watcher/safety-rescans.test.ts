// The hourly safety rescan and the rescan after the machine wakes, on a hand-driven clock.
import { describe as group, expect, it } from 'vitest';
import { startSafetyRescans } from '../../../../app/watcher/safety-rescans.ts';
import { ManualClock } from './manual-clock.ts';

function setup() {
  const clock = new ManualClock();
  const reasons: string[] = [];
  const safety = startSafetyRescans({
    onRescan: (reason) => reasons.push(`${reason}@${clock.now()}`),
    everyMs: 3_600_000,
    tickMs: 15_000,
    lateMs: 60_000,
    clock,
  });
  return { clock, reasons, safety };
}

group('safety rescans', () => {
  it('asks for a rescan every hour', () => {
    const { clock, reasons, safety } = setup();
    clock.advance(3 * 3_600_000);
    expect(reasons).toEqual(['hourly@3600000', 'hourly@7200000', 'hourly@10800000']);
    safety.stop();
  });

  it('a full rescan made for another reason restarts the hour', () => {
    const { clock, reasons, safety } = setup();
    clock.advance(1_800_000);
    safety.noteFullRescan();
    clock.advance(3_000_000);
    expect(reasons).toEqual([]);
    clock.advance(600_000);
    expect(reasons).toEqual(['hourly@5400000']);
    safety.stop();
  });

  it('asks for a rescan when the wall clock jumped between two ticks (the machine slept)', () => {
    const { clock, reasons, safety } = setup();
    clock.advance(30_000);
    clock.sleep(8 * 3_600_000);
    clock.advance(15_000);
    expect(reasons).toEqual(['wake@45000']);
    clock.advance(15_000);
    expect(reasons).toEqual(['wake@45000']);
    safety.stop();
  });

  it('a small wall-clock drift is no wake', () => {
    const { clock, reasons, safety } = setup();
    clock.advance(15_000);
    clock.sleep(30_000);
    clock.advance(15_000);
    expect(reasons).toEqual([]);
    safety.stop();
  });

  it('stop cancels the timer', () => {
    const { clock, reasons, safety } = setup();
    safety.stop();
    expect(clock.pendingTimers).toBe(0);
    clock.advance(10 * 3_600_000);
    expect(reasons).toEqual([]);
  });
});
