// NO_PROXY as curl reads it, proxy URLs and variables, and the system's PAC answers.
import { describe, expect, it } from 'vitest';
import { NoProxyList } from '../../../../app/api/http/no-proxy.ts';
import { proxyFromPacAnswer, proxyFromSystem, readSystemProxy } from '../../../../app/api/http/pac-answer.ts';
import {
  chooseProxy,
  parseProxyUrl,
  proxyFromEnvironment,
  ProxyConfigError,
} from '../../../../app/api/http/proxy-config.ts';
import { ProxyResolver } from '../../../../app/api/http/proxy-resolver.ts';

const bypasses = (list: string, url: string): boolean => new NoProxyList(list).bypasses(new URL(url));

describe('NO_PROXY', () => {
  it('matches a host and the names under it, never a name that only ends the same', () => {
    expect(bypasses('example.com', 'https://example.com/')).toBe(true);
    expect(bypasses('example.com', 'https://www.example.com/')).toBe(true);
    expect(bypasses('example.com', 'https://notexample.com/')).toBe(false);
    expect(bypasses('.example.com', 'https://example.com/')).toBe(true);
    expect(bypasses('example.com.', 'https://a.example.com./')).toBe(true);
    expect(bypasses('EXAMPLE.com', 'https://Www.Example.COM/')).toBe(true);
  });

  it('reads commas and blanks between entries, and * only as the whole value', () => {
    expect(bypasses(' a.test ,, b.test c.test', 'http://c.test/')).toBe(true);
    expect(bypasses('*', 'http://anything.test/')).toBe(true);
    expect(bypasses('*.example.com', 'http://www.example.com/')).toBe(false);
    expect(bypasses('', 'http://a.test/')).toBe(false);
  });

  it('matches addresses and CIDR networks, v4 and v6, and never an address by a name', () => {
    expect(bypasses('10.0.0.0/8', 'http://10.20.30.40/')).toBe(true);
    expect(bypasses('10.0.0.0/8', 'http://11.0.0.1/')).toBe(false);
    expect(bypasses('192.168.1.7', 'http://192.168.1.7:8080/')).toBe(true);
    expect(bypasses('::1', 'http://[::1]:4780/')).toBe(true);
    expect(bypasses('fd00::/8', 'http://[fd12:3456::1]/')).toBe(true);
    expect(bypasses('fd00::/8', 'http://[fe80::1]/')).toBe(false);
    expect(bypasses('10.0.0.0/33', 'http://10.0.0.1/')).toBe(false);
    expect(bypasses('127.0.0.1', 'http://localhost/')).toBe(false);
  });

  it('has no exception for loopback, as curl: localhost goes through the proxy unless named', () => {
    expect(bypasses('example.com', 'http://localhost:4780/')).toBe(false);
    expect(bypasses('example.com', 'http://127.0.0.1:4780/')).toBe(false);
    expect(bypasses('localhost', 'http://localhost:4780/')).toBe(true);
  });

  it('matches host:port on that port only (a default port counts)', () => {
    expect(bypasses('device.test:4780', 'http://device.test:4780/')).toBe(true);
    expect(bypasses('device.test:4780', 'http://device.test:4781/')).toBe(false);
    expect(bypasses('device.test:443', 'https://device.test/')).toBe(true);
    expect(bypasses('[::1]:4780', 'http://[::1]:4780/')).toBe(true);
    expect(bypasses('[::1]:4780', 'http://[::1]:80/')).toBe(false);
  });
});

describe('proxy URLs', () => {
  it('reads host, port and credentials into a label without them and a Basic header', () => {
    const server = parseProxyUrl('http://bob:p%40ss@proxy.test:3128', 'HTTPS_PROXY');
    expect(server).toEqual({
      protocol: 'http:',
      host: 'proxy.test',
      port: 3128,
      authorization: `Basic ${Buffer.from('bob:p@ss').toString('base64')}`,
      label: 'http://proxy.test:3128',
    });
    expect(parseProxyUrl('https://[::1]', 'x').label).toBe('https://[::1]:443');
    expect(parseProxyUrl('proxy.test:8080', 'HTTP_PROXY', { schemeOptional: true }).label).toBe(
      'http://proxy.test:8080',
    );
  });

  it('refuses what cannot be a proxy, with a message that never shows the password', () => {
    const refusal = (text: string): string => {
      try {
        parseProxyUrl(text, 'The proxy URL');
      } catch (error) {
        expect(error).toBeInstanceOf(ProxyConfigError);
        return (error as Error).message;
      }
      throw new Error(`${text} was accepted`);
    };
    expect(refusal('http://:3128')).toMatch(/has no host/);
    expect(refusal('http://')).toMatch(/has no host/);
    expect(refusal('socks5://bob:secret@proxy.test:1080')).toMatch(/socks5 proxy/);
    expect(refusal('socks5://bob:secret@proxy.test:1080')).not.toContain('secret');
    expect(refusal('http://proxy.test:65536')).toMatch(/bad port/);
    expect(refusal('http://proxy.test:0')).toMatch(/bad port/);
    expect(refusal('http://proxy.test:http')).toMatch(/bad port/);
    expect(refusal('proxy.test:3128')).toMatch(/has no scheme/);
    expect(refusal('http://proxy.test:3128/pac')).toMatch(/has a path/);
  });
});

