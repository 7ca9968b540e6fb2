// parseLaunchArgs, the second start's forwarded data and the ShareBatcher that joins Explorer's one-process-per-file starts.
import { describe, expect, it } from 'vitest';
import {
  MAX_FORWARDED_PATHS,
  parseLaunchArgs,
  readShareRequestData,
  ShareBatcher,
  shareRequestData,
} from '../../../../app/desktop/launch-args.ts';
import { ManualClock } from '../watcher/manual-clock.ts';

const EXE = '/opt/MchSync/mch-sync';

describe('parseLaunchArgs', () => {
  it('takes every path after --share up to the next option', () => {
    const request = parseLaunchArgs(
      [EXE, '--share', '/home/ann/a.txt', '/home/ann/b', '--hidden', '/x'],
      '/',
    );
    expect(request).toEqual({ share: ['/home/ann/a.txt', '/home/ann/b'], hidden: true, openView: null });
  });

  it('ignores the executable and, in development, the app path (electron .)', () => {
    expect(
      parseLaunchArgs(['/usr/lib/electron/electron', '.', '--share', 'a.txt'], '/home/ann').share,
    ).toEqual(['/home/ann/a.txt']);
    expect(
      parseLaunchArgs(['/usr/lib/electron/electron', '/src/mch/dist/main/main.js'], '/home/ann'),
    ).toEqual({
      share: [],
      hidden: false,
      openView: null,
    });
  });

  it('keeps paths with spaces, quotes and non-ASCII as one word each', () => {
    const words = [
      '/home/ann/My Files/report final.pdf',
      `/home/ann/it's "quoted".txt`,
      '/home/ann/Ünïcödé/日本語 📷.jpg',
    ];
    expect(parseLaunchArgs([EXE, '--share', ...words], '/').share).toEqual(words);
  });

  it('resolves relative paths against the given folder and normalises them', () => {
    const request = parseLaunchArgs([EXE, '--share', 'a.txt', './b/../c', '../d e'], '/home/ann/MyCloud');
    expect(request.share).toEqual(['/home/ann/MyCloud/a.txt', '/home/ann/MyCloud/c', '/home/ann/d e']);
  });

  it('takes --share=PATH as one path, also among other words', () => {
    const request = parseLaunchArgs([EXE, '--share=/home/ann/x y.txt', 'not-a-share', '--share=rel'], '/w');
    expect(request.share).toEqual(['/home/ann/x y.txt', '/w/rel']);
  });

  it('ignores Chromium and Electron switches, which end a --share run without taking the next word', () => {
    const argv = [
      EXE,
      '--no-sandbox',
      '--enable-features=UseOzonePlatform,WaylandWindowDecorations',
      '--allow-file-access-from-files',
      '--share',
      '/a',
      '--ozone-platform-hint=auto',
      '/not-shared',
    ];
    expect(parseLaunchArgs(argv, '/')).toEqual({ share: ['/a'], hidden: false, openView: null });
  });

  it('after -- takes every word as a path, so a name may start with a dash', () => {
    expect(parseLaunchArgs([EXE, '--share', '--', '--odd name', '-x'], '/d').share).toEqual([
      '/d/--odd name',
      '/d/-x',
    ]);
    expect(parseLaunchArgs([EXE, '--', '/a'], '/').share).toEqual([]);
  });

  it('deduplicates in the order given', () => {
    expect(parseLaunchArgs([EXE, '--share', '/b', '/a', '/b/', '/a', '/c'], '/').share).toEqual([
      '/b',
      '/a',
      '/c',
    ]);
  });

  it('reads file:// URLs as paths and skips empty words', () => {
    const request = parseLaunchArgs(
      [EXE, '--share', 'file:///home/ann/My%20Files/%C3%A9t%C3%A9.txt', ''],
      '/',
    );
    expect(request.share).toEqual(['/home/ann/My Files/été.txt']);
  });

  it('reads --view NAME and --view=NAME, and only view names', () => {
    expect(parseLaunchArgs([EXE, '--view', 'settings'], '/').openView).toBe('settings');
    expect(parseLaunchArgs([EXE, '--view', 'deleted'], '/').openView).toBe('deleted');
    expect(parseLaunchArgs([EXE, '--view=shares', '--hidden'], '/')).toEqual({
      share: [],
      hidden: true,
      openView: 'shares',
    });
    const stray = parseLaunchArgs([EXE, '--view', 'nowhere', '--share', '/a'], '/');
    expect(stray).toEqual({ share: ['/a'], hidden: false, openView: null });
  });

  it('reads Windows paths with the win32 rules: Explorer passes "%1", one per process', () => {
    const win = { platform: 'win32' as const };
    const exe = 'C:\\Users\\Ann\\AppData\\Local\\Programs\\mch-sync\\mch-sync.exe';
    expect(
      parseLaunchArgs([exe, '--share', 'C:\\Users\\Ann\\My Cloud\\Résumé «final».docx'], 'C:\\', win),
    ).toEqual({
      share: ['C:\\Users\\Ann\\My Cloud\\Résumé «final».docx'],
      hidden: false,
      openView: null,
    });
    expect(
      parseLaunchArgs([exe, '--share', '..\\b.txt', 'c/d.txt'], 'C:\\Users\\Ann\\MyCloud', win).share,
    ).toEqual(['C:\\Users\\Ann\\b.txt', 'C:\\Users\\Ann\\MyCloud\\c\\d.txt']);
  });
});

