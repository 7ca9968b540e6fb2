// Pauses: by the user until a time (ended by the wall clock, even across a sleep), or by a metered network; and `--for` durations.
import { describe, expect, it } from 'vitest';
import {
  meteredPause,
  pauseDeadline,
  pauseDetail,
  PauseState,
  untilWords,
} from '../../../../app/live-service/pause-state.ts';
import { NetworkMonitor } from '../../../../app/network/network-monitor.ts';
import type { SyncPause } from '../../../../common/sync-status.ts';
import type { Clock, TimerHandle } from '../../../../app/system/clock.ts';

/** A clock moved by hand; `sleep` moves the wall clock alone, as a suspended machine sees it. */
function manualClock(startWall: number): Clock & { advance(ms: number): void; sleep(ms: number): void } {
  let now = 0;
  let wall = startWall;
  let timers: Array<{ at: number; run: () => void; id: number }> = [];
  let nextId = 1;
  const clock = {
    now: () => now,
    wallNow: () => wall,
    setTimeout: (run: () => void, delayMs: number) => {
      const id = nextId++;
      timers.push({ at: now + delayMs, run, id });
      return id;
    },
    clearTimeout: (handle: TimerHandle) => {
      timers = timers.filter((timer) => timer.id !== handle);
    },
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        wall += due.at - now;
        now = due.at;
        timers = timers.filter((t) => t !== due);
        due.run();
      }
      wall += end - now;
      now = end;
    },
    sleep(ms: number) {
      wall += ms;
    },
  };
  return clock;
}

function recorder(): { events: string[]; paused(p: SyncPause, first: boolean): void; resumed(): void } {
  const events: string[] = [];
  return {
    events,
    paused: (pause, first) =>
      events.push(`paused ${pause.by} ${pause.untilMs ?? 'open'}${first ? ' first' : ''}`),
    resumed: () => events.push('resumed'),
  };
}

const NOON = new Date(2026, 10, 28, 12, 0).getTime();

describe('PauseState', () => {
  it('ends a timed pause by itself at its time, and not before', () => {
    const clock = manualClock(NOON);
    const events = recorder();
    const pauses = new PauseState(clock, events);
    pauses.pauseByUser(NOON + 2 * 3_600_000);
    expect(events.events).toEqual([`paused user ${NOON + 7_200_000} first`]);
    clock.advance(7_200_000 - 1);
    expect(pauses.paused).toBe(true);
    clock.advance(1);
    expect(pauses.paused).toBe(false);
    expect(events.events.at(-1)).toBe('resumed');
  });

  it('ends it within a minute of waking when the machine slept past the time', () => {
    const clock = manualClock(NOON);
    const pauses = new PauseState(clock, recorder());
    pauses.pauseByUser(NOON + 3_600_000);
    clock.sleep(4 * 3_600_000);
    clock.advance(60_000);
    expect(pauses.paused).toBe(false);
  });

  it('keeps a metered pause after the user resumes, and ends it when the network is not metered', () => {
    const clock = manualClock(NOON);
    const events = recorder();
    const pauses = new PauseState(clock, events);
    pauses.setMetered(true);
    pauses.pauseByUser(null);
    pauses.endUserPause();
    expect(pauses.pause).toEqual({ by: 'metered', untilMs: null });
    pauses.setMetered(false);
    expect(events.events).toEqual([
      'paused metered open first',
      'paused user open',
      'paused metered open',
      'resumed',
    ]);
  });
});

describe('pause durations', () => {
  it('reads seconds, minutes, hours and days from now', () => {
    expect(pauseDeadline('2s', NOON)).toBe(NOON + 2_000);
    expect(pauseDeadline('30m', NOON)).toBe(NOON + 1_800_000);
    expect(pauseDeadline(' 1H ', NOON)).toBe(NOON + 3_600_000);
    expect(pauseDeadline('2d', NOON)).toBe(NOON + 2 * 86_400_000);
  });

  it('takes "tomorrow" as 08:00 the next morning (this morning before 08:00)', () => {
    expect(pauseDeadline('tomorrow', NOON)).toBe(new Date(2026, 10, 29, 8, 0).getTime());
    expect(pauseDeadline('tomorrow', new Date(2026, 10, 28, 23, 30).getTime())).toBe(
      new Date(2026, 10, 29, 8).getTime(),
    );
    expect(pauseDeadline('tomorrow', new Date(2026, 10, 29, 2, 0).getTime())).toBe(
      new Date(2026, 10, 29, 8).getTime(),
    );
  });

  it('refuses anything else, zero and more than 30 days', () => {
    for (const bad of ['soon', '', '1', 'h', '1h30m', '-1h', '0s', '31d', '1.5h', '1 hour']) {
      expect(pauseDeadline(bad, NOON), bad).toBeUndefined();
    }
    expect(pauseDeadline('30d', NOON)).toBe(NOON + 30 * 86_400_000);
  });

  it('words the end as the status shows it', () => {
    expect(untilWords(NOON + 2.5 * 3_600_000, NOON)).toBe('14:30');
    expect(untilWords(new Date(2026, 10, 29, 8).getTime(), NOON)).toBe('tomorrow 08:00');
    expect(pauseDetail({ by: 'user', untilMs: NOON + 2.5 * 3_600_000 }, NOON, '/f')).toMatch(
      /^Paused until 14:30: /,
    );
    expect(pauseDetail({ by: 'metered', untilMs: null }, NOON, '/f')).toContain(
      'mch-sync metered --folder /f sync',
    );
  });
});

describe('the metered gate where metered networks cannot be seen', () => {
  it('says so once, in the log, and never pauses the pair', async () => {
    const network = new NetworkMonitor({ platform: 'darwin', env: {} });
    await network.start();
    const lines: Array<{ level: string; message: string }> = [];
    const told: boolean[] = [];
    const gate = meteredPause(network, 'pause', { setMetered: (metered) => told.push(metered) }, (line) =>
      lines.push(line),
    );
    expect(lines).toEqual([
      {
        level: 'warn',
        message:
          'metered networks are not detected on this system (interface addresses (NetworkManager not found)): sync does not pause on one',
      },
    ]);
    expect(told).toEqual([false]);
    expect(gate.choice()).toBe('pause');
    gate.choose(true);
    expect(gate.choice()).toBe('sync');
    expect(told).toEqual([false, false]);
    gate.stop();
    network.stop();
  });
});
