// The mount's reading of the service's lines: each message checked, anything else refused.
import { describe, expect, it } from 'vitest';
import { LineReader, parseServiceLine } from '../../../../app/mount/hydration-client.ts';
import { MAX_LINE_BYTES } from '../../../../app/mount/hydration-protocol.ts';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('parseServiceLine', () => {
  it('reads started, progress, done and failed', () => {
    expect(parseServiceLine('{"type":"started","req":1,"size":10}')).toEqual({
      type: 'started',
      req: 1,
      size: 10,
    });
    expect(parseServiceLine('{"type":"progress","req":1,"bytes":4}')).toEqual({
      type: 'progress',
      req: 1,
      bytes: 4,
    });
    expect(parseServiceLine('{"type":"done","req":2,"extra":true}')).toEqual({ type: 'done', req: 2 });
    expect(parseServiceLine('{"type":"failed","req":3,"errno":"ENETUNREACH","message":"offline"}')).toEqual({
      type: 'failed',
      req: 3,
      errno: 'ENETUNREACH',
      message: 'offline',
    });
  });

  it.each([
    ['not JSON', 'nope'],
    ['an unknown type', '{"type":"hello","req":1}'],
    ['no request id', '{"type":"done"}'],
    ['a negative size', '{"type":"started","req":1,"size":-1}'],
    ['a fractional count', '{"type":"progress","req":1,"bytes":1.5}'],
    ['an errno outside the protocol', '{"type":"failed","req":1,"errno":"EPERM","message":""}'],
    ['an array', '[1]'],
  ])('refuses %s with HYDRATION_SOCKET_FAILED', (_, line) => {
    expect(codeOf(() => parseServiceLine(line))).toBe('HYDRATION_SOCKET_FAILED');
  });
});

describe('LineReader', () => {
  it('gives whole lines across chunks and skips blank ones', () => {
    const reader = new LineReader();
    expect(reader.push('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(reader.push(':2}\n\n')).toEqual(['{"b":2}']);
    expect(reader.push('')).toEqual([]);
  });

  it('refuses a line over the size limit, whole or still coming', () => {
    expect(codeOf(() => new LineReader().push(`${'x'.repeat(MAX_LINE_BYTES + 1)}\n`))).toBe(
      'HYDRATION_SOCKET_FAILED',
    );
    expect(codeOf(() => new LineReader().push('x'.repeat(MAX_LINE_BYTES + 1)))).toBe(
      'HYDRATION_SOCKET_FAILED',
    );
  });
});