describe('the second start forwards its own parsed paths', () => {
  it('round-trips through structured data', () => {
    const request = parseLaunchArgs([EXE, '--share', '/home/ann/a b.txt', '/home/ann/ö'], '/');
    const data: unknown = structuredClone(shareRequestData(request));
    expect(readShareRequestData(data)).toEqual(['/home/ann/a b.txt', '/home/ann/ö']);
    expect(readShareRequestData({ share: [] })).toEqual([]);
  });

  it('refuses anything but a bounded list of absolute path strings', () => {
    expect(readShareRequestData(undefined)).toBeNull();
    expect(readShareRequestData(null)).toBeNull();
    expect(readShareRequestData(['/a'])).toBeNull();
    expect(readShareRequestData({ share: '/a' })).toBeNull();
    expect(readShareRequestData({ share: ['relative/a'] })).toBeNull();
    expect(readShareRequestData({ share: ['/a', 3] })).toBeNull();
    expect(readShareRequestData({ share: [''] })).toBeNull();
    expect(readShareRequestData({ share: ['/a\0b'] })).toBeNull();
    expect(readShareRequestData({ share: [`/${'x'.repeat(40_000)}`] })).toBeNull();
    const many = Array.from({ length: MAX_FORWARDED_PATHS + 1 }, (_, index) => `/f${index}`);
    expect(readShareRequestData({ share: many })).toBeNull();
    expect(readShareRequestData({ share: many.slice(1) })).toHaveLength(MAX_FORWARDED_PATHS);
  });

  it('on Windows accepts only paths with a drive or a UNC share', () => {
    const win = { platform: 'win32' as const };
    expect(readShareRequestData({ share: ['C:\\a\\b.txt', '\\\\nas\\home\\c'] }, win)).toEqual([
      'C:\\a\\b.txt',
      '\\\\nas\\home\\c',
    ]);
    expect(readShareRequestData({ share: ['\\a'] }, win)).toBeNull();
    expect(readShareRequestData({ share: ['C:a'] }, win)).toBeNull();
    expect(readShareRequestData({ share: ['/a'] }, win)).toBeNull();
  });
});

describe('ShareBatcher', () => {
  function batcher(): { clock: ManualClock; batches: string[][]; share: ShareBatcher } {
    const clock = new ManualClock();
    const batches: string[][] = [];
    const share = new ShareBatcher({ clock, onBatch: (paths) => batches.push(paths) });
    return { clock, batches, share };
  }

  it('joins requests 300 ms apart or closer into one batch, deduplicated in order', () => {
    const { clock, batches, share } = batcher();
    share.add(['/a']);
    clock.advance(200);
    share.add(['/b', '/a']);
    clock.advance(250);
    share.add(['/c']);
    clock.advance(299);
    expect(batches).toEqual([]);
    clock.advance(1);
    expect(batches).toEqual([['/a', '/b', '/c']]);
  });

  it('delivers separately what comes after the quiet period', () => {
    const { clock, batches, share } = batcher();
    share.add(['/a']);
    clock.advance(300);
    share.add(['/a']);
    clock.advance(300);
    expect(batches).toEqual([['/a'], ['/a']]);
  });

  it('delivers at most 2 s after the first request of a steady stream', () => {
    const { clock, batches, share } = batcher();
    for (let index = 0; index < 10; index += 1) {
      share.add([`/f${index}`]);
      clock.advance(250);
    }
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual(['/f0', '/f1', '/f2', '/f3', '/f4', '/f5', '/f6', '/f7']);
    clock.advance(300);
    expect(batches[1]).toEqual(['/f8', '/f9']);
  });

  it('ignores empty requests, flushes on demand and drops what waits on close', () => {
    const { clock, batches, share } = batcher();
    share.add([]);
    clock.advance(1000);
    expect(batches).toEqual([]);
    share.add(['/a']);
    share.flush();
    expect(batches).toEqual([['/a']]);
    share.add(['/b']);
    share.close();
    share.add(['/c']);
    clock.advance(5000);
    expect(batches).toEqual([['/a']]);
    expect(clock.pendingTimers).toBe(0);
  });
});
