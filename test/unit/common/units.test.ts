// Sizes, speeds and durations in words: one convention (powers of 1000), and one transfer read alike by the tray, the window and the command line.
import { describe, expect, it } from 'vitest';
import type { AccountView, PairView } from '../../../common/contract.ts';
import type { SyncStatus } from '../../../common/sync-status.ts';
import { formatBytes, formatDuration, formatSpeed, formatTimeLeft } from '../../../common/units.ts';
import { trayModelOf } from '../../../app/desktop/tray-model.ts';
import { statusLines } from '../../../app/cli/sync-commands/live-display.ts';
import { formatStatus } from '../../../app/cli/sync-commands/status-output.ts';
import { rendererSample } from '../../helpers/renderer-sample.ts';

describe('formatBytes', () => {
  it('counts in powers of 1000, one decimal under 10 units', () => {
    expect([0, 999, 1000, 12_345, 1_500_000, 2e9, 3e15].map(formatBytes)).toEqual([
      '0 B',
      '999 B',
      '1.0 kB',
      '12 kB',
      '1.5 MB',
      '2.0 GB',
      '3000 TB',
    ]);
  });

  it('goes up a unit where rounding would reach 1000, and never prints "10.0"', () => {
    expect([999_499, 999_500, 999_999_999, 9_949, 9_950].map(formatBytes)).toEqual([
      '999 kB',
      '1.0 MB',
      '1.0 GB',
      '9.9 kB',
      '10 kB',
    ]);
  });
});

describe('formatSpeed', () => {
  it('shows a measured speed in whole bytes per second', () => {
    expect([812.4, 5_452_595, 0].map(formatSpeed)).toEqual(['812 B/s', '5.5 MB/s', '0 B/s']);
  });
});

describe('formatDuration', () => {
  it('says seconds under a minute, then whole minutes and hours', () => {
    expect([0.05, 0.5, 15, 59.4, 59.6, 90, 3599, 3600, 4800].map(formatDuration)).toEqual([
      '0.05 s',
      '0.5 s',
      '15 s',
      '59 s',
      '1 min',
      '2 min',
      '1 h',
      '1 h',
      '1 h 20 min',
    ]);
  });
});

describe('formatTimeLeft', () => {
  it('rounds an estimate further: a few seconds, then to 5 s, then as a duration', () => {
    expect([5, 23, 58, 61, 259, 3599, 3600, 4800].map(formatTimeLeft)).toEqual([
      'a few seconds',
      '25 s',
      '1 min',
      '1 min',
      '4 min',
      '1 h',
      '1 h',
      '1 h 20 min',
    ]);
  });
});

describe('one transfer in the tray, the window and the command line', () => {
  // The window's sample pair, without its issues and its new folder waiting (with them the tray would
  // show attention instead).
  const sample = rendererSample(0).pairs[0];
  if (sample === undefined || sample.progress === null) throw new Error('the sample pair has no progress');
  const pair: PairView = { ...sample, issueCount: 0, conflictCount: 0, selection: null };
  const progress = sample.progress;
  const account: AccountView = {
    signedIn: true,
    configUrl: null,
    user: null,
    device: null,
    secretStore: null,
  };
  const status: SyncStatus = {
    state: 'syncing',
    detail: null,
    localRoot: pair.localRoot,
    remoteFolder: pair.remoteFolder,
    progress,
    lastSyncAtMs: null,
    activity: [],
    issues: [],
    pid: 4242,
  };

  it('shows the same speed and time left in the tray as the window (renderer-views e2e)', () => {
    // The window reads "128 of 412 items · 734 MB of 2.1 GB · 5.5 MB/s · 4 min left" for this pair.
    expect(trayModelOf({ account, pairs: [pair], recent: [] }).tooltip).toBe(
      'Syncing 128 of 412 files, 5.5 MB/s, 4 min left',
    );
  });

  it('shows the same bytes in `mch-sync run` and `mch-sync status` as the window', () => {
    expect(statusLines(status)[1]).toBe('  128 of 412 changes, 734 MB of 2.1 GB');
    const json = {
      ...status,
      running: true,
      itemsSynced: null,
      pendingChanges: null,
      lastPass: null,
      selection: null,
    };
    expect(formatStatus(json, 0)).toContain('state:         syncing: 128 of 412 items, 734 MB of 2.1 GB');
  });
});
