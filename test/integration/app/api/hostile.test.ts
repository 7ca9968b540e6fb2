// Hostile and broken answers from a small node:http server: each one a clear typed error, never a crash.
import { describe, expect, it } from 'vitest';
import { ConfigClient } from '../../../../app/api/cloud/config-client.ts';
import { IdentityClient } from '../../../../app/api/cloud/identity-client.ts';
import { deviceClientAt, FAST_RETRY } from '../../../helpers/api-client.ts';
import { sendJson, serversClosedAfterEach } from '../../../helpers/hostile-server.ts';

const serve = serversClosedAfterEach();

const GOOD_FILE = {
  id: 'f1',
  parentID: 'p1',
  name: 'ok.txt',
  eTag: '"e1"',
  mimeType: 'text/plain',
  size: 3,
  mTime: '2026-11-22T01:02:03Z',
};

describe('malformed answers', () => {
  it('reports malformed JSON as BAD_RESPONSE with the correlation id', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, '{"id": "f1", '));
    const error = await deviceClientAt(server.base)
      .getFile('f1')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE' });
    expect((error as { correlationId: string }).correlationId).toBe(
      server.requests[0]?.headers['x-correlation-id'],
    );
  });

  it('reports wrong types as BAD_RESPONSE naming the field', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { ...GOOD_FILE, size: 'big' }),
    );
    await expect(deviceClientAt(server.base).getFile('f1')).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('size') as unknown,
    });
  });

  it('reports an HTML page instead of JSON as BAD_RESPONSE naming the content type', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>Sign in to the hotel wifi</body></html>');
    });
    await expect(deviceClientAt(server.base).getFile('f1')).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('text/html') as unknown,
    });
  });

  it('accepts times without fractions, unknown fields and unknown enum values', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, {
        ...GOOD_FILE,
        hidden: 'solaris',
        somethingNew: { deep: true },
        cTime: '2026-01-01T00:00:00.123456+02:00',
      }),
    );
    const file = await deviceClientAt(server.base).getFile('f1');
    expect(file).toMatchObject({
      name: 'ok.txt',
      hidden: 'none',
      mTimeMs: Date.parse('2026-11-22T01:02:03Z'),
    });
    expect(file.cTimeMs).toBe(Date.parse('2025-12-31T22:00:00.123Z'));
    expect('somethingNew' in file).toBe(false);
  });

  it('takes the eTag from the ETag header when the JSON has none', async () => {
    const { eTag: _none, ...withoutTag } = GOOD_FILE;
    const server = await serve((_request, response) =>
      sendJson(response, 200, withoutTag, { etag: '"from-header"' }),
    );
    expect((await deviceClientAt(server.base).getFile('f1')).eTag).toBe('"from-header"');
  });
});

describe('names that could escape a folder', () => {
  const BAD_NAMES = ['..', '.', 'a/b', 'a\\b', 'nul\0', '../../etc/passwd', 'é'.repeat(128)];

  it('leaves bad items out of a listing and reports each one, keeping the good ones', async () => {
    const files = [
      GOOD_FILE,
      ...BAD_NAMES.map((name, index) => ({ ...GOOD_FILE, id: `bad${index}`, name })),
      { id: 5 },
    ];
    const server = await serve((_request, response) => sendJson(response, 200, { pageToken: '', files }));
    const page = await deviceClientAt(server.base).list('p1');
    if (page.notModified) throw new Error('expected a page');
    expect(page.files.map((file) => file.name)).toEqual(['ok.txt']);
    expect(page.rejected.map((item) => item.error.code)).toEqual([
      ...BAD_NAMES.map(() => 'INVALID_NAME'),
      'BAD_RESPONSE',
    ]);
    expect(page.rejected.map((item) => item.id)).toEqual([
      ...BAD_NAMES.map((_name, index) => `bad${index}`),
      undefined,
    ]);
  });

  it('refuses a single File with a traversal name as INVALID_NAME', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, { ...GOOD_FILE, name: '..' }));
    await expect(deviceClientAt(server.base).getFile('f1')).rejects.toMatchObject({
      code: 'INVALID_NAME',
      invalidName: '..',
    });
  });

  it('refuses ids that would change the request path', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { pageToken: '', files: [{ ...GOOD_FILE, id: '..' }] }),
    );
    const page = await deviceClientAt(server.base).list('p1');
    expect(page.notModified === false && page.rejected[0]?.error.code).toBe('BAD_RESPONSE');
  });
});

