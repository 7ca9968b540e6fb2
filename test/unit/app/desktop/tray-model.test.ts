// The tray model: one state for every engine state and mix of pairs, the tooltip in words, the menu's items and actions.
import { describe, expect, it } from 'vitest';
import type { AccountView, ActivityView, HoldView, PairView } from '../../../../common/contract.ts';
import type { EngineState, ItemIssue } from '../../../../common/sync-status.ts';
import {
  recentFiles,
  trayModelOf,
  trayStateOf,
  type TrayMenuItem,
  type TrayState,
} from '../../../../app/desktop/tray-model.ts';
import { pairView, TransferRate } from '../../../../app/ui/pairs/pair-views.ts';
import { pausedWords } from '../../../../app/desktop/tray-words.ts';

const signedIn: AccountView = {
  signedIn: true,
  configUrl: 'http://127.0.0.1:1/config',
  user: { id: 'u1', name: 'Ann', email: null },
  device: { id: 'd1', name: 'Home', url: null },
  secretStore: 'keychain',
};
const signedOut: AccountView = {
  signedIn: false,
  configUrl: null,
  user: null,
  device: null,
  secretStore: null,
};

function pair(state: EngineState, overrides: Partial<PairView> = {}): PairView {
  const id = overrides.id ?? `pair-${state}`;
  return {
    id,
    localRoot: `/home/ann/${id}`,
    remoteFolder: `/${id}`,
    state,
    words: state,
    detail: null,
    paused: state === 'paused',
    progress: null,
    lastSyncAtMs: null,
    itemsSynced: 0,
    issueCount: 0,
    conflictCount: 0,
    leftOut: { ignored: 0, systemFiles: 0 },
    hold: null,
    answering: null,
    selection: null,
    ...overrides,
  };
}

/** A pair's selective sync with these new folders waiting (path and bytes). */
function selection(...waiting: Array<[string, number]>): PairView['selection'] {
  return {
    excluded: 0,
    waiting: waiting.map(([path, bytes]) => ({ path, bytes, files: 10 })),
    askOverBytes: 500_000_000,
  };
}

const hold: HoldView = {
  reason: 'mass-delete',
  title: 'Deletes waiting',
  advice: 'Many files were deleted here.',
  localDeletes: 0,
  remoteDeletes: 120,
  paths: ['a.txt'],
  canConfirm: true,
  canRestore: false,
  confirmLabel: 'Delete on the device too',
  restoreLabel: null,
  confirmQuestion: 'Delete 120 items on the device and on every computer that syncs it?',
};

function activity(
  pairId: string,
  path: string,
  atMs: number,
  kind: ActivityView['kind'] = 'uploaded',
): ActivityView {
  return { pairId, atMs, kind, path, localPath: `/home/ann/${pairId}/${path}` };
}

function progress(
  itemsDone: number,
  itemsTotal: number,
  bytesPerSecond: number | null,
  secondsLeft: number | null,
): NonNullable<PairView['progress']> {
  return { itemsDone, itemsTotal, bytesDone: 0, bytesTotal: 0, transfers: [], bytesPerSecond, secondsLeft };
}

function ids(menu: TrayMenuItem[]): string[] {
  return menu.map((item) => item.id);
}

function item(menu: TrayMenuItem[], id: string): TrayMenuItem {
  const found = menu.find((entry) => entry.id === id);
  if (found === undefined) throw new Error(`no menu item ${id} in ${ids(menu).join(', ')}`);
  return found;
}

describe('trayStateOf: one pair in each engine state', () => {
  const expected: Record<EngineState, TrayState> = {
    idle: 'up-to-date',
    scanning: 'syncing',
    syncing: 'syncing',
    paused: 'paused',
    offline: 'offline',
    'sign-in-needed': 'sign-in-needed',
    held: 'attention',
    error: 'attention',
  };
  for (const [state, tray] of Object.entries(expected) as Array<[EngineState, TrayState]>) {
    it(`${state} → ${tray}, with the icon of that name`, () => {
      expect(trayStateOf(signedIn, [pair(state)])).toBe(tray);
      expect(trayModelOf({ account: signedIn, pairs: [pair(state)], recent: [] }).icon).toBe(`tray-${tray}`);
    });
  }
});

