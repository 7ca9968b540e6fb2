// Unit tests of the home and relay options of mch-device (issue #33) and the addresses they advertise.
import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../../../device/cli.ts';
import { parseLatency, parseRate } from '../../../device/forwarder.ts';
import { deriveUrls } from '../../../device/urls.ts';

describe('--home and --relay', () => {
  it('are off by default', () => {
    const options = parseCliArgs([]);
    expect(options.home).toBeUndefined();
    expect(options.relay).toBeUndefined();
  });

  it('read an address with or without a port, and the relay latency and rate', () => {
    const options = parseCliArgs([
      '--home',
      '127.0.0.2:4781',
      '--relay',
      '127.0.0.3',
      '--relay-latency',
      '40ms',
      '--relay-rate',
      '5MB/s',
    ]);
    expect(options.home).toEqual({ host: '127.0.0.2', port: 4781 });
    expect(options.relay).toEqual({ host: '127.0.0.3', port: 0, latencyMs: 40, bytesPerSecond: 5_000_000 });
    expect(parseCliArgs(['--relay', '[::1]:9']).relay).toEqual({ host: '::1', port: 9, latencyMs: 0 });
  });

  it.each([
    [['--home', '127.0.0.2:'], /--home takes HOST or HOST:PORT/],
    [['--relay', 'a:b:c'], /--relay takes HOST or HOST:PORT/],
    [['--home', '127.0.0.2:70000'], /--home's port must be a whole number from 0 to 65535/],
    [['--relay-latency', '40ms'], /--relay-latency and --relay-rate go with --relay/],
    [['--relay', '127.0.0.3', '--relay-latency', 'soon'], /--relay-latency takes a latency such as 40ms/],
    [['--relay', '127.0.0.3', '--relay-latency', '2min'], /--relay-latency takes a latency/],
    [['--relay', '127.0.0.3', '--relay-rate', '5GB'], /--relay-rate takes a rate such as 5MB\/s/],
    [['--relay', '127.0.0.3', '--relay-rate', '10B/s'], /at least 1024 B\/s/],
  ])('reject %j with a clear message', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});

describe('parseLatency and parseRate', () => {
  it('take milliseconds or seconds, and decimal byte rates', () => {
    expect(parseLatency('40ms')).toBe(40);
    expect(parseLatency('0.2s')).toBe(200);
    expect(parseLatency('15')).toBe(15);
    expect(parseRate('5MB/s')).toBe(5_000_000);
    expect(parseRate('500kB/s')).toBe(500_000);
    expect(parseRate('2048')).toBe(2048);
    expect(() => parseLatency('61s')).toThrow(/at most 60s/);
  });
});

describe('deriveUrls with separate addresses', () => {
  it('advertises the home address as internalDNSName and the relay, with /proxy/{deviceId}, as proxyURL', () => {
    const urls = deriveUrls('http://127.0.0.1:4780', 'dev-1', {
      home: '127.0.0.2:4781',
      relay: 'http://127.0.0.3:4782',
    });
    expect(urls.network).toEqual({
      internalDNSName: '127.0.0.2:4781',
      internalURL: 'http://127.0.0.2:4781',
      proxyURL: 'http://127.0.0.3:4782/proxy/dev-1',
      externalURI: 'http://127.0.0.3:4782/proxy/dev-1',
    });
    // The services themselves stay on the base.
    expect(urls.config).toBe('http://127.0.0.1:4780/config/v1/config');
  });
});
