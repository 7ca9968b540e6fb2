// Notification grouping: the first at once, a burst as one with its count, kinds and pairs apart.
import { describe, expect, it } from 'vitest';
import type { NotificationView } from '../../../../common/contract.ts';
import type { Clock, TimerHandle } from '../../../../app/system/clock.ts';
import { NotificationGrouper, type NotificationInput } from '../../../../app/ui/notification-grouper.ts';

/** A clock moved by hand; timers fire when it passes them. */
class ManualClock implements Clock {
  #now = 0;
  #timers = new Map<number, { at: number; callback: () => void }>();
  #next = 1;
  now(): number {
    return this.#now;
  }
  wallNow(): number {
    return this.#now;
  }
  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + delayMs, callback });
    return id;
  }
  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle as number);
  }
  advance(ms: number): void {
    this.#now += ms;
    for (const [id, timer] of [...this.#timers]) {
      if (timer.at <= this.#now) {
        this.#timers.delete(id);
        timer.callback();
      }
    }
  }
}

const conflict = (pairId: string, path: string): NotificationInput => ({
  kind: 'conflict',
  title: 'Conflict',
  body: `${path} was changed here and on the device; both are kept.`,
  view: 'issues',
  pairId,
});

function setUp(): { clock: ManualClock; shown: NotificationView[]; grouper: NotificationGrouper } {
  const clock = new ManualClock();
  const shown: NotificationView[] = [];
  const grouper = new NotificationGrouper({
    clock,
    quietMs: 10_000,
    emit: (n) => shown.push(n),
    summarize: (last, count) => ({ ...last, title: `${count} conflicts`, body: 'Both versions are kept.' }),
  });
  return { clock, shown, grouper };
}

describe('NotificationGrouper', () => {
  it('shows the first at once and a burst of 200 after it as one, with its count', () => {
    const { clock, shown, grouper } = setUp();
    grouper.add(conflict('p1', 'a.txt'));
    expect(shown.map((n) => [n.title, n.count])).toEqual([['Conflict', 1]]);
    for (let i = 0; i < 200; i += 1) grouper.add(conflict('p1', `f${i}.txt`));
    expect(shown).toHaveLength(1);
    clock.advance(9_999);
    expect(shown).toHaveLength(1);
    clock.advance(1);
    expect(shown.map((n) => [n.title, n.count, n.view])).toEqual([
      ['Conflict', 1, 'issues'],
      ['200 conflicts', 200, 'issues'],
    ]);
    expect(new Set(shown.map((n) => n.id)).size).toBe(2);
  });

  it('keeps kinds and pairs apart, and shows one again at once after a quiet time', () => {
    const { clock, shown, grouper } = setUp();
    grouper.add(conflict('p1', 'a'));
    grouper.add(conflict('p2', 'b'));
    grouper.add({ kind: 'link-copied', title: 'Link copied', body: 'x', view: 'shares', pairId: null });
    expect(shown).toHaveLength(3);
    clock.advance(10_000);
    grouper.add(conflict('p1', 'c'));
    expect(shown.map((n) => n.count)).toEqual([1, 1, 1, 1]);
  });

  it('drops what waits when closed', () => {
    const { clock, shown, grouper } = setUp();
    grouper.add(conflict('p1', 'a'));
    grouper.add(conflict('p1', 'b'));
    grouper.close();
    clock.advance(60_000);
    expect(shown).toHaveLength(1);
  });
});