describe('proxy variables', () => {
  it('takes the lowercase name first, ALL_PROXY for a scheme without its own, NO_PROXY beside', () => {
    const choice = proxyFromEnvironment({
      https_proxy: 'http://lower.test:1',
      HTTPS_PROXY: 'http://upper.test:2',
      ALL_PROXY: 'http://all.test:3',
      NO_PROXY: 'direct.test',
    });
    expect(choice?.https?.label).toBe('http://lower.test:1');
    expect(choice?.http?.label).toBe('http://all.test:3');
    const resolver = new ProxyResolver(choice);
    expect(resolver.proxyFor(new URL('https://device.test/'))?.label).toBe('http://lower.test:1');
    expect(resolver.proxyFor(new URL('https://direct.test/'))).toBeUndefined();
  });

  it('is none without variables (or with empty ones), and names the variable that is bad', () => {
    expect(proxyFromEnvironment({ HTTPS_PROXY: '', NO_PROXY: 'x' })).toBeUndefined();
    expect(() => proxyFromEnvironment({ HTTP_PROXY: 'ftp://proxy.test' })).toThrow(/^HTTP_PROXY "ftp:/);
  });

  it('gives the profile proxy first, then the variables, then the system', () => {
    const system = proxyFromSystem({ http: 'PROXY sys.test:8080', https: 'DIRECT' }, {});
    const env = { HTTP_PROXY: 'http://env.test:3128' };
    const target = new URL('http://device.test/');
    const manual = chooseProxy({
      manual: { url: 'http://manual.test:3128', user: 'bob', password: 'pw' },
      env,
      system,
    });
    expect(manual?.source).toBe('settings');
    expect(manual?.http?.authorization).toBe(`Basic ${Buffer.from('bob:pw').toString('base64')}`);
    expect(chooseProxy({ env, system })?.http?.label).toBe('http://env.test:3128');
    const fromSystem = new ProxyResolver(chooseProxy({ env: {}, system }));
    expect(fromSystem.proxyFor(target)?.label).toBe('http://sys.test:8080');
    expect(fromSystem.proxyFor(new URL('https://device.test/'))).toBeUndefined();
  });
});

describe('PAC answers', () => {
  it('uses the first entry this client can use', () => {
    expect(proxyFromPacAnswer('PROXY proxy.test:3128; DIRECT')?.label).toBe('http://proxy.test:3128');
    expect(proxyFromPacAnswer('HTTPS secure.test:443')?.label).toBe('https://secure.test:443');
    expect(proxyFromPacAnswer('SOCKS5 socks.test:1080; HTTP web.test:80')?.label).toBe('http://web.test:80');
    expect(proxyFromPacAnswer('  proxy   a.test:1 ;PROXY b.test:2')?.label).toBe('http://a.test:1');
  });

  it('is no proxy for DIRECT, nothing, or only entries it cannot use', () => {
    expect(proxyFromPacAnswer('DIRECT')).toBeUndefined();
    expect(proxyFromPacAnswer('DIRECT; PROXY a.test:1')).toBeUndefined();
    expect(proxyFromPacAnswer('')).toBeUndefined();
    expect(proxyFromPacAnswer('SOCKS s.test:1080')).toBeUndefined();
    expect(proxyFromPacAnswer('PROXY :3128; PROXY a.test:99999')).toBeUndefined();
    expect(proxyFromSystem({ http: 'DIRECT', https: '' }, {})).toBeUndefined();
  });

  it('asks the system resolver for an http and an https address; a failing resolver is no proxy', async () => {
    const asked: string[] = [];
    const choice = await readSystemProxy(
      async (url) => {
        asked.push(url);
        return url.startsWith('https:') ? 'HTTPS secure.test:8443; DIRECT' : 'PROXY web.test:3128';
      },
      { NO_PROXY: 'intranet.test' },
    );
    expect(asked.sort()).toEqual(['http://mch-sync.invalid/', 'https://mch-sync.invalid/']);
    expect(choice?.source).toBe('system');
    expect(choice?.https?.label).toBe('https://secure.test:8443');
    expect(choice?.http?.label).toBe('http://web.test:3128');
    expect(choice?.noProxy.bypasses(new URL('https://nas.intranet.test/'))).toBe(true);
    expect(await readSystemProxy(() => Promise.reject(new Error('no session')), {})).toBeUndefined();
  });
});
