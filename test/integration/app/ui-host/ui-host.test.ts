// The headless UI host over raw HTTP: the secret and its cookie, Host and Origin checks, the headers,
// contract errors for bad calls, files only from the renderer's folder, and the event stream.
import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUiHost, type UiHost } from '../../../../app/ui-host/ui-host.ts';
import { MAX_BODY_BYTES } from '../../../../app/ui-host/invoke-route.ts';
import { rawRequest } from '../../../helpers/raw-http.ts';
import {
  ABOUT,
  APP_JS,
  makeRendererFolder,
  makeTestService,
  OUTSIDE_TEXT,
  SIGN_IN_ERROR,
  STYLE_CSS,
  UNEXPECTED_TEXT,
  type RendererFolder,
  type TestService,
} from '../../../helpers/ui-host-fixture.ts';

// Written out rather than imported, so a change to the shared constant has to change this test too.
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

let folder: RendererFolder;
let test: TestService;
let host: UiHost;
let port: number;
let origin: string;
let secret: string;
let cookie: string;
const logged: string[] = [];

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** A keep-alive agent, to send several requests on one connection; else a connection each. */
  agent?: Agent;
}

function send(path: string, options: SendOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path,
        headers: options.headers,
        agent: options.agent ?? false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** With this run's cookie: what the page loaded in the browser sends. */
function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return send(path, { headers: { cookie, ...headers } });
}