describe('trayStateOf: precedence over several pairs', () => {
  it('signed out is sign-in-needed whatever the pairs say', () => {
    expect(trayStateOf(signedOut, [])).toBe('sign-in-needed');
    expect(trayStateOf(signedOut, [pair('syncing')])).toBe('sign-in-needed');
  });

  it('sign-in-needed beats attention, attention beats offline, offline beats syncing, syncing beats paused', () => {
    const all = [pair('paused'), pair('syncing'), pair('offline'), pair('error'), pair('sign-in-needed')];
    expect(trayStateOf(signedIn, all)).toBe('sign-in-needed');
    expect(trayStateOf(signedIn, all.slice(0, 4))).toBe('attention');
    expect(trayStateOf(signedIn, all.slice(0, 3))).toBe('offline');
    expect(trayStateOf(signedIn, all.slice(0, 2))).toBe('syncing');
    expect(trayStateOf(signedIn, all.slice(0, 1))).toBe('paused');
  });

  it('an idle pair with issues or conflicts needs attention', () => {
    expect(trayStateOf(signedIn, [pair('idle', { issueCount: 1 })])).toBe('attention');
  });

  it('a warning or an item left out by the rules is listed under Issues but asks for no attention', () => {
    const viewOf = (issues: ItemIssue[]): PairView =>
      pairView({
        id: 'docs',
        status: {
          state: 'idle',
          detail: null,
          localRoot: '/home/ann/docs',
          remoteFolder: '/docs',
          progress: null,
          lastSyncAtMs: 1,
          activity: [],
          issues,
          pid: 1,
        },
        hold: null,
        itemsSynced: 10,
        rate: new TransferRate(),
        conflicts: [],
      });
    const quiet = viewOf([
      { kind: 'warning', path: 'con.txt', code: 'NOT_PORTABLE', message: 'Windows refuses the name' },
      { kind: 'skipped', path: 'link', code: 'SYMLINK', message: 'a symbolic link (not followed)' },
    ]);
    expect(quiet).toMatchObject({ words: 'Up to date', issueCount: 0 });
    expect(trayModelOf({ account: signedIn, pairs: [quiet], recent: [] })).toMatchObject({
      state: 'up-to-date',
      tooltip: 'Up to date',
    });
    const busy = viewOf([
      { kind: 'warning', path: 'con.txt', code: 'NOT_PORTABLE', message: 'Windows refuses the name' },
      { kind: 'retry', path: 'report.doc', code: 'FILE_BUSY', message: 'in use' },
    ]);
    expect(busy).toMatchObject({ words: 'Up to date · 1 not synced', issueCount: 1 });
    expect(trayModelOf({ account: signedIn, pairs: [busy], recent: [] })).toMatchObject({
      state: 'attention',
      tooltip: '1 file not synced',
    });
  });

  it('a hold needs attention even while the pair is paused or offline', () => {
    expect(trayStateOf(signedIn, [pair('paused', { hold })])).toBe('attention');
    expect(trayStateOf(signedIn, [pair('offline', { hold })])).toBe('attention');
  });

  it('some pairs paused and the others idle is paused; all idle or no pair is up to date', () => {
    expect(trayStateOf(signedIn, [pair('paused', { id: 'a' }), pair('idle', { id: 'b' })])).toBe('paused');
    expect(trayStateOf(signedIn, [pair('idle', { id: 'a' }), pair('idle', { id: 'b' })])).toBe('up-to-date');
    expect(trayStateOf(signedIn, [])).toBe('up-to-date');
  });

  it('a new device folder waiting for an answer needs attention, even while another pair syncs', () => {
    const waiting = pair('idle', { id: 'a', selection: selection(['Videos', 1_240_000_000]) });
    expect(trayStateOf(signedIn, [waiting, pair('syncing', { id: 'b' })])).toBe('attention');
    // Folders left out on purpose ask nothing.
    const excluded = pair('idle', { selection: { excluded: 3, waiting: [], askOverBytes: null } });
    expect(trayStateOf(signedIn, [excluded])).toBe('up-to-date');
  });

  it('one pair syncing while another is paused is syncing', () => {
    expect(trayStateOf(signedIn, [pair('paused'), pair('scanning')])).toBe('syncing');
  });
});

