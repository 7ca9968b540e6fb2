// The hydrator against the real device: placeholders of an on-demand pair filled in place, and every way that fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { Hydrator, type HydrationEvent, type HydratorOptions } from '../../../../app/on-demand/hydrator.ts';
import { isPlaceholder, writePlaceholder } from '../../../../app/sync/local/placeholders.ts';
import { clientFor, deviceClientAt } from '../../../helpers/api-client.ts';
import { startHostileServer } from '../../../helpers/hostile-server.ts';
import { mountTmpfs, mountUnavailable, unmountAll } from '../../../helpers/mounts.ts';
import { expectSynced } from '../../../helpers/expect-sync.ts';
import { it } from '../../../helpers/fixtures.ts';
import {
  contentGets,
  distinctText,
  expectHydrated,
  expectIntactPlaceholder,
  expectWholeHydration,
  hydrateEvents,
  placeholderPair,
  startStallingProxy,
} from '../../../helpers/on-demand.ts';
import { startDeviceProxy, type SyncPair } from '../../../helpers/sync-pair.ts';

const TIMEOUT = { timeout: 60_000 };
const BIG = distinctText(3 * 1024 * 1024, 'big');

function hydratorOf(pair: SyncPair, options: Partial<HydratorOptions> = {}): Hydrator {
  return new Hydrator({
    client: pair.client.device,
    index: pair.index,
    cacheRoot: pair.localRoot,
    ...options,
  });
}

/** The content requests the pair's client made since `before` (an index into its record). */
function getsSince(pair: SyncPair, before: number): string[] {
  return contentGets(pair.client.requests().slice(before));
}

function failure(events: HydrationEvent[]): HydrationEvent | undefined {
  return events.find((event) => event.type === 'failed');
}

