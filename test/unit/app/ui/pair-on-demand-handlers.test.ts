// Files on demand's calls: what reaches the handlers (and what is refused at the boundary), a pair turned on demand with its service stopped around the move and listed meanwhile, the cache limit written to the record, a new pair prepared before its first pass.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventName, InvokeName, PairView } from '../../../../common/contract.ts';
import { dispatch, type ContractHandlers } from '../../../../app/ui/dispatch.ts';
import type { HandlerCore } from '../../../../app/ui/handler-core.ts';
import { registerFolderPair } from '../../../../app/profile/folder-pairs.ts';
import type { PairStartOptions, StoppedWork } from '../../../../app/ui/pairs/pair-start.ts';
import { readPairOnDemand, updatePairOnDemand } from '../../../../app/profile/pair-on-demand.ts';
import { readPairSelection } from '../../../../app/profile/pair-selection.ts';
import {
  newPairPreparation,
  pairOnDemandHandlers,
  type OnDemandOps,
} from '../../../../app/ui/pairs/pair-on-demand-handlers.ts';

const localRoot = '/home/ann/MyCloud';
const UNAVAILABLE =
  'libfuse.so.2 is not installed. Install libfuse2 and fuse3 (Debian, Ubuntu: sudo apt install libfuse2 fuse3), or use selective sync.';

function pairView(overrides: Partial<PairView> = {}): PairView {
  return {
    id: 'p1',
    localRoot,
    remoteFolder: '/MyCloud',
    state: 'idle',
    words: 'Up to date',
    detail: null,
    paused: false,
    progress: null,
    lastSyncAtMs: 1,
    itemsSynced: 3,
    issueCount: 0,
    conflictCount: 0,
    leftOut: { ignored: 0, systemFiles: 0 },
    hold: null,
    answering: null,
    selection: null,
    onDemand: null,
    ...overrides,
  };
}

/** A core with one pair whose manager records what is asked of it. */
function fakeCore(profileDir: string) {
  const seen: string[] = [];
  const events: Array<{ name: EventName; payload: unknown }> = [];
  let switching: PairView | null = null;
  const manager = {
    selectionTarget: (id: string) => {
      if (id !== 'p1') throw new Error('no such pair');
      return { pair: { localRoot, remoteFolder: '/MyCloud', indexPath: '' }, index: undefined };
    },
    view: () => switching ?? pairView(),
    views: () => [manager.view()],
    control: (_id: string, action: (live: { syncNow(): void }) => void) =>
      action({ syncNow: () => seen.push('syncNow') }),
    whileStopped: async (_id: string, during: PairView, work: StoppedWork) => {
      switching = during;
      // Stopping the service waits for its pass, as the manager's does.
      await Promise.resolve();
      seen.push('stopped');
      try {
        await work(
          { localRoot, remoteFolder: '/MyCloud', indexPath: '' },
          { start: { profileDir } as PairStartOptions, lock: { path: '', release() {}, renew() {} } },
        );
      } finally {
        switching = null;
        seen.push('started');
      }
    },
  };
  const core = {
    options: { profileDir },
    connection: () => ({ pairs: manager }),
    emit: (name: EventName, payload: unknown) => events.push({ name, payload }),
    pairViews: () => manager.views(),
  } as unknown as HandlerCore;
  return { core, seen, events };
}

function ops(overrides: Partial<OnDemandOps> & { made?: string[] } = {}): OnDemandOps {
  return {
    unavailable: overrides.unavailable ?? (() => undefined),
    make:
      overrides.make ??
      ((_profile, root) => {
        overrides.made?.push(root);
        return Promise.resolve();
      }),
    makeWhole: overrides.makeWhole ?? (() => Promise.reject(new Error('not asked to make it whole'))),
  };
}

/** Handlers that record the request they were given and answer nothing else. */
async function codeOf(name: InvokeName, request: unknown): Promise<string | null> {
  const handlers = new Proxy({} as ContractHandlers, {
    get: () => () => Promise.resolve({}),
  });
  const result = await dispatch(handlers, name, request);
  return result.ok ? null : result.error.code;
}