describe('tooltip', () => {
  const tooltip = (pairs: PairView[], recent: ActivityView[] = [], account = signedIn): string =>
    trayModelOf({ account, pairs, recent }).tooltip;

  it('says up to date, paused, offline, sign in again and sign in to start', () => {
    expect(tooltip([pair('idle')])).toBe('Up to date');
    expect(tooltip([pair('paused')])).toBe('Paused');
    expect(tooltip([pair('offline', { detail: 'connect ECONNREFUSED' })])).toBe('Offline: will retry');
    expect(tooltip([pair('sign-in-needed')])).toBe('Sign in again');
    expect(tooltip([], [], signedOut)).toBe('Sign in to start');
    expect(tooltip([])).toBe('Add a folder to start syncing');
  });

  it('says how the device is reached while it answers: at home, or through the internet', () => {
    const reached = (via: 'home' | 'relay' | 'pinned', reachable = true): AccountView => ({
      ...signedIn,
      device: { id: 'd1', name: 'Home', url: null, connection: { via, reachable } },
    });
    expect(tooltip([pair('idle')], [], reached('home'))).toBe('Up to date · at home');
    expect(tooltip([pair('idle')], [], reached('relay'))).toBe('Up to date · through the internet');
    expect(tooltip([pair('idle')], [], reached('pinned'))).toBe('Up to date');
    expect(tooltip([pair('offline')], [], reached('relay', false))).toBe(
      'Offline: will retry (the device does not answer)',
    );
    expect(tooltip([], [], reached('home'))).toBe('Add a folder to start syncing');
  });

  it('says until when, or why, when every folder’s pause says the same', () => {
    const untilMs = new Date(2026, 10, 28, 14, 30).getTime();
    const timed = (id: string): PairView => pair('paused', { id, pause: { by: 'user', untilMs } });
    expect(pausedWords([timed('a'), timed('b')], new Date(2026, 10, 28, 12, 0).getTime())).toBe(
      'Paused until 14:30',
    );
    expect(pausedWords([timed('a')], new Date(2026, 10, 27, 12, 0).getTime())).toBe(
      'Paused until tomorrow 14:30',
    );
    const metered = pair('paused', { id: 'm', pause: { by: 'metered', untilMs: null } });
    expect(tooltip([metered])).toBe('Paused: metered network');
    // Different reasons: no single end to name.
    expect(tooltip([timed('a'), metered])).toBe('Paused');
  });

  it('counts the paused folders when only some are paused', () => {
    expect(tooltip([pair('paused', { id: 'a' }), pair('idle', { id: 'b' }), pair('idle', { id: 'c' })])).toBe(
      'Paused: 1 of 3 folders (the others are up to date)',
    );
  });

  it('gives items, speed and time left of a pass', () => {
    const syncing = pair('syncing', { progress: progress(12, 340, 3_200_000, 61) });
    expect(tooltip([syncing])).toBe('Syncing 12 of 340 files, 3.2 MB/s, 1 min left');
  });

  it('sums items and speeds over the busy pairs and takes the longest time left', () => {
    const a = pair('syncing', { id: 'a', progress: progress(10, 5000, 1_000_000, 30) });
    const b = pair('syncing', { id: 'b', progress: progress(2, 5340, 2_500_000, 7200) });
    expect(tooltip([a, b, pair('idle', { id: 'c' })])).toBe('Syncing 12 of 10,340 files, 3.5 MB/s, 2 h left');
  });

  it('leaves out speed and time while there is no speed yet', () => {
    expect(tooltip([pair('syncing', { progress: progress(0, 1, null, null) })])).toBe('Syncing 0 of 1 file');
    expect(tooltip([pair('syncing', { progress: progress(3, 9, 0, null) })])).toBe('Syncing 3 of 9 files');
  });

  it('says looking for changes for a scan with nothing planned yet', () => {
    expect(tooltip([pair('scanning')])).toBe('Looking for changes');
    expect(tooltip([pair('syncing')])).toBe('Syncing');
  });

  it('tells conflicts from other issues as the core counts them (a settled one counts no more)', () => {
    const a = pair('idle', { id: 'a', issueCount: 3, conflictCount: 2 });
    // Recent activity names a conflict settled since: the core's count is what stands.
    const recent = [activity('a', 'z (conflicted copy).txt', 1, 'conflict')];
    expect(tooltip([a], recent)).toBe('2 conflicts need you; 1 file not synced');
    expect(tooltip([pair('idle', { id: 'a', issueCount: 1, conflictCount: 1 })])).toBe(
      '1 conflict needs you',
    );
    expect(tooltip([pair('idle', { id: 'a', issueCount: 1, conflictCount: 0 })], recent)).toBe(
      '1 file not synced',
    );
  });

  it('names held deletes and a folder that stopped, first', () => {
    const held = pair('held', { id: 'photos', hold });
    const stopped = pair('error', { id: 'docs', detail: 'The folder is gone' });
    expect(tooltip([held, stopped, pair('idle', { id: 'c', issueCount: 2 })])).toBe(
      '120 deletes held for you; docs stopped: The folder is gone; 2 files not synced',
    );
    expect(tooltip([pair('error', { id: 'a' }), pair('error', { id: 'b' })])).toBe('2 folders stopped');
  });

  it('says what a hold that deletes nothing is (a folder that is not the one synced)', () => {
    const changed: HoldView = {
      ...hold,
      reason: 'folder-changed',
      title: 'Not the folder that was synced',
      remoteDeletes: 0,
      paths: [],
    };
    expect(tooltip([pair('held', { id: 'stick', hold: changed })])).toBe(
      'stick: Not the folder that was synced',
    );
    expect(
      tooltip([pair('held', { id: 'a', hold: changed }), pair('held', { id: 'b', hold: changed })]),
    ).toBe('2 folders wait for you');
  });
});

