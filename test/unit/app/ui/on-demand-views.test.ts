// What the window shows of files on demand: the words of a file opening and of an open that failed (for a few minutes only), the pair's setting from its record, and why this computer cannot have them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MountStatus } from '../../../../common/sync-status.ts';
import { pairFilePath, registerFolderPair } from '../../../../app/profile/folder-pairs.ts';
import { updatePairOnDemand } from '../../../../app/profile/pair-on-demand.ts';
import {
  OPEN_FAILURE_SHOWN_MS,
  onDemandSupport,
  openingWords,
  pairOnDemandView,
} from '../../../../app/ui/pairs/on-demand-views.ts';

describe('openingWords', () => {
  it('names the file, the program and how much is here, rounded down', () => {
    const file = { path: 'Photos/2024/photo.jpg', process: 'gimp', bytesDone: 399, bytesTotal: 1000 };
    expect(openingWords(file)).toBe('Opening photo.jpg for gimp… 39 %');
    expect(openingWords({ ...file, bytesDone: 999 })).toBe('Opening photo.jpg for gimp… 99 %');
    expect(openingWords({ ...file, bytesDone: 1000 })).toBe('Opening photo.jpg for gimp… 100 %');
  });

  it('says no percentage before the size is known, and no program when none is named', () => {
    expect(openingWords({ path: 'a.txt', process: 'cat', bytesDone: 0, bytesTotal: 0 })).toBe(
      'Opening a.txt for cat…',
    );
    expect(openingWords({ path: 'a.txt', process: '', bytesDone: 5, bytesTotal: 10 })).toBe(
      'Opening a.txt… 50 %',
    );
  });
});

describe('onDemandSupport', () => {
  it('is available when nothing stands in the way', () => {
    expect(onDemandSupport(undefined)).toEqual({
      available: true,
      reason: null,
      defaultCacheLimitBytes: 10_000_000_000,
    });
  });

  // The words of onDemandUnavailable() (app/on-demand/on-demand-pair.ts) are the command line's.
  it.each([
    [
      'Files on demand need FUSE, which this client uses on Linux only: choose the folders to keep here with selective sync (`mch-sync select`).',
      'Files on demand need FUSE, which this client uses on Linux only. Use Choose folders instead.',
    ],
    [
      'libfuse.so.2 is not installed. Install libfuse2 and fuse3 (Debian, Ubuntu: sudo apt install libfuse2 fuse3), or use selective sync.',
      'libfuse.so.2 is not installed. Install libfuse2 and fuse3 (Debian, Ubuntu: sudo apt install libfuse2 fuse3). Use Choose folders instead.',
    ],
    [
      'The native addon is not built: install a C compiler (build-essential), run `npm run build:native`, or use selective sync.',
      'The native addon is not built: install a C compiler (build-essential), run npm run build:native. Use Choose folders instead.',
    ],
  ])('says why not in the window’s words, keeping what to install: %s', (why, words) => {
    expect(onDemandSupport(why)).toEqual({
      available: false,
      reason: words,
      defaultCacheLimitBytes: 10_000_000_000,
    });
  });
});

describe('pairOnDemandView', () => {
  let profile: string;
  const localRoot = '/home/ann/MyCloud';
  const now = 1_700_000_000_000;
  const mount = (overrides: Partial<MountStatus> = {}): MountStatus => ({
    mounted: true,
    opening: [],
    lastFailure: null,
    ...overrides,
  });

  beforeEach(async () => {
    profile = mkdtempSync(join(tmpdir(), 'mch-on-demand-view-'));
    await registerFolderPair(profile, { localRoot, remoteFolder: '/MyCloud' });
  });

  afterEach(() => rmSync(profile, { recursive: true, force: true }));

  it('is null for a pair that keeps every file here', () => {
    expect(pairOnDemandView(profile, localRoot, undefined, now)).toBeNull();
  });

  it('is null, not "whole files", when the record cannot be read', () => {
    writeFileSync(pairFilePath(profile, localRoot), '{ not json');
    expect(pairOnDemandView(profile, localRoot, mount(), now)).toBeNull();
  });

  it('gives the cache folder and limit from the record, and the mount while the service runs', async () => {
    await updatePairOnDemand(profile, localRoot, () => ({
      cache: '/profile/on-demand/abc',
      pinned: [],
      cacheLimitBytes: 2_000_000_000,
    }));
    expect(pairOnDemandView(profile, localRoot, undefined, now)).toEqual({
      cache: '/profile/on-demand/abc',
      cacheLimitBytes: 2_000_000_000,
      mounted: null,
      opening: [],
      lastFailure: null,
    });
    const opening = [{ path: 'photo.jpg', process: 'gimp', bytesDone: 40, bytesTotal: 100 }];
    const view = pairOnDemandView(profile, localRoot, mount({ opening }), now);
    expect(view?.mounted).toBe(true);
    expect(view?.opening).toEqual([{ ...opening[0], words: 'Opening photo.jpg for gimp… 40 %' }]);
  });

  it('tells a failed open for a few minutes, then no more', async () => {
    await updatePairOnDemand(profile, localRoot, () => ({ cache: '/c', pinned: [], cacheLimitBytes: null }));
    const failure = { path: 'Work/report.pdf', message: 'the device cannot be reached', atMs: now - 1000 };
    expect(pairOnDemandView(profile, localRoot, mount({ lastFailure: failure }), now)?.lastFailure).toEqual({
      path: 'Work/report.pdf',
      atMs: now - 1000,
      words: 'Could not open report.pdf: the device cannot be reached',
    });
    // The service's sentence, continued after the colon.
    const stalled = { ...failure, message: 'The device stopped answering.' };
    expect(
      pairOnDemandView(profile, localRoot, mount({ lastFailure: stalled }), now)?.lastFailure?.words,
    ).toBe('Could not open report.pdf: the device stopped answering');
    const old = { ...failure, atMs: now - OPEN_FAILURE_SHOWN_MS };
    expect(pairOnDemandView(profile, localRoot, mount({ lastFailure: old }), now)?.lastFailure).toBeNull();
  });
});