describe('at the boundary', () => {
  it('takes a new pair on demand, but not with folders left out (on demand, every folder shows)', async () => {
    const pair = { localRoot, remoteFolder: '/MyCloud' };
    expect(await codeOf('pairs:add', { ...pair, onDemand: true })).toBeNull();
    expect(await codeOf('pairs:add', { ...pair, onDemand: false, excluded: ['Videos'] })).toBeNull();
    expect(await codeOf('pairs:add', { ...pair, onDemand: true, excluded: ['Videos'] })).toBe(
      'CONTRACT_BAD_REQUEST',
    );
    expect(await codeOf('pairs:add', { ...pair, onDemand: 'yes' })).toBe('CONTRACT_BAD_REQUEST');
  });

  it('takes a cache limit in whole bytes, or null for none', async () => {
    expect(await codeOf('onDemand:cacheLimit', { pairId: 'p1', bytes: 10_000_000_000 })).toBeNull();
    expect(await codeOf('onDemand:cacheLimit', { pairId: 'p1', bytes: null })).toBeNull();
    for (const bytes of [0, -1, 1.5, '10GB', 2e15]) {
      expect(await codeOf('onDemand:cacheLimit', { pairId: 'p1', bytes })).toBe('CONTRACT_BAD_REQUEST');
    }
  });

  it('turns on a named pair, and asks nothing more of support', async () => {
    expect(await codeOf('onDemand:turnOn', { pairId: 'p1' })).toBeNull();
    expect(await codeOf('onDemand:turnOn', { pairId: '' })).toBe('CONTRACT_BAD_REQUEST');
    expect(await codeOf('onDemand:turnOn', { pairId: 'p1', off: true })).toBe('CONTRACT_BAD_REQUEST');
    expect(await codeOf('onDemand:turnOff', { pairId: 'p1' })).toBeNull();
    expect(await codeOf('onDemand:turnOff', { pairId: '' })).toBe('CONTRACT_BAD_REQUEST');
    expect(await codeOf('onDemand:turnOff', { pairId: 'p1', keep: true })).toBe('CONTRACT_BAD_REQUEST');
    expect(await codeOf('onDemand:support', {})).toBeNull();
    expect(await codeOf('onDemand:support', { pairId: 'p1' })).toBe('CONTRACT_BAD_REQUEST');
  });
});

describe('the handlers', () => {
  let profile: string;

  beforeEach(async () => {
    profile = mkdtempSync(join(tmpdir(), 'mch-on-demand-handlers-'));
    await registerFolderPair(profile, { localRoot, remoteFolder: '/MyCloud' });
  });

  afterEach(() => rmSync(profile, { recursive: true, force: true }));

  it('onDemand:support says why not in the window’s words', async () => {
    const { core } = fakeCore(profile);
    const handlers = pairOnDemandHandlers(core, ops({ unavailable: () => UNAVAILABLE }));
    expect(await handlers['onDemand:support']({})).toMatchObject({
      available: false,
      reason: expect.stringMatching(
        /^libfuse.so.2 is not installed\..*Use Choose folders instead\.$/,
      ) as unknown,
    });
  });

  it('onDemand:turnOn moves the files with the pair’s service stopped, listed as switching meanwhile', async () => {
    const { core, seen, events } = fakeCore(profile);
    const made: string[] = [];
    const handlers = pairOnDemandHandlers(
      core,
      ops({
        make: (_profile, root) => {
          seen.push('make');
          made.push(root);
          // What the window is told while the files move: the pair, busy, in words.
          expect(events.at(-1)?.payload).toEqual([
            expect.objectContaining({ id: 'p1', state: 'scanning', words: 'Turning on files on demand…' }),
          ]);
          return Promise.resolve();
        },
      }),
    );
    await handlers['onDemand:turnOn']({ pairId: 'p1' });
    expect(seen).toEqual(['stopped', 'make', 'started']);
    expect(made).toEqual([localRoot]);
    expect(events.at(-1)).toEqual({ name: 'pairs:changed', payload: [pairView()] });
  });

  it('onDemand:turnOn starts the pair again when the move fails, and says why', async () => {
    const { core, seen } = fakeCore(profile);
    const failing = ops({ make: () => Promise.reject(new Error('EXDEV')) });
    await expect(pairOnDemandHandlers(core, failing)['onDemand:turnOn']({ pairId: 'p1' })).rejects.toThrow(
      'EXDEV',
    );
    expect(seen).toEqual(['stopped', 'started']);
  });

  it('onDemand:turnOn refuses where files on demand cannot work, before stopping anything', async () => {
    const { core, seen } = fakeCore(profile);
    const handlers = pairOnDemandHandlers(core, ops({ unavailable: () => UNAVAILABLE }));
    await expect(handlers['onDemand:turnOn']({ pairId: 'p1' })).rejects.toMatchObject({
      code: 'ON_DEMAND_UNAVAILABLE',
      message: expect.stringContaining('Use Choose folders instead.') as unknown,
    });
    expect(seen).toEqual([]);
  });

  it('onDemand:turnOn of a pair on demand already changes nothing', async () => {
    await updatePairOnDemand(profile, localRoot, () => ({ cache: '/c', pinned: [], cacheLimitBytes: null }));
    const { core, seen } = fakeCore(profile);
    const made: string[] = [];
    await pairOnDemandHandlers(core, ops({ made }))['onDemand:turnOn']({ pairId: 'p1' });
    expect(seen).toEqual([]);
    expect(made).toEqual([]);
  });

  it('onDemand:turnOff makes the pair whole with its service stopped, listed as switching meanwhile', async () => {
    await updatePairOnDemand(profile, localRoot, () => ({ cache: '/c', pinned: [], cacheLimitBytes: null }));
    const { core, seen, events } = fakeCore(profile);
    const handlers = pairOnDemandHandlers(
      core,
      ops({
        makeWhole: (pair, { start }) => {
          seen.push(`whole ${pair.localRoot} of ${start.profileDir === profile ? 'the profile' : '?'}`);
          expect(events.at(-1)?.payload).toEqual([
            expect.objectContaining({ id: 'p1', state: 'scanning', words: 'Turning off files on demand…' }),
          ]);
          return Promise.resolve();
        },
      }),
    );
    await handlers['onDemand:turnOff']({ pairId: 'p1' });
    expect(seen).toEqual(['stopped', `whole ${localRoot} of the profile`, 'started']);
    expect(events.at(-1)).toEqual({ name: 'pairs:changed', payload: [pairView()] });
  });

  it('onDemand:turnOff starts the pair again when a file could not come down, and says why', async () => {
    await updatePairOnDemand(profile, localRoot, () => ({ cache: '/c', pinned: [], cacheLimitBytes: null }));
    const { core, seen } = fakeCore(profile);
    const failing = ops({
      makeWhole: () => Promise.reject(new Error('Not every file could be downloaded: nothing was changed.')),
    });
    await expect(pairOnDemandHandlers(core, failing)['onDemand:turnOff']({ pairId: 'p1' })).rejects.toThrow(
      'Not every file could be downloaded',
    );
    expect(seen).toEqual(['stopped', 'started']);
  });

  it('onDemand:turnOff of a pair of whole files changes nothing, even where on demand cannot work', async () => {
    const { core, seen } = fakeCore(profile);
    const handlers = pairOnDemandHandlers(core, ops({ unavailable: () => UNAVAILABLE }));
    expect(await handlers['onDemand:turnOff']({ pairId: 'p1' })).toEqual(pairView());
    expect(seen).toEqual([]);
  });

  it('onDemand:cacheLimit writes the record and asks for a pass, which applies it', async () => {
    await updatePairOnDemand(profile, localRoot, () => ({
      cache: '/c',
      pinned: [{ path: 'a', id: 'id-a' }],
      cacheLimitBytes: 10_000_000_000,
    }));
    const { core, seen } = fakeCore(profile);
    const handlers = pairOnDemandHandlers(core, ops());
    await handlers['onDemand:cacheLimit']({ pairId: 'p1', bytes: 2_500_000_000 });
    expect(readPairOnDemand(profile, localRoot)).toEqual({
      cache: '/c',
      pinned: [{ path: 'a', id: 'id-a' }],
      cacheLimitBytes: 2_500_000_000,
    });
    await handlers['onDemand:cacheLimit']({ pairId: 'p1', bytes: null });
    expect(readPairOnDemand(profile, localRoot)?.cacheLimitBytes).toBeNull();
    expect(seen).toEqual(['syncNow', 'syncNow']);
  });

  it('onDemand:cacheLimit refuses a pair of whole files and writes nothing', async () => {
    const { core, seen } = fakeCore(profile);
    await expect(
      pairOnDemandHandlers(core, ops())['onDemand:cacheLimit']({ pairId: 'p1', bytes: 1_000_000_000 }),
    ).rejects.toMatchObject({ code: 'ON_DEMAND_OFF' });
    expect(readPairOnDemand(profile, localRoot)).toBeUndefined();
    expect(seen).toEqual([]);
  });
});

