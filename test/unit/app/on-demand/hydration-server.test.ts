// The hydration server's pure parts: what it takes for a hydrate request from the mount, and which progress lines it sends.
import { describe, expect, it } from 'vitest';
import {
  parseHydrateRequest,
  progressThinner,
  PROGRESS_STEP_BYTES,
} from '../../../../app/on-demand/hydration-server.ts';

const REQUEST = { type: 'hydrate', req: 7, path: 'notes/a.txt', pid: 4242, process: 'cat' };

describe('parseHydrateRequest', () => {
  it('takes a request line as the mount sends it', () => {
    expect(parseHydrateRequest(JSON.stringify(REQUEST))).toEqual(REQUEST);
  });

  it('keeps only the fields of a request', () => {
    expect(parseHydrateRequest(JSON.stringify({ ...REQUEST, extra: 'x' }))).toEqual(REQUEST);
  });

  it('takes request 0 and any path text (the hydrator judges paths)', () => {
    expect(parseHydrateRequest(JSON.stringify({ ...REQUEST, req: 0, path: '../x' }))).toEqual({
      ...REQUEST,
      req: 0,
      path: '../x',
    });
  });

  it.each([
    ['not JSON', 'hydrate notes/a.txt'],
    ['half a line', JSON.stringify(REQUEST).slice(0, 20)],
    ['empty', ''],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"hydrate"'],
    ['an array', JSON.stringify([REQUEST])],
  ])('ignores %s', (_name, line) => {
    expect(parseHydrateRequest(line)).toBeUndefined();
  });

  it.each([
    ['another type', { type: 'started' }],
    ['no type', { type: undefined }],
    ['no req', { req: undefined }],
    ['a req as text', { req: '7' }],
    ['a fractional req', { req: 7.5 }],
    ['a negative req', { req: -1 }],
    ['a req past the safe integers', { req: 2 ** 53 }],
    ['no path', { path: undefined }],
    ['a path that is no text', { path: ['notes', 'a.txt'] }],
    ['no pid', { pid: undefined }],
    ['a pid as text', { pid: '4242' }],
    ['a negative pid', { pid: -5 }],
    ['no process', { process: undefined }],
    ['a process that is no text', { process: 1 }],
  ])('ignores a request with %s', (_name, change) => {
    expect(parseHydrateRequest(JSON.stringify({ ...REQUEST, ...change }))).toBeUndefined();
  });
});

describe('progressThinner', () => {
  it('lets the first progress through, then one per MB, and the last', () => {
    const keep = progressThinner();
    const step = PROGRESS_STEP_BYTES;
    const kept = [
      keep({ type: 'started', size: 3 * step + 10 }),
      keep({ type: 'progress', bytes: 65_536 }),
      keep({ type: 'progress', bytes: 131_072 }),
      keep({ type: 'progress', bytes: step + 65_536 }),
      keep({ type: 'progress', bytes: step + 131_072 }),
      keep({ type: 'progress', bytes: 3 * step + 10 }),
      keep({ type: 'done' }),
    ];
    expect(kept).toEqual([true, true, false, true, false, true, true]);
  });
});
