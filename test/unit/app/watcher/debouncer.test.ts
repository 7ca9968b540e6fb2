// The trailing debounce with a maximum wait, on a hand-driven clock.
import { describe as group, expect, it } from 'vitest';
import { Debouncer } from '../../../../app/watcher/debouncer.ts';
import { ManualClock } from './manual-clock.ts';

function setup(): { clock: ManualClock; debouncer: Debouncer; fired: number[] } {
  const clock = new ManualClock();
  const fired: number[] = [];
  const debouncer = new Debouncer({
    quietMs: 300,
    maxWaitMs: 2000,
    clock,
    onFire: () => fired.push(clock.now()),
  });
  return { clock, debouncer, fired };
}

group('Debouncer', () => {
  it('fires once, 300 ms after a single trigger', () => {
    const { clock, debouncer, fired } = setup();
    debouncer.trigger();
    clock.advance(299);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual([300]);
    clock.advance(5000);
    expect(fired).toEqual([300]);
  });

  it('waits for 300 ms of quiet after the last trigger', () => {
    const { clock, debouncer, fired } = setup();
    debouncer.trigger();
    clock.advance(200);
    debouncer.trigger();
    clock.advance(200);
    debouncer.trigger();
    clock.advance(299);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual([700]);
  });

  it('fires at the maximum wait during a storm that never goes quiet', () => {
    const { clock, debouncer, fired } = setup();
    for (let time = 0; time < 5000; time += 100) {
      debouncer.trigger();
      clock.advance(100);
    }
    expect(fired).toEqual([2000, 4000]);
  });

  it('a trigger after firing starts a new round', () => {
    const { clock, debouncer, fired } = setup();
    debouncer.trigger();
    clock.advance(300);
    clock.advance(1000);
    debouncer.trigger();
    clock.advance(300);
    expect(fired).toEqual([300, 1600]);
  });

  it('flush fires at once, cancel drops the round, and neither leaves a timer', () => {
    const { clock, debouncer, fired } = setup();
    debouncer.trigger();
    debouncer.flush();
    expect(fired).toEqual([0]);
    debouncer.trigger();
    debouncer.cancel();
    expect(debouncer.armed).toBe(false);
    clock.advance(5000);
    expect(fired).toEqual([0]);
    expect(clock.pendingTimers).toBe(0);
    debouncer.flush();
    expect(fired).toEqual([0]);
  });
});

group('Debouncer with a settled quiet time', () => {
  function adaptive(): {
    clock: ManualClock;
    debouncer: Debouncer;
    fired: number[];
    settled: { now: boolean };
  } {
    const clock = new ManualClock();
    const fired: number[] = [];
    const settled = { now: false };
    const debouncer = new Debouncer({
      quietMs: 300,
      maxWaitMs: 2000,
      settledQuietMs: 50,
      isSettled: () => settled.now,
      clock,
      onFire: () => fired.push(clock.now()),
    });
    return { clock, debouncer, fired, settled };
  }

  it('a settled trigger fires after the short quiet time, even after an unsettled one', () => {
    const { clock, debouncer, fired, settled } = adaptive();
    debouncer.trigger();
    clock.advance(10);
    settled.now = true;
    debouncer.trigger();
    clock.advance(49);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual([60]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('an unsettled trigger after a settled one waits the long quiet time again', () => {
    const { clock, debouncer, fired, settled } = adaptive();
    settled.now = true;
    debouncer.trigger();
    clock.advance(40);
    settled.now = false;
    debouncer.trigger();
    clock.advance(299);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual([340]);
  });

  it('the maximum wait still caps a storm, and a round after firing is asked again', () => {
    const { clock, debouncer, fired, settled } = adaptive();
    for (let time = 0; time < 2500; time += 100) {
      debouncer.trigger();
      clock.advance(100);
    }
    // The triggers after 2000 ms are a second round, which goes quiet at 2400 ms.
    clock.advance(1000);
    expect(fired).toEqual([2000, 2700]);
    settled.now = true;
    debouncer.trigger();
    clock.advance(50);
    expect(fired).toEqual([2000, 2700, 3550]);
  });

  it('is not asked when the settled quiet time is not shorter', () => {
    const clock = new ManualClock();
    let asked = 0;
    const fired: number[] = [];
    const debouncer = new Debouncer({
      quietMs: 20,
      maxWaitMs: 2000,
      settledQuietMs: 50,
      isSettled: () => {
        asked += 1;
        return true;
      },
      clock,
      onFire: () => fired.push(clock.now()),
    });
    debouncer.trigger();
    clock.advance(20);
    expect(fired).toEqual([20]);
    expect(asked).toBe(0);
  });
});
