// What the window is told about a pair: speed and time left, the hold's list and choices, conflicts as issues.
import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../../common/sync-status.ts';
import { conflictedCopyName, originalOfConflictedCopy } from '../../../../app/sync/plan/conflict-names.ts';
import { pairView, TransferRate } from '../../../../app/ui/pairs/pair-views.ts';

function status(overrides: Partial<SyncStatus> = {}): SyncStatus {
  return {
    state: 'idle',
    detail: null,
    localRoot: '/home/a/Docs',
    remoteFolder: '/Docs',
    progress: null,
    lastSyncAtMs: 1,
    activity: [],
    issues: [],
    pid: 1,
    ...overrides,
  };
}

describe('pairView', () => {
  it('gives speed and time left from the progress seen over the last seconds', () => {
    const rate = new TransferRate();
    rate.sample(0, 0);
    rate.sample(1000, 2_000_000);
    rate.sample(2000, 4_000_000);
    const progress = {
      itemsDone: 1,
      itemsTotal: 4,
      bytesDone: 4_000_000,
      bytesTotal: 10_000_000,
      transfers: [],
    };
    const view = pairView({
      id: 'p',
      status: status({ state: 'syncing', progress }),
      hold: null,
      itemsSynced: 3,
      rate,
    });
    expect(view.progress?.bytesPerSecond).toBe(2_000_000);
    expect(view.progress?.secondsLeft).toBe(3);
  });

  it('knows no speed before half a second of samples, and starts over when a new pass does', () => {
    const rate = new TransferRate();
    rate.sample(0, 0);
    rate.sample(100, 5000);
    expect(rate.bytesPerSecond()).toBeNull();
    rate.sample(1000, 10_000);
    rate.sample(1100, 0);
    expect(rate.bytesPerSecond()).toBeNull();
  });

  it('lists what a held pass would delete, with the choices that apply', () => {
    const hold = {
      reason: 'emptied-root' as const,
      deletes: { local: 0, localTotal: 0, remote: 2, remoteTotal: 2 },
      what: 'The folder is empty…',
      advice: 'The folder is empty… run again with --restore',
      paths: { local: [], remote: ['d', 'd/a.txt'] },
    };
    const view = pairView({
      id: 'p',
      status: status({ state: 'held' }),
      hold,
      itemsSynced: 2,
      rate: new TransferRate(),
    });
    expect(view.hold).toEqual({
      reason: 'emptied-root',
      title: 'Folder emptied',
      // The window's words name its buttons, never the command line's flags.
      advice:
        'The folder is empty… If you deleted them on purpose, choose "Delete them on the device too" and ' +
        'they are deleted on the device too. To bring them back from the device, choose "Restore them here".',
      localDeletes: 0,
      remoteDeletes: 2,
      paths: ['d', 'd/a.txt'],
      canConfirm: true,
      canRestore: true,
      confirmLabel: 'Delete them on the device too',
      restoreLabel: 'Restore them here',
      confirmQuestion: 'Delete 2 items on the device and on every computer that syncs it?',
    });
  });
});

describe('conflicts', () => {
  it('reads back the name a conflicted copy was made from', () => {
    const copy = conflictedCopyName(
      'report.final.txt',
      new Date(Date.UTC(2026, 10, 25, 10, 15, 0)),
      () => false,
    );
    expect(originalOfConflictedCopy(copy)).toBe('report.final.txt');
    expect(originalOfConflictedCopy('notes (conflicted copy 2026-11-25 101500 2)')).toBe('notes');
    expect(originalOfConflictedCopy('plain.txt')).toBeUndefined();
  });
});
