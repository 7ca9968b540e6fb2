// What a live run shows: never "Up to date" while items are left unsynced, and names that stay inert.
import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../../common/sync-status.ts';
import { plainDisplay, statusLines } from '../../../../app/cli/sync-commands/live-display.ts';
import type { PassIssue } from '../../../../app/sync/pass-report.ts';

const UNSYNCED: PassIssue[] = [
  {
    kind: 'failed',
    path: 'tax/2025.pdf',
    code: 'PERMISSION_DENIED',
    message: 'It cannot be read.',
    remedy: 'needs-you',
  },
  { kind: 'retry', path: 'report.odt', code: 'NETWORK', message: 'The connection broke.' },
  { kind: 'skipped', path: 'link', code: 'SYMLINK', message: 'A symbolic link is not synced.' },
];
const WORDS = '2 items are not synced (1 needs you, 1 is tried again next run)';

function status(overrides: Partial<SyncStatus> = {}): SyncStatus {
  return {
    state: 'idle',
    detail: null,
    localRoot: '/home/ann/MyCloud',
    remoteFolder: '/MyCloud',
    progress: null,
    lastSyncAtMs: null,
    activity: [],
    issues: [],
    pid: 4242,
    ...overrides,
  };
}

/** What the service says after a pass that left items unsynced (its words may change: they are replaced). */
const AFTER_FAILURES = { detail: '2 items could not be synced; see the issues.', issues: UNSYNCED };

function plainLines(statuses: SyncStatus[]): string[] {
  const lines: string[] = [];
  let current = statuses[0] ?? status();
  const display = plainDisplay(
    (line) => lines.push(line),
    () => current,
  );
  for (const next of statuses) {
    current = next;
    display.changed();
  }
  // Without the time stamp.
  return lines.map((line) => line.slice(line.indexOf(' ') + 1));
}

describe('statusLines', () => {
  it('says "Up to date" when every item is synced (left-out items do not count)', () => {
    const lines = statusLines(status({ issues: UNSYNCED.filter((issue) => issue.kind === 'skipped') }));
    expect(lines[0]).toBe('Up to date, watching for changes — /home/ann/MyCloud ⇄ /MyCloud');
    expect(lines.join('\n')).not.toContain('not synced');
  });

  it('says "Not all synced" with the counts of run --once when items are left unsynced', () => {
    const lines = statusLines(status(AFTER_FAILURES));
    expect(lines[0]).toBe('Not all synced, watching for changes — /home/ann/MyCloud ⇄ /MyCloud');
    expect(lines[1]).toBe(`  ${WORDS}: mch-sync status lists them`);
    expect(lines.join('\n')).not.toMatch(/Up to date|could not be synced/);
    // Said once.
    expect(lines.filter((line) => line.includes('not synced'))).toHaveLength(1);
  });

  it('keeps the state and its detail while syncing, and still counts what the last pass left', () => {
    const lines = statusLines(status({ state: 'syncing', detail: 'Uploading', issues: UNSYNCED }));
    expect(lines[0]).toMatch(/^Syncing — /);
    expect(lines[1]).toBe('  Uploading');
    expect(lines).toContain(`  ${WORDS}: mch-sync status lists them`);
  });
});

describe('plainDisplay', () => {
  it('says "Not all synced" on its state line when items are left unsynced, and "Up to date" once they are', () => {
    expect(plainLines([status({ state: 'syncing' }), status(AFTER_FAILURES), status()])).toEqual([
      'Syncing',
      `Not all synced, watching for changes: ${WORDS}`,
      'Up to date, watching for changes',
    ]);
  });

  it('prints a new state line when the counts change, not when nothing does', () => {
    const fewer = { ...AFTER_FAILURES, issues: UNSYNCED.slice(0, 1) };
    expect(plainLines([status(AFTER_FAILURES), status(AFTER_FAILURES), status(fewer)])).toEqual([
      `Not all synced, watching for changes: ${WORDS}`,
      'Not all synced, watching for changes: 1 item is not synced (1 needs you)',
    ]);
  });
});
