// The mount's status: downloads on opening listed while they run, progress told at most every 250 ms, a failed open shown for five minutes.
import { describe, expect, it } from 'vitest';
import { FAILURE_SHOWN_MS, MountStatusTracker } from '../../../../app/on-demand/mount-status.ts';
import type { HydrateRequest } from '../../../../app/mount/hydration-protocol.ts';

function request(path: string, req = 1): HydrateRequest {
  return { type: 'hydrate', req, path, pid: 42, process: 'gimp' };
}

describe('MountStatusTracker', () => {
  it('lists a download on opening from its start to its end, with its progress', () => {
    let now = 1_000;
    let changes = 0;
    const tracker = new MountStatusTracker({ onChange: () => (changes += 1), now: () => now });
    tracker.mounted = true;
    tracker.note(request('a.jpg'), { type: 'started', size: 1000 });
    expect(tracker.status()).toEqual({
      mounted: true,
      opening: [{ path: 'a.jpg', process: 'gimp', bytesDone: 0, bytesTotal: 1000 }],
      lastFailure: null,
    });
    const before = changes;
    now += 10;
    tracker.note(request('a.jpg'), { type: 'progress', bytes: 100 });
    // Counted, but not told: too soon after the last.
    expect(changes).toBe(before);
    expect(tracker.status().opening[0]?.bytesDone).toBe(100);
    now += 300;
    tracker.note(request('a.jpg'), { type: 'progress', bytes: 500 });
    expect(changes).toBe(before + 1);
    tracker.note(request('a.jpg'), { type: 'done' });
    expect(tracker.status().opening).toEqual([]);
  });

  it('shows a failed open for five minutes', () => {
    let now = 1_000;
    const tracker = new MountStatusTracker({ onChange: () => {}, now: () => now });
    tracker.note(request('b.pdf'), { type: 'started', size: 10 });
    tracker.note(request('b.pdf'), {
      type: 'failed',
      errno: 'ENETUNREACH',
      message: 'The device cannot be reached.',
    });
    expect(tracker.status().lastFailure).toEqual({
      path: 'b.pdf',
      message: 'The device cannot be reached.',
      atMs: 1_000,
    });
    expect(tracker.status().opening).toEqual([]);
    now += FAILURE_SHOWN_MS;
    expect(tracker.status().lastFailure).toBeNull();
  });

  it('tells a change of the mount once', () => {
    let changes = 0;
    const tracker = new MountStatusTracker({ onChange: () => (changes += 1) });
    tracker.mounted = true;
    tracker.mounted = true;
    tracker.mounted = false;
    expect(changes).toBe(2);
  });
});
