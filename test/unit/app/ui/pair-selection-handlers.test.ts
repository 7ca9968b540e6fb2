// Selective sync's calls at the boundary: what reaches the handlers, and what is refused as CONTRACT_BAD_REQUEST before it does.
import { describe, expect, it } from 'vitest';
import type { InvokeName } from '../../../../common/contract.ts';
import { dispatch, type ContractHandlers } from '../../../../app/ui/dispatch.ts';

/** Handlers that record the request they were given and answer nothing else. */
function recording(): { handlers: ContractHandlers; seen: Array<{ name: string; request: unknown }> } {
  const seen: Array<{ name: string; request: unknown }> = [];
  const handlers = new Proxy({} as ContractHandlers, {
    get: (_target, name: string) => (request: unknown) => {
      seen.push({ name, request });
      return Promise.resolve({});
    },
  });
  return { handlers, seen };
}

async function codeOf(name: InvokeName, request: unknown): Promise<string | null> {
  const result = await dispatch(recording().handlers, name, request);
  return result.ok ? null : result.error.code;
}

describe('selection:list and selection:preview', () => {
  it('take the pair’s folder itself (an empty path) and a path below it', async () => {
    expect(await codeOf('selection:list', { pairId: 'p1', path: '' })).toBeNull();
    expect(await codeOf('selection:list', { pairId: 'p1', path: 'Photos/2024' })).toBeNull();
    expect(
      await codeOf('selection:preview', { remoteFolder: '/MyCloud', excluded: ['Videos'], path: 'Photos' }),
    ).toBeNull();
  });

  it.each([
    ['an absolute path', { pairId: 'p1', path: '/Photos' }],
    ['a trailing slash', { pairId: 'p1', path: 'Photos/' }],
    ['an empty name', { pairId: 'p1', path: 'Photos//2024' }],
    ['a way up', { pairId: 'p1', path: 'Photos/../..' }],
    ['a dot', { pairId: 'p1', path: './Photos' }],
    ['no pair', { pairId: '', path: 'Photos' }],
    ['a field too many', { pairId: 'p1', path: 'Photos', deep: true }],
  ])('refuses %s', async (_what, request) => {
    expect(await codeOf('selection:list', request)).toBe('CONTRACT_BAD_REQUEST');
  });

  it('refuses a preview of a relative device folder or of excluded paths that are not below it', async () => {
    const request = { remoteFolder: 'MyCloud', excluded: [], path: '' };
    expect(await codeOf('selection:preview', request)).toBe('CONTRACT_BAD_REQUEST');
    expect(
      await codeOf('selection:preview', { remoteFolder: '/MyCloud', excluded: ['/etc'], path: '' }),
    ).toBe('CONTRACT_BAD_REQUEST');
    expect(await codeOf('selection:preview', { remoteFolder: '/MyCloud', path: '' })).toBe(
      'CONTRACT_BAD_REQUEST',
    );
  });
});

describe('selection:set', () => {
  it('passes an include without a choice for the copy, and an exclude with one', async () => {
    const { handlers, seen } = recording();
    const include = { pairId: 'p1', path: 'Photos', include: true, localCopy: null };
    const exclude = { pairId: 'p1', path: 'Photos/2024', include: false, localCopy: 'keep' };
    expect((await dispatch(handlers, 'selection:set', include)).ok).toBe(true);
    expect((await dispatch(handlers, 'selection:set', exclude)).ok).toBe(true);
    expect(seen).toEqual([
      { name: 'selection:set', request: include },
      { name: 'selection:set', request: exclude },
    ]);
  });

  it.each([
    ['an exclude that does not say what becomes of the copy', { include: false, localCopy: null }],
    ['an include with a choice for a copy', { include: true, localCopy: 'remove' }],
    ['a choice that is not one', { include: false, localCopy: 'delete' }],
    ['no include at all', { localCopy: 'keep' }],
  ])('refuses %s', async (_what, fields) => {
    expect(await codeOf('selection:set', { pairId: 'p1', path: 'Photos', ...fields })).toBe(
      'CONTRACT_BAD_REQUEST',
    );
  });

  it('refuses the pair’s folder itself: there is nothing to include or leave out above it', async () => {
    expect(await codeOf('selection:set', { pairId: 'p1', path: '', include: false, localCopy: 'keep' })).toBe(
      'CONTRACT_BAD_REQUEST',
    );
  });
});

describe('selection:askOver', () => {
  it('takes a whole number of bytes, or null for never asking', async () => {
    expect(await codeOf('selection:askOver', { pairId: 'p1', bytes: 500_000_000 })).toBeNull();
    expect(await codeOf('selection:askOver', { pairId: 'p1', bytes: null })).toBeNull();
  });

  it.each([
    ['zero', 0],
    ['a negative size', -1],
    ['a fraction of a byte', 1.5],
    ['words', '500MB'],
    ['more than a petabyte', 2e15],
  ])('refuses %s', async (_what, bytes) => {
    expect(await codeOf('selection:askOver', { pairId: 'p1', bytes })).toBe('CONTRACT_BAD_REQUEST');
  });
});

describe('pairs:add', () => {
  it('takes folders to leave out from the first pass, or none', async () => {
    const pair = { localRoot: '/home/ann/MyCloud', remoteFolder: '/MyCloud' };
    expect(await codeOf('pairs:add', pair)).toBeNull();
    expect(await codeOf('pairs:add', { ...pair, excluded: ['Videos', 'Photos/2019'] })).toBeNull();
    expect(await codeOf('pairs:add', { ...pair, excluded: ['../Other'] })).toBe('CONTRACT_BAD_REQUEST');
  });
});
