// The tray and files on demand: a file downloading because a program opened it shows in the tooltip and the menu ("Opening photo.jpg for gimp… 40 %") and makes the icon busy; an open that failed asks for attention while its card shows it.
import { describe, expect, it } from 'vitest';
import type { AccountView, PairOnDemandView, PairView } from '../../../../common/contract.ts';
import type { EngineState } from '../../../../common/sync-status.ts';
import { trayModelOf, trayStateOf } from '../../../../app/desktop/tray-model.ts';
import { openFailures, openingLines, openingSummary } from '../../../../app/desktop/tray-on-demand.ts';
import { openingFileView } from '../../../../app/ui/pairs/on-demand-views.ts';

const account: AccountView = {
  signedIn: true,
  configUrl: 'http://127.0.0.1:1/config',
  user: { id: 'u1', name: 'Ann', email: null },
  device: { id: 'd1', name: 'Home', url: null },
  secretStore: 'keychain',
};

function onDemand(overrides: Partial<PairOnDemandView> = {}): PairOnDemandView {
  return {
    cache: '/profile/on-demand/k',
    cacheLimitBytes: 10_000_000_000,
    mounted: true,
    opening: [],
    lastFailure: null,
    ...overrides,
  };
}

function pair(id: string, state: EngineState, extra: Partial<PairView> = {}): PairView {
  return {
    id,
    localRoot: `/home/ann/${id}`,
    remoteFolder: `/${id}`,
    state,
    words: state,
    detail: null,
    paused: state === 'paused',
    progress: null,
    lastSyncAtMs: 1,
    itemsSynced: 0,
    issueCount: 0,
    conflictCount: 0,
    leftOut: { ignored: 0, systemFiles: 0 },
    hold: null,
    answering: null,
    selection: null,
    ...extra,
  };
}

const photo = openingFileView({ path: 'Photos/photo.jpg', process: 'gimp', bytesDone: 40, bytesTotal: 100 });
const film = openingFileView({ path: 'film.mp4', process: 'vlc', bytesDone: 0, bytesTotal: 0 });
const failure = {
  path: 'Work/report.pdf',
  atMs: 1000,
  words: 'Could not open report.pdf: the device cannot be reached',
};

describe('a file opening', () => {
  it('makes an idle on-demand pair busy, with the file in the tooltip and the status line', () => {
    const pairs = [pair('Cloud', 'idle', { onDemand: onDemand({ opening: [photo] }) })];
    expect(trayStateOf(account, pairs)).toBe('syncing');
    const model = trayModelOf({ account, pairs, recent: [] });
    expect(model.icon).toBe('tray-syncing');
    expect(model.tooltip).toBe('Opening photo.jpg for gimp… 40 %');
    // Said once: the status line is that file.
    expect(model.menu.filter((item) => item.label.startsWith('Opening'))).toHaveLength(1);
    expect(model.menu[0]).toMatchObject({ kind: 'status', label: 'Opening photo.jpg for gimp… 40 %' });
  });

  it('lists each file under the status line when several open, and adds them to a pass’s words', () => {
    const pairs = [
      pair('Cloud', 'syncing', {
        onDemand: onDemand({ opening: [photo, film] }),
        progress: {
          itemsDone: 1,
          itemsTotal: 4,
          bytesDone: 0,
          bytesTotal: 0,
          transfers: [],
          bytesPerSecond: null,
          secondsLeft: null,
        },
      }),
    ];
    const model = trayModelOf({ account, pairs, recent: [] });
    expect(model.tooltip).toBe('Syncing 1 of 4 files; Opening 2 files…');
    expect(model.menu.slice(0, 3).map((item) => [item.kind, item.label, item.enabled])).toEqual([
      ['status', 'Syncing 1 of 4 files; Opening 2 files…', false],
      ['status', 'Opening photo.jpg for gimp… 40 %', false],
      ['status', 'Opening film.mp4 for vlc…', false],
    ]);
  });

  it('counts the files past the third on one line', () => {
    const many = ['a', 'b', 'c', 'd', 'e'].map((name) =>
      openingFileView({ path: `${name}.txt`, process: 'cat', bytesDone: 1, bytesTotal: 2 }),
    );
    expect(openingLines([pair('Cloud', 'idle', { onDemand: onDemand({ opening: many }) })])).toEqual([
      'Opening a.txt for cat… 50 %',
      'Opening b.txt for cat… 50 %',
      'and 3 more files opening…',
    ]);
  });

  it('says nothing of a pair of whole files or an on-demand pair at rest', () => {
    const pairs = [pair('Docs', 'idle'), pair('Cloud', 'idle', { onDemand: onDemand() })];
    expect(openingSummary(pairs)).toBeNull();
    expect(trayStateOf(account, pairs)).toBe('up-to-date');
    expect(trayModelOf({ account, pairs, recent: [] }).tooltip).toBe('Up to date');
  });
});

describe('an open that failed', () => {
  it('asks for attention, in its words, with an item that opens the status view', () => {
    const pairs = [pair('Cloud', 'idle', { onDemand: onDemand({ lastFailure: failure }) })];
    expect(trayStateOf(account, pairs)).toBe('attention');
    const model = trayModelOf({ account, pairs, recent: [] });
    expect(model.tooltip).toBe('Could not open report.pdf: the device cannot be reached');
    expect(model.menu.find((item) => item.id === 'show-open-failure')).toMatchObject({
      label: 'Could not open report.pdf: the device cannot be reached',
      action: { type: 'open-window', view: 'status' },
    });
    // Nothing is listed under Issues for it.
    expect(model.menu.some((item) => item.id === 'show-issues')).toBe(false);
  });

  it('comes first, beside what else needs the user', () => {
    const pairs = [
      pair('Cloud', 'idle', { onDemand: onDemand({ lastFailure: failure }) }),
      pair('Docs', 'idle', { issueCount: 2, conflictCount: 2 }),
    ];
    expect(trayModelOf({ account, pairs, recent: [] }).tooltip).toBe(
      'Could not open report.pdf: the device cannot be reached; 2 conflicts need you',
    );
  });

  it('newest first over several pairs', () => {
    const older = { ...failure, atMs: 10, words: 'Could not open a.txt: gone from the device' };
    const pairs = [
      pair('A', 'idle', { onDemand: onDemand({ lastFailure: older }) }),
      pair('B', 'idle', { onDemand: onDemand({ lastFailure: failure }) }),
    ];
    expect(openFailures(pairs).map((entry) => entry.pairId)).toEqual(['B', 'A']);
  });
});