describe('newPairPreparation', () => {
  let profile: string;

  beforeEach(async () => {
    profile = mkdtempSync(join(tmpdir(), 'mch-on-demand-new-'));
    await registerFolderPair(profile, { localRoot, remoteFolder: '/MyCloud' });
  });

  afterEach(() => rmSync(profile, { recursive: true, force: true }));

  const pair = { localRoot, remoteFolder: '/MyCloud', indexPath: '' };

  it('has nothing to do for a pair of whole files with every folder', () => {
    const { core } = fakeCore(profile);
    expect(newPairPreparation(core, { excluded: [], onDemand: false }, ops())).toBeUndefined();
  });

  it('makes the pair on demand before its first pass', async () => {
    const { core } = fakeCore(profile);
    const made: string[] = [];
    await newPairPreparation(core, { excluded: [], onDemand: true }, ops({ made }))?.(pair);
    expect(made).toEqual([localRoot]);
  });

  it('refuses on demand where it cannot work before anything is recorded', () => {
    const { core } = fakeCore(profile);
    expect(() =>
      newPairPreparation(core, { excluded: [], onDemand: true }, ops({ unavailable: () => UNAVAILABLE })),
    ).toThrow(/Use Choose folders instead/);
  });

  it('writes the folders left out', async () => {
    const { core } = fakeCore(profile);
    const excluded = [{ path: 'Videos', id: 'v1', localCopy: 'keep' as const }];
    await newPairPreparation(core, { excluded, onDemand: false }, ops())?.(pair);
    expect(readPairSelection(profile, localRoot).excluded).toEqual(excluded);
  });
});
