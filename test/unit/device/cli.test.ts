// Unit tests of the mch-device command line.
import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../../../device/cli.ts';

describe('parseCliArgs', () => {
  it('applies the defaults', () => {
    const options = parseCliArgs([]);
    expect(options).toMatchObject({
      port: 4780,
      host: '127.0.0.1',
      users: [],
      tokenTtlSeconds: 86_400,
      uploadTtlSeconds: 86_400,
    });
    expect(options.dataDir).toMatch(/mch-device$/);
  });

  it('reads repeated users, with colons allowed in the password', () => {
    const options = parseCliArgs(['--user', 'a:x', '--user', 'b:p:q', '--port', '0', '--token-ttl', '2']);
    expect(options.users).toEqual([
      { name: 'a', password: 'x' },
      { name: 'b', password: 'p:q' },
    ]);
    expect(options.port).toBe(0);
    expect(options.tokenTtlSeconds).toBe(2);
  });

  it('reads the age after which an idle resumable upload is dropped', () => {
    expect(parseCliArgs(['--upload-ttl', '90']).uploadTtlSeconds).toBe(90);
  });

  it('reads a fault spec and its seed', () => {
    const options = parseCliArgs(['--faults', 'error=0.5,latency=1-2', '--seed', '9']);
    expect(options.faults).toEqual({
      spec: { error: 0.5, reset: 0, lost: 0, latency: { min: 1, max: 2 }, scope: 'device' },
      seed: 9,
    });
    expect(parseCliArgs(['--faults', 'reset=0.1']).faults?.seed).toBeTypeOf('number');
  });

  it.each([
    [['--port', 'x']],
    [['--port', '70000']],
    [['--user', 'nopassword']],
    [['--user', ':pw']],
    [['--public-url', 'not a url']],
    [['--public-url', 'ftp://x']],
    [['--token-ttl', '0']],
    [['--upload-ttl', '0']],
    [['--upload-ttl', '1.5']],
    [['--bogus']],
    [['--seed', '3']],
    [['--faults', 'error=7']],
  ])('refuses %j as a usage error', (argv) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
  });
});
