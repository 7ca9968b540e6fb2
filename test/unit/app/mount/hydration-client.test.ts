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

  it('reads free, with its mtime in ns as a decimal string', () => {
    expect(
      parseServiceLine('{"type":"free","req":7,"path":"a/b.txt","size":12,"mtimeNs":"1709618828123456789"}'),
    ).toEqual({ type: 'free', req: 7, path: 'a/b.txt', size: 12, mtimeNs: '1709618828123456789' });
  });

  it.each([
    ['not JSON', 'nope'],
    ['a free without its mtime', '{"type":"free","req":1,"path":"a","size":1}'],
    ['a free whose mtime is a number', '{"type":"free","req":1,"path":"a","size":1,"mtimeNs":5}'],
    ['a free whose mtime is not a decimal', '{"type":"free","req":1,"path":"a","size":1,"mtimeNs":"1e9"}'],
    ['a free with an absolute path', '{"type":"free","req":1,"path":"/etc/passwd","size":1,"mtimeNs":"1"}'],
    [
      'a free with a path out of the cache',
      '{"type":"free","req":1,"path":"a/../../x","size":1,"mtimeNs":"1"}',
    ],
    ['a free with an empty path', '{"type":"free","req":1,"path":"","size":1,"mtimeNs":"1"}'],
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