/** A call as the bridge makes it: POST, same origin, the cookie, a JSON body. */
function call(name: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return send(`/api/${name}`, {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
}

/** Visits `other`'s printed address, as the browser does, and returns the cookie it sets. */
async function cookieOf(other: UiHost): Promise<string> {
  const url = new URL(other.openUrl);
  const answer = await rawRequest(
    other.url,
    `GET /${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`,
  );
  return (answer.headers['set-cookie'] ?? '').split(';')[0] ?? '';
}

function json(answer: Answer): unknown {
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  return JSON.parse(answer.body);
}

/** A contract error: its words, and maybe details for the disclosure (a bad request's schema text). */
function contractError(code: string): unknown {
  const text: unknown = expect.any(String);
  const error: unknown = expect.objectContaining({ code, title: text, message: text });
  return { ok: false, error };
}

beforeAll(async () => {
  folder = makeRendererFolder();
  test = makeTestService();
  host = await startUiHost({
    service: test.service,
    rendererDir: folder.dir,
    log: (line) => logged.push(line),
  });
  const url = new URL(host.url);
  port = Number(url.port);
  origin = url.origin;
  secret = new URL(host.openUrl).searchParams.get('secret') ?? '';
  const entry = await send(`/?secret=${secret}`);
  cookie = (entry.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
});

afterAll(async () => {
  await host?.close();
  folder?.remove();
});

describe('the address', () => {
  it('is the IP literal of loopback with a free port, and the secret is 256 random bits', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(host.openUrl).toBe(`${host.url}?secret=${secret}`);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is not answered on any other address of this computer', async () => {
    const others = ['127.0.0.2', '::1'];
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) {
        if (!address.internal && address.family === 'IPv4') others.push(address.address);
      }
    }
    for (const address of others) {
      const outcome = await new Promise<string>((resolve) => {
        const socket = connect({ host: address, port });
        socket.on('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect({ address, outcome }).not.toEqual({ address, outcome: 'connected' });
    }
  });
});

describe('the secret', () => {
  it('in the printed address becomes an HttpOnly SameSite=Strict cookie and a redirect to /', async () => {
    const answer = await send(`/?secret=${secret}`);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    expect(answer.headers['set-cookie']).toEqual([
      `mch_ui_${port}=${secret}; HttpOnly; SameSite=Strict; Path=/`,
    ]);
  });

  it('opens the page with the cookie', async () => {
    const answer = await get('/');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('refuses a wrong secret of any length with 401 and no cookie', async () => {
    const wrong = [`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`, 'short', `${secret}x`, ''];
    for (const candidate of wrong) {
      const answer = await send(`/?secret=${encodeURIComponent(candidate)}`);
      expect(answer.status).toBe(401);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  it('is needed by every page, file, call and stream: 401 without it', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/bridge.js', '/nothing-here']) {
      const answer = await send(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 401 });
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.body).toContain('open the address that `mch-sync ui` printed');
    }
    const noCookie = await send('/api/app:about', {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noCookie.status).toBe(401);
    expect(json(noCookie)).toEqual(contractError('UI_HOST_UNAUTHORIZED'));
    expect(test.calls).toEqual([]);
  });

  it('is not taken from a cookie of another run (another port) or with another value', async () => {
    for (const other of [`mch_ui_${port + 1}=${secret}`, `mch_ui_${port}=${secret}x`, `mch_ui=${secret}`]) {
      expect((await send('/', { headers: { cookie: other } })).status).toBe(401);
    }
    const among = await send('/', { headers: { cookie: `theme=dark; ${cookie}; other=1` } });
    expect(among.status).toBe(200);
  });
});

describe('Host and Origin', () => {
  it('refuses any Host but 127.0.0.1:PORT with 403, before the secret is looked at', async () => {
    for (const name of [`evil.example:${port}`, `127.0.0.1:${port + 1}`, `localhost:${port}`, '127.0.0.1']) {
      const entry = await send(`/?secret=${secret}`, { headers: { host: name } });
      expect({ name, status: entry.status }).toEqual({ name, status: 403 });
      expect(entry.headers['set-cookie']).toBeUndefined();
      const page = await get('/', { host: name });
      expect(page.status).toBe(403);
      const api = await call('app:about', {}, { host: name });
      expect(api.status).toBe(403);
      expect(json(api)).toEqual(contractError('UI_HOST_FORBIDDEN'));
    }
    expect(test.calls).toEqual([]);
  });

  it('refuses a call with a missing or foreign Origin with 403', async () => {
    for (const other of [
      undefined,
      'null',
      'http://evil.example',
      `http://localhost:${port}`,
      `http://127.0.0.1:${port + 1}`,
    ]) {
      const headers: Record<string, string> = { cookie, 'content-type': 'application/json' };
      if (other !== undefined) headers['origin'] = other;
      const answer = await send('/api/app:about', { method: 'POST', headers, body: '{}' });
      expect({ other, status: answer.status }).toEqual({ other, status: 403 });
      expect(json(answer)).toEqual(contractError('UI_HOST_FORBIDDEN'));
    }
    expect(test.calls).toEqual([]);
  });

  it('refuses a call the browser says another site started, even with our Origin', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const answer = await call('app:about', {}, { 'sec-fetch-site': site });
      expect({ site, status: answer.status }).toEqual({ site, status: 403 });
    }
    expect((await call('app:about', {}, { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
  });

  it('refuses a GET naming another origin or started by another site, and takes our own', async () => {
    expect((await get('/', { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get('/', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await get('/', { 'sec-fetch-site': 'none' })).status).toBe(200);
    expect((await get('/assets/app.js', { 'sec-fetch-site': 'same-origin', origin })).status).toBe(200);
  });
});

describe('headers', () => {
  const cases: Array<[string, () => Promise<Answer>, number]> = [
    ['the page', () => get('/'), 200],
    ['a script', () => get('/assets/app.js'), 200],
    ['the bridge', () => get('/bridge.js'), 200],
    ['a call', () => call('app:about', {}), 200],
    ['the secret address', () => send(`/?secret=${secret}`), 303],
    ['a page without the cookie', () => send('/'), 401],
    ['a call without the cookie', () => send('/api/app:about', { method: 'POST', headers: { origin } }), 401],
    ['a foreign Host', () => get('/', { host: `evil.example:${port}` }), 403],
    ['a foreign Origin', () => call('app:about', {}, { origin: 'http://evil.example' }), 403],
    ['a missing file', () => get('/missing.js'), 404],
    ['OPTIONS', () => send('/api/app:about', { method: 'OPTIONS', headers: { cookie } }), 405],
    ['malformed JSON', () => call('app:about', '{'), 400],
    ['a wrong content type', () => call('app:about', '{}', { 'content-type': 'text/plain' }), 415],
    ['the event stream', () => openedStreamAnswer(), 200],
  ];
  for (const [what, make, status] of cases) {
    it(`on ${what} (${status}): the CSP, nosniff, no referrer, same-origin policies, no-store, no CORS`, async () => {
      const answer = await make();
      expect(answer.status).toBe(status);
      expect(answer.headers['content-security-policy']).toBe(CSP);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    });
  }

  it('grants no CORS to a preflight or a cross-origin call that asks for it', async () => {
    const preflight = await send('/api/app:about', {
      method: 'OPTIONS',
      headers: {
        cookie,
        origin: 'http://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.allow).toBe('GET, POST');
    const ownPreflight = await send('/api/app:about', { method: 'OPTIONS', headers: { cookie, origin } });
    expect(ownPreflight.status).toBe(405);
    for (const answer of [preflight, ownPreflight]) {
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });
});

describe('calls', () => {
  it('answers a call with the handler value, whether the name is encoded or not', async () => {
    for (const name of ['app:about', 'app%3Aabout']) {
      const answer = await call(name, {});
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(answer.body)).toEqual({ ok: true, value: ABOUT });
    }
  });

  it('passes a handler MchError on as its code, title and message', async () => {
    const answer = await call('account:get', {});
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({
      ok: false,
      error: { code: SIGN_IN_ERROR.code, title: SIGN_IN_ERROR.title, message: SIGN_IN_ERROR.message },
    });
  });

  it('answers any other failure as INTERNAL and keeps its details for the log', async () => {
    const answer = await call('pairs:list', {});
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual(contractError('INTERNAL'));
    expect(answer.body).not.toContain(UNEXPECTED_TEXT);
    expect(logged.some((line) => line.includes('pairs:list') && line.includes(UNEXPECTED_TEXT))).toBe(true);
  });

  it('answers bodies that are not a JSON request with CONTRACT_BAD_REQUEST, never a 500', async () => {
    const before = test.calls.length;
    const cases: Array<[string, Answer, number]> = [
      ['malformed JSON', await call('app:about', '{"a":'), 400],
      ['an empty body', await call('app:about', ''), 400],
      ['invalid UTF-8', await call('app:about', Buffer.from([0x7b, 0xff, 0x7d])), 400],
      ['text/plain', await call('app:about', '{}', { 'content-type': 'text/plain' }), 415],
      [
        'a form',
        await call('app:about', 'a=1', { 'content-type': 'application/x-www-form-urlencoded' }),
        415,
      ],
      [
        'Latin-1 JSON',
        await call('app:about', '{}', { 'content-type': 'application/json; charset=latin1' }),
        415,
      ],
      [
        'no content type',
        await send('/api/app:about', { method: 'POST', headers: { cookie, origin }, body: '{}' }),
        415,
      ],
      ['over 1 MiB', await call('app:about', JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES) })), 413],
    ];
    for (const [what, answer, status] of cases) {
      expect({ what, status: answer.status }).toEqual({ what, status });
      expect(json(answer)).toEqual(contractError('CONTRACT_BAD_REQUEST'));
    }
    expect(test.calls.length).toBe(before);
  });

  it('reads a refused body to its end, so the connection serves the next call', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    agent.on('free', (socket) => sockets.add(socket));
    try {
      const headers = { cookie, origin, 'content-type': 'application/json' };
      const large = await send('/api/app:about', {
        method: 'POST',
        headers,
        body: JSON.stringify({ pad: 'x'.repeat(2 * MAX_BODY_BYTES) }),
        agent,
      });
      expect(large.status).toBe(413);
      const plain = await send('/api/app:about', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/plain' },
        body: '{}',
        agent,
      });
      expect(plain.status).toBe(415);
      const next = await send('/api/app:about', { method: 'POST', headers, body: '{}', agent });
      expect(JSON.parse(next.body)).toEqual({ ok: true, value: ABOUT });
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('takes a body of exactly 1 MiB and checks it against the contract', async () => {
    const request = { query: 'x', limit: null, pageToken: 'p'.repeat(10) };
    const text = JSON.stringify(request);
    const padded = text + ' '.repeat(MAX_BODY_BYTES - Buffer.byteLength(text));
    const answer = await call('search:text', padded);
    expect(json(answer)).toEqual({ ok: true, value: { echo: request } });
  });

  it('answers an unknown call and a request the contract refuses as contract errors', async () => {
    const unknown = await call('files:deleteEverything', {});
    expect(unknown.status).toBe(200);
    expect(json(unknown)).toEqual(contractError('CONTRACT_UNKNOWN_CALL'));
    const badName = await call('%E0%A4%A', {});
    expect(json(badName)).toEqual(contractError('CONTRACT_UNKNOWN_CALL'));
    for (const body of [{ extra: 1 }, [], null, 'text', 42]) {
      const answer = await call('app:about', JSON.stringify(body));
      expect(answer.status).toBe(200);
      expect(json(answer)).toEqual(contractError('CONTRACT_BAD_REQUEST'));
    }
    const wrongType = await call('pairs:remove', { pairId: 'p', keepLocalFiles: 'yes' });
    expect(json(wrongType)).toEqual(contractError('CONTRACT_BAD_REQUEST'));
  });

  it('takes calls by POST only, and the stream by GET only', async () => {
    const getCall = await get('/api/app:about');
    expect(getCall.status).toBe(405);
    expect(getCall.headers.allow).toBe('POST');
    expect(json(getCall)).toEqual(contractError('UI_HOST_BAD_METHOD'));
    const postStream = await call('events', {});
    expect(postStream.status).toBe(405);
    expect(postStream.headers.allow).toBe('GET');
    expect(json(postStream)).toEqual(contractError('UI_HOST_BAD_METHOD'));
    const postPage = await send('/', { method: 'POST', headers: { cookie, origin } });
    expect(postPage.status).toBe(405);
    expect(postPage.headers.allow).toBe('GET');
    for (const method of ['PUT', 'DELETE', 'PATCH', 'HEAD']) {
      expect((await send('/', { method, headers: { cookie, origin } })).status).toBe(405);
    }
  });
});

describe('files', () => {
  it('serves index.html for / with the bridge script first, and the files with their types', async () => {
    const page = await get('/');
    expect(page.body).toContain(
      '<script src="/bridge.js"></script><script type="module" src="/assets/app.js">',
    );
    expect(page.body.indexOf('/bridge.js')).toBeLessThan(page.body.indexOf('<script type="module"'));
    expect((await get('/index.html')).body).toBe(page.body);
    const script = await get('/assets/app.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe(APP_JS);
    const style = await get('/assets/style.css');
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.body).toBe(STYLE_CSS);
    expect((await get('/assets/data.bin')).headers['content-type']).toBe('application/octet-stream');
    const bridge = await get('/bridge.js');
    expect(bridge.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bridge.body).toContain('window, "mchBridge"');
  });

  it('answers the favicon browsers ask for by themselves with 204 when the renderer has none', async () => {
    const answer = await get('/favicon.ico');
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers['content-security-policy']).toBe(CSP);
  });

  it('follows a symlink that stays inside the folder', async () => {
    const linked = await get('/assets/link-in.css');
    expect(linked.status).toBe(200);
    expect(linked.body).toBe(STYLE_CSS);
  });

  it('serves nothing outside the folder: dot segments, encoded ones, absolute paths, links out, dotfiles', async () => {
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2E%2E%5C%2E%2E%5Csecret.txt',
      '//secret.txt',
      `/${folder.outsideFile}`,
      `/${encodeURIComponent(folder.outsideFile)}`,
      '/assets/link-out.txt',
      '/.hidden',
      '/assets/',
      '/assets',
      '/assets//app.js',
      '/%00',
      '/%zz',
    ];
    for (const path of attempts) {
      const answer = await rawRequest(
        host.url,
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
      );
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.body.toString('utf8')).not.toContain(OUTSIDE_TEXT);
    }
  });

  it('answers a request in absolute form with a 404, not another host', async () => {
    const answer = await rawRequest(
      host.url,
      `GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(404);
  });
});

interface StreamClient {
  response: IncomingMessage;
  /** Everything received so far. */
  text(): string;
  waitFor(part: string): Promise<void>;
  ended: Promise<void>;
  close(): void;
}

function openStream(headers: Record<string, string> = { cookie }): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/api/events',
        headers: { accept: 'text/event-stream', ...headers },
        agent: false,
      },
      (response) => {
        let received = '';
        const waiters: Array<() => void> = [];
        const ended = new Promise<void>((resolveEnded) => response.on('close', () => resolveEnded()));
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          received += chunk;
          for (const wake of waiters.splice(0)) wake();
        });
        resolve({
          response,
          text: () => received,
          waitFor: async (part) => {
            while (!received.includes(part)) {
              await Promise.race([new Promise<void>((wake) => waiters.push(wake)), ended]);
              if (response.destroyed && !received.includes(part))
                throw new Error(`stream ended without ${part}`);
            }
          },
          ended,
          close: () => request.destroy(),
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function openedStreamAnswer(): Promise<Answer> {
  const stream = await openStream();
  await stream.waitFor(': mch-sync events');
  stream.close();
  // The next tests count subscriptions: this one must be gone first.
  await expect.poll(() => test.listenerCount()).toBe(0);
  return { status: stream.response.statusCode ?? 0, headers: stream.response.headers, body: stream.text() };
}

describe('events', () => {
  it('reach a connected client as server-sent events, and the subscription ends when it leaves', async () => {
    const stream = await openStream();
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await expect.poll(() => test.listenerCount()).toBe(1);
    test.emit('pairs:changed', []);
    test.emit('notification', {
      id: 'n1',
      kind: 'conflict',
      title: 'Two versions\nof one file',
      body: 'Both kept.',
      count: 1,
      view: 'issues',
      pairId: 'p1',
    });
    await stream.waitFor('event: notification\n');
    expect(stream.text()).toContain('event: pairs:changed\ndata: []\n\n');
    expect(stream.text()).toContain(
      'event: notification\ndata: {"id":"n1","kind":"conflict","title":"Two versions\\nof one file",',
    );
    stream.close();
    await expect.poll(() => test.listenerCount()).toBe(0);
  });

  it('are not streamed to a client with a wrong cookie: 401, closed, never subscribed', async () => {
    const cases: Array<Record<string, string>> = [{ cookie: `mch_ui_${port}=wrong` }, {}];
    for (const headers of cases) {
      const stream = await openStream(headers);
      await stream.ended;
      expect(stream.response.statusCode).toBe(401);
      expect(stream.response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(stream.text())).toEqual(contractError('UI_HOST_UNAUTHORIZED'));
      expect(test.listenerCount()).toBe(0);
    }
  });

  it('are not streamed to a foreign Host or Origin', async () => {
    const cases: Array<Record<string, string>> = [
      { cookie, host: `evil.example:${port}` },
      { cookie, origin: 'http://evil.example' },
    ];
    for (const headers of cases) {
      const stream = await openStream(headers);
      await stream.ended;
      expect(stream.response.statusCode).toBe(403);
      expect(test.listenerCount()).toBe(0);
    }
  });

  it('keep an idle stream alive with comment lines', async () => {
    const other = await startUiHost({
      service: makeTestService().service,
      rendererDir: folder.dir,
      heartbeatMs: 10,
    });
    try {
      const otherPort = Number(new URL(other.url).port);
      const otherCookie = await cookieOf(other);
      const received = await new Promise<string>((resolve, reject) => {
        const request = httpRequest(
          {
            host: '127.0.0.1',
            port: otherPort,
            path: '/api/events',
            headers: { cookie: otherCookie },
            agent: false,
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              text += chunk;
              if (text.includes(': heartbeat\n\n')) {
                request.destroy();
                resolve(text);
              }
            });
          },
        );
        request.on('error', reject);
        request.end();
      });
      expect(received).toContain(': heartbeat\n\n');
    } finally {
      await other.close();
    }
  });
});

describe('closing', () => {
  it('ends open streams, unsubscribes them and stops listening', async () => {
    const own = makeTestService();
    const other = await startUiHost({ service: own.service, rendererDir: folder.dir });
    const otherPort = Number(new URL(other.url).port);
    const otherCookie = await cookieOf(other);
    const streams = await Promise.all(
      [1, 2].map(
        () =>
          new Promise<IncomingMessage>((resolve, reject) => {
            httpRequest(
              {
                host: '127.0.0.1',
                port: otherPort,
                path: '/api/events',
                headers: { cookie: otherCookie },
                agent: false,
              },
              resolve,
            )
              .on('error', reject)
              .end();
          }),
      ),
    );
    await expect.poll(() => own.listenerCount()).toBe(2);
    const ended = streams.map(
      (response) =>
        new Promise<boolean>((resolve) => {
          response.resume();
          response.on('close', () => resolve(response.complete));
        }),
    );
    await other.close();
    // `complete`: the stream was ended properly (its last chunk arrived), not cut.
    expect(await Promise.all(ended)).toEqual([true, true]);
    expect(own.listenerCount()).toBe(0);
    const refused = await new Promise<string>((resolve) => {
      connect({ host: '127.0.0.1', port: otherPort })
        .on('connect', () => resolve('connected'))
        .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it('refuses to start without a built renderer, and on a port in use, with its codes', async () => {
    await expect(
      startUiHost({ service: test.service, rendererDir: `${folder.dir}/missing` }),
    ).rejects.toMatchObject({
      code: 'UI_HOST_NO_RENDERER',
    });
    await expect(startUiHost({ service: test.service, rendererDir: folder.dir, port })).rejects.toMatchObject(
      {
        code: 'UI_HOST_PORT_IN_USE',
      },
    );
    await expect(
      startUiHost({ service: test.service, rendererDir: folder.dir, port: 70_000 }),
    ).rejects.toMatchObject({
      code: 'UI_HOST_LISTEN_FAILED',
    });
  });
});

describe('the log', () => {
  it('holds no unexpected failure of the host itself', () => {
    expect(logged.filter((line) => line.includes('failed:') && !line.includes('pairs:list'))).toEqual([]);
  });
});
