// The control socket's versions request: each action and outcome crosses as it was sent, and a malformed one is refused.
import { describe, expect, it } from 'vitest';
import type { SyncStatus } from '../../../../common/sync-status.ts';
import { encodeMessage, parseAnswer, parseRequest } from '../../../../app/live-service/control-protocol.ts';
import type { VersionsAction, VersionsOutcome } from '../../../../app/versions/versions-actions.ts';
import { changesFolder } from '../../../../app/versions/versions-actions.ts';

const status: SyncStatus = {
  state: 'idle',
  detail: null,
  localRoot: '/home/ann/MyCloud',
  remoteFolder: '/MyCloud',
  progress: null,
  lastSyncAtMs: null,
  activity: [],
  issues: [],
  pid: 42,
};

const restored = { restoredTo: 'a.txt', path: 'a.txt', number: 2, size: 5, replacedKept: true };
const side = { path: 'p.txt', size: 3, mTimeMs: 1_790_000_000_000, from: 'the device' };

describe('the versions request', () => {
  it.each<VersionsAction>([
    { kind: 'restore', path: 'Docs/a.txt' },
    { kind: 'restore', path: 'a.txt', number: 3, to: '/home/ann/old.txt' },
    { kind: 'restore-deleted', path: 'Docs' },
    { kind: 'restore-since', sinceMs: 1_790_000_000_000, folder: '' },
    { kind: 'resolve', path: 'p.txt', keep: 'both' },
    { kind: 'clear' },
  ])('carries %j as sent', (action) => {
    const line = encodeMessage({ op: 'versions', action }).trimEnd();
    expect(parseRequest(line)).toEqual({ op: 'versions', action });
  });

  it.each([
    { kind: 'restore', path: '' },
    { kind: 'restore', path: 'a.txt', number: 0 },
    { kind: 'resolve', path: 'p.txt', keep: 'mine' },
    { kind: 'erase' },
  ])('refuses %j', (action) => {
    expect(() => parseRequest(JSON.stringify({ op: 'versions', action }))).toThrow(
      expect.objectContaining({ code: 'CONTROL_BAD_REQUEST' }) as Error,
    );
  });

  it.each<VersionsOutcome>([
    { kind: 'restored', restored },
    {
      kind: 'restored-deleted',
      restored: [restored],
      skipped: [{ path: 'b.txt', reason: 'something is at its place now' }],
    },
    {
      kind: 'resolved',
      keep: 'this',
      conflict: {
        copyPath: 'p (conflicted copy 2026-11-28 101010).txt',
        originalPath: 'p.txt',
        madeAtMs: 1_790_000_000_000,
        madeHere: true,
        copy: { ...side, from: 'this computer' },
        original: side,
      },
    },
    { kind: 'cleared', count: 4, bytes: 1200 },
  ])('answers with the outcome %#', (versions) => {
    const line = encodeMessage({ ok: true, status, versions }).trimEnd();
    expect(parseAnswer(line)).toEqual({ ok: true, status, versions });
  });

  it('asks for a pass only after a change to the folder', () => {
    expect(changesFolder({ kind: 'restored', restored })).toBe(true);
    expect(changesFolder({ kind: 'restored-deleted', restored: [], skipped: [] })).toBe(false);
    expect(changesFolder({ kind: 'cleared', count: 1, bytes: 1 })).toBe(false);
  });
});
