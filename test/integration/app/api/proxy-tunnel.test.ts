// The Transport to an https service through a CONNECT tunnel of a real proxy (Debian's tinyproxy), TLS inside it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { createServer as createTlsServer } from 'node:tls';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runProcess } from '../../../helpers/mch-sync.ts';
import type { ProxiedOutcome } from '../../../helpers/proxied-requests.ts';
import { hasTinyproxy, startTinyproxy, type TinyProxy } from '../../../helpers/tinyproxy.ts';

const CHILD = join(ROOT, 'test', 'helpers', 'proxied-requests.ts');

describe.skipIf(!hasTinyproxy())('a CONNECT tunnel through tinyproxy', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let proxy: TinyProxy;
  let guarded: TinyProxy;
  const seen: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mch-tunnel-'));
    // A certificate for localhost made by Debian's openssl, trusted only by the child that asks.
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ]);
    server = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          seen.push(`${request.method} ${request.url}`);
          response.end(
            request.method === 'PUT' ? `got ${Buffer.concat(chunks).toString()}` : 'hello over tls',
          );
        });
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    url = `https://localhost:${port}/thing`;
    proxy = await startTinyproxy({ connectPorts: [port] });
    guarded = await startTinyproxy({ basicAuth: { user: 'bob', password: 'right' }, connectPorts: [port] });
  });
  afterAll(async () => {
    await proxy?.stop();
    await guarded?.stop();
    server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  async function requestsThrough(env: NodeJS.ProcessEnv): Promise<ProxiedOutcome[]> {
    const base: NodeJS.ProcessEnv = { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') };
    for (const name of [
      'HTTPS_PROXY',
      'https_proxy',
      'HTTP_PROXY',
      'http_proxy',
      'ALL_PROXY',
      'all_proxy',
      'NO_PROXY',
      'no_proxy',
    ]) {
      delete base[name];
    }
    const run = await runProcess(process.execPath, [CHILD, url], {
      env: { ...base, ...env },
      timeoutMs: 60_000,
    });
    expect(run.stderr).toBe('');
    return JSON.parse(run.stdout) as ProxiedOutcome[];
  }

  it('carries a request read whole and a streamed upload and answer, as the proxy log shows', async () => {
    const before = proxy.requests().length;
    const outcomes = await requestsThrough({ HTTPS_PROXY: proxy.url });
    expect(outcomes).toEqual([
      { what: 'request', status: 200, body: 'hello over tls' },
      { what: 'stream', status: 200, body: 'got streamed body' },
    ]);
    const port = new URL(url).port;
    const tunnels = proxy.requests().slice(before);
    expect(tunnels.length).toBeGreaterThan(0);
    expect(tunnels.every((line) => line === `CONNECT localhost:${port} HTTP/1.1`)).toBe(true);
  });

  it('goes direct for a host NO_PROXY names', async () => {
    const before = proxy.requests().length;
    const outcomes = await requestsThrough({ HTTPS_PROXY: proxy.url, NO_PROXY: '.localhost,localhost' });
    expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200]);
    expect(proxy.requests().slice(before)).toEqual([]);
    expect(seen.slice(-2)).toEqual(['GET /thing', 'PUT /thing']);
  });

  it('sends the proxy credentials of the URL, and a refusal names the proxy without them', async () => {
    const at = new URL(guarded.url);
    const right = await requestsThrough({ HTTPS_PROXY: `http://bob:right@${at.host}` });
    expect(right.map((outcome) => outcome.body)).toEqual(['hello over tls', 'got streamed body']);

    // Both paths (node:https and got) refused: both went through the proxy's tunnel.
    const wrong = await requestsThrough({ HTTPS_PROXY: `http://bob:wrong@${at.host}` });
    expect(wrong.map((outcome) => outcome.what)).toEqual(['request', 'stream']);
    for (const outcome of wrong) {
      expect(outcome.error?.code).toBe('NETWORK');
      expect(outcome.error?.causeCode).toBe('PROXY_REFUSED');
      expect(outcome.error?.message).toContain(`the proxy ${guarded.url} refused its user name and password`);
      expect(outcome.error?.message).not.toContain('wrong');
    }
    const none = await requestsThrough({ HTTPS_PROXY: guarded.url });
    expect(none[0]?.error?.message).toContain(`the proxy ${guarded.url} asks for a user name and password`);
  });

  it('speaks TLS to an https:// proxy, with the tunnel and its own TLS inside', async () => {
    // tinyproxy speaks only plain http: a TLS front (the same certificate) makes it an https:// proxy.
    const front = createTlsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (client) => {
        const upstream = connect({ host: '127.0.0.1', port: proxy.port });
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      },
    );
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const address = front.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const before = proxy.requests().length;
      const outcomes = await requestsThrough({ HTTPS_PROXY: `https://localhost:${port}` });
      expect(outcomes.map((outcome) => outcome.body)).toEqual(['hello over tls', 'got streamed body']);
      expect(proxy.requests().slice(before).length).toBeGreaterThan(0);
    } finally {
      front.close();
    }
  });

  it('says which proxy refused a tunnel to a port it does not allow', async () => {
    const closed = await startTinyproxy({ connectPorts: [1] });
    try {
      const outcomes = await requestsThrough({ HTTPS_PROXY: closed.url });
      expect(outcomes[0]?.error?.causeCode).toBe('PROXY_REFUSED');
      expect(outcomes[0]?.error?.message).toMatch(
        new RegExp(
          `the proxy ${closed.url.replace(/[.]/g, '\\.')} refused to connect to localhost:\\d+ \\(HTTP 403\\)`,
        ),
      );
    } finally {
      await closed.stop();
    }
  });
});
