// isTrustedRendererUrl: only the app's own renderer page may make contract calls over IPC.
import { describe, expect, it } from 'vitest';
import { isTrustedRendererUrl } from '../../../../app/desktop/ipc-trust.ts';

const APP = 'mch-app://ui';

describe('isTrustedRendererUrl', () => {
  it.each([
    'mch-app://ui/',
    'mch-app://ui/index.html',
    'mch-app://ui/#status',
    'mch-app://ui/index.html#settings',
  ])('trusts the renderer page %s', (url) => {
    expect(isTrustedRendererUrl(url, APP)).toBe(true);
  });

  it.each([
    ['another host of the scheme', 'mch-app://other/'],
    ['another scheme, same host', 'mch-apps://ui/'],
    ['a web page', 'https://ui/'],
    ['a file', 'file:///ui/index.html'],
    ['the renderer as a file', 'file:///opt/mch-sync/resources/app.asar/dist/renderer/index.html'],
    ['about:blank', 'about:blank'],
    ['a data URL', 'data:text/html,<script>1</script>'],
    ['another page of the origin', 'mch-app://ui/assets/index.js'],
    ['a query', 'mch-app://ui/index.html?x=1'],
    ['user info', 'mch-app://evil@ui/'],
    ['a longer host', 'mch-app://ui.evil/'],
    ['a dot segment outside', 'mch-app://ui/../index.html/x'],
    ['an encoded index', 'mch-app://ui/%69ndex.html'],
    ['an empty string', ''],
    ['garbage', 'not a url'],
  ])('refuses %s', (_what, url) => {
    expect(isTrustedRendererUrl(url, APP)).toBe(false);
  });

  it('compares the port of an http origin', () => {
    const origin = 'http://127.0.0.1:4811';
    expect(isTrustedRendererUrl('http://127.0.0.1:4811/', origin)).toBe(true);
    expect(isTrustedRendererUrl('http://127.0.0.1:4812/', origin)).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:4811/', origin)).toBe(false);
    expect(isTrustedRendererUrl('https://127.0.0.1:4811/', origin)).toBe(false);
  });

  it.each(['mch-app://ui/', 'mch-app://ui/index.html', 'mch-app:', 'ui', 'mch-app://ui?x', 'mch-app://u@ui'])(
    'calls the app origin %s a bug: it must be scheme://host[:port]',
    (origin) => {
      expect(() => isTrustedRendererUrl('mch-app://ui/', origin)).toThrow(
        expect.objectContaining({ code: 'BUG' }),
      );
    },
  );
});