/** A loopback address where nothing listens. */
async function closedBase(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('the hydrator', () => {
  it(
    'fills a placeholder in place: the content, no mark, the row’s inode, size and mtime, and a quiet pass after',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'notes/a.txt': 'alpha content' });
      const events = await hydrateEvents(hydratorOf(pair), 'notes/a.txt');
      expectWholeHydration(events, 'alpha content'.length);
      expectHydrated(pair, 'notes/a.txt', 'alpha content');
      const { report, writes } = await pair.syncCounting();
      expect(report.status).toBe('synced');
      expect(writes).toEqual([]);
    },
  );

  it(
    'streams a big file: started first, progress in several rising steps up to the size',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'big.txt': BIG });
      const before = pair.client.requests().length;
      const events = await hydrateEvents(hydratorOf(pair), 'big.txt');
      expectWholeHydration(events, BIG.length);
      expect(events.filter((event) => event.type === 'progress').length).toBeGreaterThan(2);
      expect(getsSince(pair, before)).toHaveLength(1);
      expectHydrated(pair, 'big.txt', BIG);
      const { writes } = await pair.syncCounting();
      expect(writes).toEqual([]);
    },
  );

  it('fills an empty file: started, done, no mark', TIMEOUT, async ({ newPair }) => {
    const pair = await placeholderPair(newPair, { 'empty.txt': '' });
    const events = await hydrateEvents(hydratorOf(pair), 'empty.txt');
    expectWholeHydration(events, 0);
    expectHydrated(pair, 'empty.txt', '');
  });

  it(
    'shares one download between two opens of the same file, and both hear done',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'big.txt': BIG });
      const hydrator = hydratorOf(pair);
      const before = pair.client.requests().length;
      const [first, second] = await Promise.all([
        hydrateEvents(hydrator, 'big.txt'),
        hydrateEvents(hydrator, 'big.txt'),
      ]);
      expect(getsSince(pair, before)).toHaveLength(1);
      expectWholeHydration(first, BIG.length);
      expectWholeHydration(second, BIG.length);
      expect(hydrator.active).toBe(0);
      expectHydrated(pair, 'big.txt', BIG);
    },
  );

  it(
    'lets an open that joins late hear started, where it is, then the rest',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'big.txt': BIG });
      const hydrator = hydratorOf(pair);
      let late: Promise<HydrationEvent[]> | undefined;
      const first = await hydrateEvents(hydrator, 'big.txt', (event) => {
        if (event.type === 'progress' && late === undefined) late = hydrateEvents(hydrator, 'big.txt');
      });
      const second = await (late ?? Promise.reject(new Error('no progress was told')));
      expectWholeHydration(first, BIG.length);
      expectWholeHydration(second, BIG.length);
      expectHydrated(pair, 'big.txt', BIG);
    },
  );

  it(
    'answers done at once, asking nothing, for a file that is whole already',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'a.txt': 'alpha' });
      const hydrator = hydratorOf(pair);
      await hydrateEvents(hydrator, 'a.txt');
      pair.writeLocal('mine.txt', 'made here');
      const before = pair.client.requests().length;
      expect(await hydrateEvents(hydrator, 'a.txt')).toEqual([{ type: 'done' }]);
      expect(await hydrateEvents(hydrator, 'mine.txt')).toEqual([{ type: 'done' }]);
      expect(pair.client.requests().slice(before)).toEqual([]);
      expect(pair.readLocal('mine.txt')).toBe('made here');
    },
  );

  it(
    'ends whole and unmarked at the new name when the file is renamed while it fills',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'big.txt': BIG });
      let renamed = false;
      const events = await hydrateEvents(hydratorOf(pair), 'big.txt', (event) => {
        if (event.type === 'progress' && !renamed) {
          renamed = true;
          pair.renameLocal('big.txt', 'renamed.txt');
        }
      });
      expect(renamed).toBe(true);
      expectWholeHydration(events, BIG.length);
      expect(existsSync(pair.local('big.txt'))).toBe(false);
      expectHydrated(pair, 'renamed.txt', BIG, 'big.txt');
      // The rename goes up as one rename: no content moves either way.
      const { report, writes } = await pair.syncCounting();
      expectSynced(report);
      expect(writes.map((request) => request.split(' ')[0])).toEqual(['PATCH']);
      expect(await pair.remoteTree()).toEqual({ 'renamed.txt': { kind: 'file', text: BIG } });
    },
  );

  it(
    'brings the new version once when the device changed it since the last pass, after a refresh',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'a.txt': 'old content' });
      await pair.writeRemote('a.txt', 'the new, longer content');
      let refreshes = 0;
      const hydrator = hydratorOf(pair, {
        refresh: async () => {
          refreshes++;
          expectSynced(await pair.sync());
        },
      });
      const events = await hydrateEvents(hydrator, 'a.txt');
      expect(refreshes).toBe(1);
      expect(failure(events)).toBeUndefined();
      expectWholeHydration(events, 'the new, longer content'.length);
      expectHydrated(pair, 'a.txt', 'the new, longer content');
      const { writes } = await pair.syncCounting();
      expect(writes).toEqual([]);
    },
  );

  it(
    'lets an open that comes during the refresh join the retried download: one more GET, not two',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'a.txt': 'old content' });
      await pair.writeRemote('a.txt', 'the new, longer content');
      let second: Promise<HydrationEvent[]> | undefined;
      const hydrator = hydratorOf(pair, {
        refresh: async () => {
          expectSynced(await pair.sync());
          // The pass has put the new placeholder in place: an open now must not start a download of its own.
          second = hydrateEvents(hydrator, 'a.txt');
        },
      });
      const before = pair.client.requests().length;
      const first = await hydrateEvents(hydrator, 'a.txt');
      const late = await (second ?? Promise.reject(new Error('no refresh')));
      expectWholeHydration(first, 'the new, longer content'.length);
      expectWholeHydration(late, 'the new, longer content'.length);
      // The first GET is refused (412), the second brings the new version.
      expect(getsSince(pair, before)).toHaveLength(2);
      expectHydrated(pair, 'a.txt', 'the new, longer content');
      const { writes } = await pair.syncCounting();
      expect(writes).toEqual([]);
    },
  );

  it(
    'fails EIO and keeps the placeholder when the device changed it and nothing refreshes',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'a.txt': 'old content' });
      await pair.writeRemote('a.txt', 'the new, longer content');
      const events = await hydrateEvents(hydratorOf(pair), 'a.txt');
      expect(events).toEqual([expect.objectContaining({ type: 'failed', errno: 'EIO' })]);
      expectIntactPlaceholder(pair, 'a.txt');
    },
  );

  it('fails EIO when the device changed it again after the refresh', TIMEOUT, async ({ newPair }) => {
    const pair = await placeholderPair(newPair, { 'a.txt': 'old content' });
    await pair.writeRemote('a.txt', 'second');
    let edits = 0;
    const hydrator = hydratorOf(pair, {
      refresh: async () => {
        await pair.sync();
        await pair.writeRemote('a.txt', `third, edit ${++edits}`);
      },
    });
    const events = await hydrateEvents(hydrator, 'a.txt');
    expect(edits).toBe(1);
    expect(events).toEqual([expect.objectContaining({ type: 'failed', errno: 'EIO' })]);
    expectIntactPlaceholder(pair, 'a.txt');
  });

  it('fails ENETUNREACH at once when offline, asking nothing', TIMEOUT, async ({ newPair }) => {
    const pair = await placeholderPair(newPair, { 'a.txt': 'alpha' });
    const before = pair.client.requests().length;
    const events = await hydrateEvents(hydratorOf(pair, { offline: () => true }), 'a.txt');
    expect(events).toEqual([expect.objectContaining({ type: 'failed', errno: 'ENETUNREACH' })]);
    expect(pair.client.requests().slice(before)).toEqual([]);
    expectIntactPlaceholder(pair, 'a.txt');
  });

  it(
    'fails ENETUNREACH when nothing listens at the device’s address',
    TIMEOUT,
    async ({ newPair, device }) => {
      const pair = await placeholderPair(newPair, { 'a.txt': 'alpha' });
      const away = clientFor(device, { deviceUrl: await closedBase() });
      const events = await hydrateEvents(hydratorOf(pair, { client: away.device, stallMs: 5_000 }), 'a.txt');
      expect(events).toEqual([expect.objectContaining({ type: 'failed', errno: 'ENETUNREACH' })]);
      expectIntactPlaceholder(pair, 'a.txt');
    },
  );

  for (const [when, stallAfter] of [
    ['before any byte', 0],
    ['half way', 1024 * 1024],
  ] as const) {
    it(
      `fails ENETUNREACH after the stall time when the device stops answering ${when}`,
      TIMEOUT,
      async ({ newPair, device }) => {
        const proxy = await startStallingProxy(device.base);
        try {
          const pair = await placeholderPair(newPair, { 'big.txt': BIG }, { deviceUrl: proxy.base });
          proxy.stallAfter = stallAfter;
          const events = await hydrateEvents(hydratorOf(pair, { stallMs: 1000 }), 'big.txt');
          expect(failure(events)).toMatchObject({ errno: 'ENETUNREACH' });
          expect(events.at(-1)?.type).toBe('failed');
          if (stallAfter > 0) expect(events[0]).toEqual({ type: 'started', size: BIG.length });
          expect(proxy.contentRequests.length).toBeGreaterThan(0);
          expectIntactPlaceholder(pair, 'big.txt');
          // Its bytes are all released again: a failed download costs no room.
          expect(statSync(pair.local('big.txt')).blocks).toBe(0);
        } finally {
          await proxy.close();
        }
      },
    );
  }

  it('resumes with a range after one break mid-body and ends whole', TIMEOUT, async ({ newPair, device }) => {
    let cuts = 0;
    const proxy = await startDeviceProxy(device.base, {
      cutAfter: (request) => (/\/content$/.test(request.url) && cuts++ === 0 ? 1024 * 1024 : undefined),
    });
    try {
      const pair = await placeholderPair(newPair, { 'big.txt': BIG }, { deviceUrl: proxy.base });
      const events = await hydrateEvents(hydratorOf(pair), 'big.txt');
      expectWholeHydration(events, BIG.length);
      const gets = proxy.requests.filter((request) => /\/content$/.test(request.url));
      expect(gets).toHaveLength(2);
      expect(gets[1]?.headers['range']).toMatch(/^bytes=\d+-$/);
      expectHydrated(pair, 'big.txt', BIG);
    } finally {
      await proxy.close();
    }
  });

  it(
    'leaves a placeholder of the row’s size and time when the connection keeps dropping mid-body',
    TIMEOUT,
    async ({ newPair, device }) => {
      let cuts = 0;
      const proxy = await startDeviceProxy(device.base, {
        // The first answer breaks half way, every later one before its first byte: the retries run out.
        cutAfter: (request) =>
          /\/content$/.test(request.url) ? (cuts++ === 0 ? 1024 * 1024 : 0) : undefined,
      });
      try {
        const pair = await placeholderPair(newPair, { 'big.txt': BIG }, { deviceUrl: proxy.base });
        const events = await hydrateEvents(hydratorOf(pair), 'big.txt');
        expect(events[0]).toEqual({ type: 'started', size: BIG.length });
        expect(events.at(-1)).toMatchObject({ type: 'failed', errno: 'ENETUNREACH' });
        expect(cuts).toBeGreaterThan(1);
        expectIntactPlaceholder(pair, 'big.txt');
        const { writes } = await pair.syncCounting();
        expect(writes).toEqual([]);
      } finally {
        await proxy.close();
      }
    },
  );

  for (const [what, body] of [
    ['shorter', 'alpha'],
    ['longer', 'alpha content, and then some'],
  ] as const) {
    it(
      `fails EIO, the placeholder kept, when the content is ${what} than the placeholder and of no stated length`,
      TIMEOUT,
      async ({ newPair }) => {
        const pair = await placeholderPair(newPair, { 'a.txt': 'alpha content' });
        // Chunked, without Content-Length: only where the bytes end can tell.
        const server = await startHostileServer((_request, response) => {
          response.writeHead(200, { 'content-type': 'application/octet-stream' });
          response.end(body);
        });
        try {
          const events = await hydrateEvents(
            hydratorOf(pair, { client: deviceClientAt(server.base) }),
            'a.txt',
          );
          expect(events.at(-1)).toMatchObject({ type: 'failed', errno: 'EIO' });
          expectIntactPlaceholder(pair, 'a.txt');
        } finally {
          await server.close();
        }
      },
    );
  }

  it(
    'fails ENOENT when the file is gone from the device, the placeholder kept',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'a.txt': 'alpha' });
      await pair.removeRemote('a.txt');
      const events = await hydrateEvents(hydratorOf(pair), 'a.txt');
      expect(events).toEqual([expect.objectContaining({ type: 'failed', errno: 'ENOENT' })]);
      expectIntactPlaceholder(pair, 'a.txt');
    },
  );

  it(
    'fails for a path that is missing or leaves the cache folder, touching nothing',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = await placeholderPair(newPair, { 'a.txt': 'alpha' });
      const outside = join(pair.dir, 'outside.txt');
      writeFileSync(outside, 'not the cache’s');
      symlinkSync(outside, pair.local('link.txt'));
      const hydrator = hydratorOf(pair);
      const before = pair.client.requests().length;
      for (const path of [
        'missing.txt',
        '../outside.txt',
        'a.txt/../../outside.txt',
        '/etc/hostname',
        'link.txt',
        '',
      ]) {
        const events = await hydrateEvents(hydrator, path);
        expect(events, path).toHaveLength(1);
        expect(events[0], path).toMatchObject({ type: 'failed' });
        expect(['ENOENT', 'EIO']).toContain((events[0] as { errno: string }).errno);
      }
      expect(pair.client.requests().slice(before)).toEqual([]);
      expect(readFileSync(outside, 'utf8')).toBe('not the cache’s');
      expectIntactPlaceholder(pair, 'a.txt');
    },
  );

  it('fails EIO for a placeholder the index does not know, asking nothing', TIMEOUT, async ({ newPair }) => {
    const pair = await placeholderPair(newPair, { 'a.txt': 'alpha' });
    await writePlaceholder(pair.local('stray.txt'), { size: 10, mTimeMs: Date.UTC(2024, 1, 1) });
    const before = pair.client.requests().length;
    const events = await hydrateEvents(hydratorOf(pair), 'stray.txt');
    expect(events).toEqual([expect.objectContaining({ type: 'failed', errno: 'EIO' })]);
    expect(pair.client.requests().slice(before)).toEqual([]);
    expect(isPlaceholder(pair.local('stray.txt'))).toBe(true);
  });

  it.skipIf(mountUnavailable() !== undefined)(
    'fails ENOSPC on a full disk, the placeholder kept without a block, and fills it once there is room',
    TIMEOUT,
    async ({ newPair }) => {
      const pair = newPair({ engine: { onDemand: { keepsContent: () => false } } });
      // The cache folder on a disk of 1 MiB: a 3 MiB placeholder fits (sparse), its content does not.
      mountTmpfs(pair.localRoot, 1);
      try {
        await pair.writeRemote('big.bin', BIG);
        expectSynced(await pair.sync());
        const events = await hydrateEvents(hydratorOf(pair), 'big.bin');
        expect(failure(events)).toMatchObject({ type: 'failed', errno: 'ENOSPC' });
        expectIntactPlaceholder(pair, 'big.bin');
        // The bytes written before the disk filled are released: the space is the disk's again.
        expect(statSync(pair.local('big.bin')).blocks).toBe(0);
        const before = pair.client.requests().length;
        expectSynced(await pair.sync());
        expect(
          pair.client
            .requests()
            .slice(before)
            .filter((request) => !request.startsWith('GET')),
        ).toEqual([]);
        const grown = spawnSync('mount', ['-o', 'remount,size=8m', pair.localRoot], { encoding: 'utf8' });
        expect(grown.stderr).toBe('');
        expectWholeHydration(await hydrateEvents(hydratorOf(pair), 'big.bin'), BIG.length);
        expectHydrated(pair, 'big.bin', BIG);
        expectSynced(await pair.sync());
      } finally {
        unmountAll(pair.localRoot);
      }
    },
  );
});