describe('answers that never end or are too big', () => {
  it('gives up on a body that never ends with TIMEOUT', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id":"');
      const timer = setInterval(() => response.write('x'), 20);
      response.on('close', () => clearInterval(timer));
    });
    const api = deviceClientAt(server.base, {
      timeouts: { totalMs: 300 },
      retry: { ...FAST_RETRY, maxAttempts: 2 },
    });
    await expect(api.getFile('f1')).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on a server that never answers with TIMEOUT', async () => {
    const server = await serve(() => undefined);
    const api = deviceClientAt(server.base, {
      timeouts: { responseMs: 200 },
      retry: { ...FAST_RETRY, maxAttempts: 1 },
    });
    await expect(api.getFile('f1')).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('refuses a huge body without reading it all', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < 200 * 1024 * 1024 && response.write(chunk)) sent += chunk.length;
        if (sent < 200 * 1024 * 1024) response.once('drain', pump);
        else response.end();
      };
      response.on('close', () => (sent = Infinity));
      pump();
    });
    const api = deviceClientAt(server.base, {
      maxBodyBytes: 1024 * 1024,
      retry: { ...FAST_RETRY, maxAttempts: 1 },
    });
    await expect(api.list('p1')).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringContaining('larger than') as unknown,
    });
  });

  it('cancels a hanging request promptly with ABORTED', async () => {
    const server = await serve(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      deviceClientAt(server.base).getFile('f1', { signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });

  it('cancels between retries with ABORTED', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 503, { label: 'BUSY', message: 'busy' }),
    );
    const controller = new AbortController();
    const api = deviceClientAt(server.base, {
      retry: { ...FAST_RETRY, baseDelayMs: 60_000, maxDelayMs: 60_000, maxElapsedMs: 600_000 },
      random: () => 1,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(api.getFile('f1', { signal: controller.signal })).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe('statuses', () => {
  it('retries a GET after 429 and 5xx, but never a create', async () => {
    const statuses = [429, 500, 502];
    const server = await serve((request, response) => {
      const next = statuses.shift();
      if (request.method === 'GET' && next !== undefined)
        sendJson(response, next, { label: 'SLOW_DOWN', message: 'wait' }, { 'retry-after': '0' });
      else if (request.method === 'GET') sendJson(response, 200, GOOD_FILE);
      else sendJson(response, 503, { label: 'UNAVAILABLE', message: 'later' });
    });
    const api = deviceClientAt(server.base);
    expect((await api.getFile('f1')).name).toBe('ok.txt');
    expect(server.requests).toHaveLength(4);
    await expect(api.create({ name: 'x.txt' })).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      label: 'UNAVAILABLE',
    });
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('keeps the service’s label and message in errors, whatever the error format', async () => {
    const server = await serve((request, response) => {
      if (request.url?.startsWith('/sdk'))
        sendJson(response, 409, { label: 'NAME_CONFLICT', message: 'taken' });
      else if (request.url?.startsWith('/identity'))
        sendJson(response, 403, { error: 'invalid_grant', error_description: 'Wrong email or password.' });
      else
        sendJson(response, 400, {
          data: null,
          error: { label: 'GENERAL_INVALID_PARAMETERS', message: 'bad' },
        });
    });
    await expect(deviceClientAt(server.base).create({ name: 'a' })).rejects.toMatchObject({
      code: 'CONFLICT',
      label: 'NAME_CONFLICT',
    });
    await expect(
      new IdentityClient({ identityUrl: `${server.base}/identity` }).passwordGrant({
        username: 'a',
        password: 'b',
      }),
    ).rejects.toMatchObject({ code: 'AUTH_INVALID_CREDENTIALS', label: 'invalid_grant' });
    await expect(new ConfigClient({ configUrl: server.base }).serviceUrls()).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      label: 'GENERAL_INVALID_PARAMETERS',
    });
  });

  it('does not follow a redirect (it could carry the token elsewhere)', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(302, { location: 'http://evil.example.com/steal' });
      response.end();
    });
    await expect(deviceClientAt(server.base).getFile('f1')).rejects.toMatchObject({
      code: 'UNEXPECTED_STATUS',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('falls back from PATCH to POST .../patch on 405, and remembers it', async () => {
    const server = await serve((request, response) => {
      if (request.method === 'PATCH') sendJson(response, 405, { label: 'METHOD_NOT_ALLOWED', message: 'no' });
      else {
        response.writeHead(204, { etag: '"e2"' });
        response.end();
      }
    });
    const api = deviceClientAt(server.base);
    expect(await api.patch('f1', { name: 'new.txt' }, { ifMatch: '"e1"' })).toEqual({ eTag: '"e2"' });
    await api.patch('f1', { name: 'newer.txt' });
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'PATCH /sdk/v2/files/f1',
      'POST /sdk/v2/files/f1/patch',
      'POST /sdk/v2/files/f1/patch',
    ]);
    expect(server.requests[1]?.headers['if-match']).toBe('"e1"');
  });

  it('appends a relative Location to the relay base it used, and wants one on a create', async () => {
    let withLocation = true;
    const server = await serve((_request, response) => {
      response.writeHead(201, withLocation ? { location: '/sdk/v2/files/new-id', etag: '"n1"' } : {});
      response.end();
    });
    const api = deviceClientAt(`${server.base}/proxy/device-1`);
    expect(await api.create({ name: 'n.txt' })).toEqual({ id: 'new-id', eTag: '"n1"' });
    expect(server.requests[0]?.url).toBe('/proxy/device-1/sdk/v2/files');
    withLocation = false;
    await expect(api.create({ name: 'n.txt' })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });
});

describe('identity and configuration answers', () => {
  it('accepts a lenient token answer (numeric string, lower-case bearer, no refresh token)', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { access_token: 'a', token_type: 'bearer', expires_in: '60', extra: 1 }),
    );
    const identity = new IdentityClient({ identityUrl: server.base, now: () => 1_000 });
    expect(await identity.refresh({ refreshToken: 'r', scope: 'openid' })).toEqual({
      accessToken: 'a',
      expiresAt: 61_000,
      scope: 'openid',
    });
  });

  it('refuses a token answer without an access token', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { token_type: 'Bearer', expires_in: 60 }),
    );
    await expect(
      new IdentityClient({ identityUrl: server.base }).refresh({ refreshToken: 'r' }),
    ).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
    });
  });

  it('refuses a configuration without the device service, or with a URL that is not http(s)', async () => {
    let urls: Record<string, unknown> = {
      'service.share.url': 'https://s',
      'service.identity.url': 'https://i',
    };
    const server = await serve((_request, response) =>
      sendJson(response, 200, { data: { componentMap: { 'cloud.service.urls': urls } }, error: null }),
    );
    await expect(new ConfigClient({ configUrl: server.base }).serviceUrls()).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
    });
    urls = { ...urls, 'service.device.url': 'file:///etc/passwd' };
    await expect(new ConfigClient({ configUrl: server.base }).serviceUrls()).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
    });
    urls = {
      ...urls,
      'service.device.url': 'https://d',
      'service.identity.url': undefined,
      'service.auth0.url': 'https://a0',
    };
    expect(await new ConfigClient({ configUrl: server.base }).serviceUrls()).toEqual({
      device: 'https://d',
      share: 'https://s',
      identity: 'https://a0',
    });
  });
});
