// Unit tests of the addresses the device advertises (device-api.md §1).
import { describe, expect, it } from 'vitest';
import { deriveUrls } from '../../../device/urls.ts';

describe('deriveUrls', () => {
  it('advertises localhost for a loopback base, with the relay under /proxy/{deviceId}', () => {
    const urls = deriveUrls('http://127.0.0.1:4780', 'dev-1');
    expect(urls.config).toBe('http://127.0.0.1:4780/config/v1/config');
    expect(urls.network).toEqual({
      internalDNSName: 'localhost:4780',
      internalURL: 'http://localhost:4780',
      proxyURL: 'http://127.0.0.1:4780/proxy/dev-1',
      externalURI: 'http://127.0.0.1:4780/proxy/dev-1',
    });
    expect(urls.shareLink('s1')).toBe('http://127.0.0.1:4780/s/s1');
  });

  it('derives every address from a public base, path included', () => {
    const urls = deriveUrls('https://cloud.example.org/mch/', 'dev-1');
    expect(urls.base).toBe('https://cloud.example.org/mch');
    expect(urls.identity).toBe('https://cloud.example.org/mch/identity');
    expect(urls.network.internalDNSName).toBe('cloud.example.org');
    expect(urls.network.proxyURL).toBe('https://cloud.example.org/mch/proxy/dev-1');
  });
});
