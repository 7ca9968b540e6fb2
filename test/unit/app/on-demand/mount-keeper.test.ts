// The mount keeper: the first start's failure is the caller's; a mount process that ends on its own is started again, after a wait that grows.
import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { MountKeeper } from '../../../../app/on-demand/mount-keeper.ts';
import type { RunningMount } from '../../../../app/on-demand/mount-supervisor.ts';
import { MountError } from '../../../../app/mount/mount-errors.ts';

const ARGS = { source: '/c', mountPoint: '/m', socket: '/s', noDownload: [] };

/** A stand-in mount process: `end()` makes it end on its own. */
function fakeMount(): RunningMount & { end: () => void; stopped: boolean } {
  let end = (): void => {};
  const ended = new Promise<number | null>((resolve) => (end = () => resolve(137)));
  const mount = {
    mountPoint: '/m',
    ended,
    stopped: false,
    end,
    stop: async () => {
      mount.stopped = true;
      end();
    },
  };
  return mount;
}

describe('MountKeeper', () => {
  it('throws the first start’s error', async () => {
    const start = async (): Promise<RunningMount> => {
      throw new MountError('MOUNT_POINT_NOT_EMPTY', 'not empty');
    };
    await expect(MountKeeper.start(ARGS, { log: () => {}, start })).rejects.toThrow('not empty');
  });

  it('mounts again after the mount process dies, until stopped', async () => {
    const mounts: Array<ReturnType<typeof fakeMount>> = [];
    let failNext = 1;
    const start = async (): Promise<RunningMount> => {
      if (mounts.length === 1 && failNext-- > 0) throw new MountError('MOUNT_FAILED', 'busy');
      const mount = fakeMount();
      mounts.push(mount);
      return mount;
    };
    const seen: boolean[] = [];
    const keeper = await MountKeeper.start(ARGS, {
      log: () => {},
      start,
      retryMs: 5,
      onChange: (mounted) => seen.push(mounted),
    });
    expect(keeper.mounted).toBe(true);
    mounts[0]?.end();
    // One failed start (busy), then a mount again.
    for (let wait = 0; mounts.length < 2 && wait < 4000; wait++) await sleep(5);
    expect(mounts).toHaveLength(2);
    expect(keeper.mounted).toBe(true);
    expect(seen).toEqual([true, false, true]);
    await keeper.stop();
    expect(mounts[1]?.stopped).toBe(true);
    expect(keeper.mounted).toBe(false);
  });
});
