// Names that could escape a folder, the loopback rule for tokens, and joining device paths to bases.
import { describe, expect, it } from 'vitest';
import { checkName, idSegment, nameProblem } from '../../../../app/api/names.ts';
import { assertTokenSafe, isLoopbackHost, joinUrl } from '../../../../app/api/http/url-safety.ts';

describe('names', () => {
  it('accepts ordinary names, including dots, spaces and 255 bytes of UTF-8', () => {
    for (const name of [
      'a',
      '.hidden',
      '...',
      'a..b',
      'with space',
      'ü'.repeat(127) + 'x',
      'x'.repeat(255),
    ]) {
      expect(nameProblem(name)).toBeUndefined();
    }
  });

  it('refuses what could escape a folder or cannot be stored', () => {
    for (const name of [
      '',
      '.',
      '..',
      'a/b',
      '/',
      'a\\b',
      'a\0b',
      'x'.repeat(256),
      'ü'.repeat(128),
      '\ud800',
    ]) {
      expect(() => checkName(name)).toThrow(expect.objectContaining({ code: 'INVALID_NAME' }) as Error);
    }
  });

  it('refuses ids that would change a URL path as a bug', () => {
    expect(idSegment('a b/c')).toBe('a%20b%2Fc');
    expect(() => idSegment('..')).toThrow(expect.objectContaining({ code: 'BUG' }) as Error);
  });
});

describe('tokens and URLs', () => {
  it('knows the loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', 'LOCALHOST'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['localhost.example.com', '128.0.0.1', '10.0.0.1', 'example.com', '[::2]'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  it('allows tokens over https anywhere and over http to loopback only', () => {
    expect(() => assertTokenSafe(new URL('https://nas.example.com/x'))).not.toThrow();
    expect(() => assertTokenSafe(new URL('http://127.0.0.1:4780/x'))).not.toThrow();
    expect(() => assertTokenSafe(new URL('http://[::1]:4780/x'))).not.toThrow();
    expect(() => assertTokenSafe(new URL('http://nas.example.com/x'))).toThrow(
      expect.objectContaining({ code: 'INSECURE_URL' }) as Error,
    );
    expect(() => assertTokenSafe(new URL('ftp://127.0.0.1/x'))).toThrow(
      expect.objectContaining({ code: 'INSECURE_URL' }) as Error,
    );
  });

  it('keeps a relay base’s path when joining', () => {
    expect(joinUrl('https://relay.example/proxy/abc/', '/sdk/v2/files/root').href).toBe(
      'https://relay.example/proxy/abc/sdk/v2/files/root',
    );
    expect(joinUrl('http://127.0.0.1:1', 'sdk/v2/files?x=1').href).toBe(
      'http://127.0.0.1:1/sdk/v2/files?x=1',
    );
  });
});