describe('tooltip of new folders waiting', () => {
  const tooltip = (pairs: PairView[]): string =>
    trayModelOf({ account: signedIn, pairs, recent: [] }).tooltip;

  it('names one folder and its size, counts several with theirs, after held deletes', () => {
    expect(tooltip([pair('idle', { selection: selection(['Photos/Videos 2025', 1_240_000_000]) })])).toBe(
      'New folder Videos 2025 waiting (1.2 GB)',
    );
    const two = pair('idle', { id: 'a', selection: selection(['Films', 3_000_000_000]) });
    const three = pair('held', { id: 'b', hold, selection: selection(['Music', 500_000_001]) });
    expect(tooltip([two, three])).toBe('120 deletes held for you; 2 new folders waiting (3.5 GB)');
  });
});

describe('menu', () => {
  const recent = [
    activity('a', 'notes.txt', 10),
    activity('a', 'old.txt', 1),
    activity('a', 'gone.txt', 11, 'deleted'),
    activity('b', 'photo.jpg', 12, 'downloaded'),
    activity('a', 'notes.txt', 9),
    activity('a', 'x/report.pdf', 8),
    activity('b', 'report.pdf', 7),
    activity('a', 'sixth.txt', 6),
  ];

  it('signed out: the status line, open window on the first run, quit', () => {
    const { menu } = trayModelOf({ account: signedOut, pairs: [], recent });
    expect(ids(menu)).toEqual(['status', 'separator-window', 'open-window', 'separator-quit', 'quit']);
    expect(item(menu, 'status')).toMatchObject({ label: 'Sign in to start', kind: 'status', enabled: false });
    expect(item(menu, 'open-window').action).toEqual({ type: 'open-window', view: 'first-run' });
  });

  it('signed in: status, folders, window, recent files, copy link, pause, sync now, settings, quit', () => {
    const pairs = [pair('idle', { id: 'a' }), pair('idle', { id: 'b' })];
    const { menu } = trayModelOf({ account: signedIn, pairs, recent });
    expect(ids(menu)).toEqual([
      'status',
      'separator-folders',
      'open-folder:a',
      'open-folder:b',
      'open-window',
      'separator-recent',
      'recent-heading',
      'recent:/home/ann/b/photo.jpg',
      'recent:/home/ann/a/notes.txt',
      'recent:/home/ann/a/x/report.pdf',
      'recent:/home/ann/b/report.pdf',
      'recent:/home/ann/a/sixth.txt',
      'copy-link',
      'versions',
      'separator-sync',
      'pause-1h',
      'pause-tomorrow',
      'pause-all',
      'sync-now',
      'separator-quit',
      'settings',
      'quit',
    ]);
    expect(item(menu, 'status').label).toBe('Up to date');
    expect(item(menu, 'open-folder:a')).toMatchObject({
      label: 'Open a',
      enabled: true,
      action: { type: 'open-folder', path: '/home/ann/a' },
    });
    expect(item(menu, 'recent:/home/ann/b/photo.jpg')).toMatchObject({
      label: 'photo.jpg',
      action: { type: 'show-item', path: '/home/ann/b/photo.jpg' },
    });
    // Two recent files of one name are told apart by their path in the folder.
    expect(item(menu, 'recent:/home/ann/a/x/report.pdf').label).toBe('x/report.pdf');
    const copy = item(menu, 'copy-link');
    expect(copy.action).toBeUndefined();
    expect(copy.submenu?.map((entry) => entry.action)).toEqual([
      { type: 'copy-link', path: '/home/ann/b/photo.jpg' },
      { type: 'copy-link', path: '/home/ann/a/notes.txt' },
      { type: 'copy-link', path: '/home/ann/a/x/report.pdf' },
      { type: 'copy-link', path: '/home/ann/b/report.pdf' },
      { type: 'copy-link', path: '/home/ann/a/sixth.txt' },
    ]);
    // The same five again, each opening the window at its versions ("…": the window asks before it restores).
    const versions = item(menu, 'versions');
    expect(versions.action).toBeUndefined();
    expect(versions.submenu?.map((entry) => entry.label)).toEqual([
      'photo.jpg…',
      'notes.txt…',
      'x/report.pdf…',
      'report.pdf…',
      'sixth.txt…',
    ]);
    expect(versions.submenu?.[0]?.action).toEqual({ type: 'open-versions', path: '/home/ann/b/photo.jpg' });
    expect(item(menu, 'pause-1h')).toMatchObject({
      label: 'Pause for 1 hour',
      action: { type: 'pause-all', for: '1h' },
    });
    expect(item(menu, 'pause-tomorrow')).toMatchObject({
      label: 'Pause until tomorrow',
      action: { type: 'pause-all', for: 'tomorrow' },
    });
    expect(item(menu, 'pause-all')).toMatchObject({
      label: 'Pause until I resume',
      action: { type: 'pause-all' },
    });
    expect(item(menu, 'sync-now')).toMatchObject({ enabled: true, action: { type: 'sync-now' } });
    expect(item(menu, 'settings').action).toEqual({ type: 'open-window', view: 'settings' });
    expect(item(menu, 'quit').action).toEqual({ type: 'quit' });
    expect(menu.filter((entry) => entry.kind === 'separator').every((entry) => !entry.enabled)).toBe(true);
  });

  it('every id is unique', () => {
    const pairs = [pair('paused', { id: 'a' }), pair('idle', { id: 'b', issueCount: 1 })];
    const { menu } = trayModelOf({ account: signedIn, pairs, recent });
    expect(new Set(ids(menu)).size).toBe(menu.length);
  });

  it('no recent files: no heading and no copy link', () => {
    const { menu } = trayModelOf({ account: signedIn, pairs: [pair('idle')], recent: [] });
    expect(ids(menu)).not.toContain('recent-heading');
    expect(ids(menu)).not.toContain('copy-link');
    expect(ids(menu)).not.toContain('versions');
  });

  it('pause all when none is paused, resume all when all are, both when some are', () => {
    const menuOf = (pairs: PairView[]): TrayMenuItem[] =>
      trayModelOf({ account: signedIn, pairs, recent: [] }).menu;
    const none = menuOf([pair('idle', { id: 'a' }), pair('syncing', { id: 'b' })]);
    expect(ids(none)).toContain('pause-all');
    expect(ids(none)).not.toContain('resume-all');
    const all = menuOf([pair('paused', { id: 'a' }), pair('paused', { id: 'b' })]);
    expect(ids(all)).not.toContain('pause-all');
    expect(item(all, 'resume-all').action).toEqual({ type: 'resume-all' });
    expect(item(all, 'sync-now').enabled).toBe(false);
    const some = menuOf([pair('paused', { id: 'a' }), pair('idle', { id: 'b' })]);
    expect(ids(some).filter((id) => id.endsWith('-all'))).toEqual(['resume-all', 'pause-all']);
    expect(item(some, 'sync-now').enabled).toBe(true);
  });

  it('no pairs: pause all and sync now are there but disabled', () => {
    const { menu } = trayModelOf({ account: signedIn, pairs: [], recent: [] });
    expect(item(menu, 'pause-all').enabled).toBe(false);
    expect(item(menu, 'sync-now').enabled).toBe(false);
    expect(ids(menu).filter((id) => id.startsWith('open-folder:'))).toEqual([]);
  });

  it('attention and an expired sign-in get an item that opens the view to act in', () => {
    const attention = trayModelOf({ account: signedIn, pairs: [pair('held', { hold })], recent: [] }).menu;
    expect(item(attention, 'show-issues').action).toEqual({ type: 'open-window', view: 'issues' });
    const signIn = trayModelOf({ account: signedIn, pairs: [pair('sign-in-needed')], recent: [] }).menu;
    expect(item(signIn, 'sign-in').action).toEqual({ type: 'open-window', view: 'settings' });
    const idle = trayModelOf({ account: signedIn, pairs: [pair('idle')], recent: [] }).menu;
    expect(ids(idle)).not.toContain('show-issues');
    expect(ids(idle)).not.toContain('sign-in');
  });

  it('a new folder waiting gets an item that opens the status view, where its card asks', () => {
    const waiting = pair('idle', { selection: selection(['Videos', 1_240_000_000]) });
    const menu = trayModelOf({ account: signedIn, pairs: [waiting], recent: [] }).menu;
    expect(item(menu, 'show-waiting')).toMatchObject({
      label: 'New folder Videos waiting (1.2 GB)…',
      action: { type: 'open-window', view: 'status' },
    });
    // Nothing else needs the user: Issues would show nothing.
    expect(ids(menu)).not.toContain('show-issues');
    const alsoHeld = trayModelOf({
      account: signedIn,
      pairs: [waiting, pair('held', { id: 'b', hold })],
      recent: [],
    }).menu;
    expect(ids(alsoHeld).slice(0, 3)).toEqual(['status', 'show-issues', 'show-waiting']);
  });

  it('two folders of one name are told apart by their whole path', () => {
    const pairs = [
      pair('idle', { id: 'a', localRoot: '/home/ann/MyCloud' }),
      pair('idle', { id: 'b', localRoot: '/mnt/disk/MyCloud' }),
      pair('idle', { id: 'c', localRoot: 'C:\\Users\\ann\\Work' }),
    ];
    const { menu } = trayModelOf({ account: signedIn, pairs, recent: [] });
    expect(menu.filter((entry) => entry.id.startsWith('open-folder:')).map((entry) => entry.label)).toEqual([
      'Open /home/ann/MyCloud',
      'Open /mnt/disk/MyCloud',
      'Open Work',
    ]);
  });

  it('the status line is the tooltip', () => {
    const model = trayModelOf({
      account: signedIn,
      pairs: [pair('syncing', { progress: progress(1, 2, 1000, 5) })],
      recent: [],
    });
    expect(item(model.menu, 'status').label).toBe(model.tooltip);
  });
});

describe('recentFiles', () => {
  it('newest first, each file once, deleted ones left out, five at most', () => {
    const entries = [1, 2, 3, 4, 5, 6, 7].map((n) => activity('a', `f${n}.txt`, n));
    entries.push(activity('a', 'f7.txt', 0), activity('a', 'f8.txt', 8, 'deleted'));
    expect(recentFiles(entries).map((entry) => entry.path)).toEqual([
      'f7.txt',
      'f6.txt',
      'f5.txt',
      'f4.txt',
      'f3.txt',
    ]);
  });
});
