// The live service's poll: every remote listing revalidated, the disk read only where something changed.
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import type { LocalWatcher, LocalWatcherOptions } from '../../../../app/watcher/local-watcher.ts';
import { waitFor } from '../../../helpers/live-pair.ts';

afterEach(async () => {});

/** A watcher that never reports anything: what the service learns of the disk comes from its passes. */
function silentWatcher(_options: LocalWatcherOptions): LocalWatcher {
  return {
    ready: Promise.resolve(),
    close: async () => {},
    expectEcho: () => () => {},
    flush: () => {},
    unwatchedPaths: () => [],
    deletionsOut: async () => {},
    deletionsWaiting: () => false,
  };
}

describe('the poll of a watched folder', () => {
  it('costs one 304 per folder when nothing changed, and brings a remote change without reading the rest of the disk', async ({
    newLivePair,
  }) => {
    const live = newLivePair({ pollMs: 200, watch: silentWatcher });
    const { pair } = live;
    pair.writeLocal('top.txt', 'top');
    pair.writeLocal('docs/a.txt', 'alpha');
    pair.writeLocal('photos/2024/p.txt', 'photo');
    await live.start({ synced: true });

    // The first poll lists the folders the first pass uploaded into; the polls after it find nothing.
    const afterPasses = async (count: number): Promise<void> => {
      const target = live.passes.length + count;
      await waitFor(`${count} more polls`, () => (live.passes.length >= target ? true : undefined));
      await live.live.whenIdle();
    };
    await afterPasses(1);
    const quiet = pair.client.log.length;
    await afterPasses(2);
    const answers = pair.client.log.slice(quiet).filter((entry) => entry.message === 'answer');
    // The synced folder, docs/, photos/ and photos/2024/, each poll.
    expect(answers.length).toBeGreaterThanOrEqual(8);
    expect(answers.every((entry) => entry.request.includes('/filesSearch/parents'))).toBe(true);
    expect(answers.map((entry) => entry.status).every((status) => status === 304)).toBe(true);

    // A local file the watcher did not report, beside a folder that changes on the device.
    pair.writeLocal('unreported.txt', 'not watched');
    pair.writeLocal('docs/unreported.txt', 'not watched either');
    await pair.writeRemote('photos/2024/new.txt', 'from elsewhere');
    await waitFor('the remote file to arrive', () =>
      pair.localTree()['photos/2024/new.txt'] === undefined ? undefined : true,
    );
    await live.live.whenIdle();
    // The poll read only around photos/2024/ on disk: the unreported files elsewhere are still unknown.
    const remote = await pair.remoteTree();
    expect(Object.keys(remote)).not.toContain('unreported.txt');
    expect(Object.keys(remote)).not.toContain('docs/unreported.txt');

    // A full pass (sync now) reads everything.
    live.live.syncNow();
    const synced = await live.waitUntilSynced();
    expect(synced['unreported.txt']).toBe('not watched');
    expect(synced['docs/unreported.txt']).toBe('not watched either');
  });
});
