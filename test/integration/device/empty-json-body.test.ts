// A request that says `Content-Type: application/json` but sends an empty body is read as a request
// with no body, on every route (device-api.md §3): the MyCloudHome Python CLI deletes that way.
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { ShareTokenResponse } from '../../../common/wire/sharing.ts';
import type { TestDevice } from '../../helpers/device.ts';
import {
  createFile,
  folderFactory,
  idFromLocation,
  postMultipart,
  type Created,
} from '../../helpers/multipart.ts';
import { rawRequest, requestHead, type RawResponse } from '../../helpers/raw-http.ts';
import { createShare, grant, shareWithLink, userId } from '../../helpers/shares.ts';

// Typed as unknown so the asymmetric matchers don't spread `any` through the assertions.
const ANY_STRING: unknown = expect.any(String);

let device: TestDevice;

test.beforeAll(async ({ device: started }) => {
  // The helpers and tables of cases below close over this handle, so the file keeps one.
  device = started;
});

const freshFolder = folderFactory(() => device, 'empty-json');

/** How a request frames its (empty) body; the first is the baseline every other must match. */
const FRAMINGS = {
  'no Content-Type and no body': { headers: {}, body: '' },
  'application/json with Content-Length: 0': {
    headers: { 'content-type': 'application/json', 'content-length': '0' },
    body: '',
  },
  'application/json; charset=utf-8 with Content-Length: 0': {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '0' },
    body: '',
  },
  'application/json with neither Content-Length nor body': {
    headers: { 'content-type': 'application/json' },
    body: '',
  },
  'application/json chunked with zero bytes': {
    headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    body: '0\r\n\r\n',
  },
} satisfies Record<string, { headers: Record<string, string>; body: string }>;

type Framing = keyof typeof FRAMINGS;
const FRAMING_NAMES = Object.keys(FRAMINGS) as Framing[];

/** Sends exactly the given framing (fetch would add or drop headers), as alice unless `token` is null. */
function send(
  framing: Framing,
  method: string,
  path: string,
  token: string | null = device.tokenFor('alice'),
): Promise<RawResponse> {
  const { headers, body } = FRAMINGS[framing];
  const auth: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  return rawRequest(device.base, requestHead(method, path, device.base, { ...auth, ...headers }) + body);
}

function json(response: RawResponse): unknown {
  return JSON.parse(response.body.toString('utf8'));
}

async function statusOf(path: string): Promise<number> {
  return (await device.fetchAs('alice', path)).status;
}

async function startUpload(content = 'partial'): Promise<string> {
  const folder = await freshFolder();
  const response = await postMultipart(device, { name: 'upload.bin', parentID: folder.id }, content, {
    path: '/sdk/v2/files/resumable',
    query: 'done=false',
  });
  expect(response.status).toBe(201);
  return idFromLocation(response);
}

async function freshFile(content = 'some content'): Promise<Created> {
  return createFile(device, 'file.txt', content, (await freshFolder()).id);
}

interface RouteCase {
  method: string;
  /** Makes what the request acts on (a fresh one for each framing); returns its path and a check. */
  prepare(): Promise<{ path: string; after?: (response: RawResponse) => Promise<void> }>;
  status: number;
  /** Sent without a token (routes that take none). */
  anonymous?: boolean;
}

/** Runs each route once per framing and expects the answer it gives without the header every time. */
function describeRoutes(title: string, routes: Record<string, RouteCase>): void {
  describe(title, () => {
    const cases = Object.entries(routes).flatMap(([name, route]) =>
      FRAMING_NAMES.map((framing) => [name, framing, route] as const),
    );
    it.each(cases)('%s, %s', async (_name, framing, route) => {
      const { path, after } = await route.prepare();
      const response = await send(framing, route.method, path, route.anonymous ? null : undefined);
      expect(response.status, response.body.toString('utf8')).toBe(route.status);
      await after?.(response);
    });
  });
}

describeRoutes('routes that take no body answer as they do without the header', {
  'DELETE a file': {
    method: 'DELETE',
    status: 204,
    prepare: async () => {
      const file = await freshFile();
      return {
        path: `/sdk/v2/files/${file.id}`,
        after: async () => expect(await statusOf(`/sdk/v2/files/${file.id}`)).toBe(404),
      };
    },
  },
  'DELETE a non-empty folder': {
    method: 'DELETE',
    status: 202,
    prepare: async () => {
      const folder = await freshFolder();
      await createFile(device, 'inside.txt', 'inside', folder.id);
      return {
        path: `/sdk/v2/files/${folder.id}`,
        after: async () => expect(await statusOf(`/sdk/v2/files/${folder.id}`)).toBe(404),
      };
    },
  },
  'DELETE a file through the relay path': {
    method: 'DELETE',
    status: 204,
    prepare: async () => {
      const file = await freshFile();
      return {
        path: `/proxy/${device.running.context.device.id}/sdk/v2/files/${file.id}`,
        after: async () => expect(await statusOf(`/sdk/v2/files/${file.id}`)).toBe(404),
      };
    },
  },
  'DELETE a file permission': {
    method: 'DELETE',
    status: 204,
    prepare: async () => {
      const file = await freshFile();
      const perm = await grant(
        device,
        'alice',
        file.id,
        { id: userId(device, 'bob'), type: 'user' },
        'ReadFile',
      );
      return {
        path: `/sdk/v1/filePerms/${perm.id}`,
        after: async () => {
          const response = await device.fetchAs('bob', `/sdk/v2/files/${file.id}`);
          expect(response.status, 'bob no longer reads the file').toBe(404);
        },
      };
    },
  },
  'DELETE a share': {
    method: 'DELETE',
    status: 204,
    prepare: async () => {
      const share = await createShare(device, 'alice', [(await freshFile()).id]);
      return {
        path: `/cloud/v1/shares/${share.shareId}`,
        after: async () => expect(await statusOf(`/cloud/v1/shares/${share.shareId}`)).toBe(404),
      };
    },
  },
  'DELETE a resumable upload': {
    method: 'DELETE',
    status: 204,
    prepare: async () => {
      const id = await startUpload();
      return {
        path: `/sdk/v2/files/${id}/resumable`,
        after: async () => expect(await statusOf(`/sdk/v2/files/${id}/resumable`)).toBe(404),
      };
    },
  },
  "POST a share link's token": {
    method: 'POST',
    status: 200,
    anonymous: true,
    prepare: async () => {
      const share = await shareWithLink(device, 'alice', [(await freshFile()).id]);
      return {
        path: `/s/${share.shareId}/token`,
        after: async (response) =>
          expect(json(response) as ShareTokenResponse).toMatchObject({ access_token: ANY_STRING }),
      };
    },
  },
  'GET a file': {
    method: 'GET',
    status: 200,
    prepare: async () => ({ path: '/sdk/v2/files/root' }),
  },
  'GET a listing': {
    method: 'GET',
    status: 200,
    prepare: async () => ({ path: '/sdk/v2/filesSearch/parents?ids=root' }),
  },
  "GET a resumable upload's status": {
    method: 'GET',
    status: 200,
    prepare: async () => {
      const id = await startUpload('12345');
      return {
        path: `/sdk/v2/files/${id}/resumable`,
        after: async (r) => expect(json(r)).toEqual({ id, size: 5 }),
      };
    },
  },
  'GET the shares': {
    method: 'GET',
    status: 200,
    prepare: async () => ({ path: '/cloud/v1/shares' }),
  },
  'GET the configuration': {
    method: 'GET',
    status: 200,
    anonymous: true,
    prepare: async () => ({ path: '/config/v1/config' }),
  },
});

describeRoutes('routes whose body is optional take the empty body as none', {
  'PATCH a file (an empty patch)': {
    method: 'PATCH',
    status: 204,
    prepare: async () => {
      const file = await freshFile();
      return {
        path: `/sdk/v2/files/${file.id}`,
        after: async () => {
          const read = await device.fetchAs('alice', `/sdk/v2/files/${file.id}`);
          expect(await read.json()).toMatchObject({ name: 'file.txt' });
        },
      };
    },
  },
  'POST .../patch (an empty patch)': {
    method: 'POST',
    status: 204,
    prepare: async () => ({ path: `/sdk/v2/files/${(await freshFile()).id}/patch` }),
  },
  'PUT content (an empty file)': {
    method: 'PUT',
    status: 204,
    prepare: async () => {
      const file = await freshFile('before');
      return {
        path: `/sdk/v2/files/${file.id}/content`,
        after: async () => {
          const read = await device.fetchAs('alice', `/sdk/v2/files/${file.id}`);
          expect(await read.json()).toMatchObject({ size: 0 });
        },
      };
    },
  },
  'PUT resumable content with done=true (just commits)': {
    method: 'PUT',
    status: 204,
    prepare: async () => {
      const id = await startUpload('12345');
      return {
        path: `/sdk/v2/files/${id}/resumable/content?done=true`,
        after: async () => {
          const read = await device.fetchAs('alice', `/sdk/v2/files/${id}`);
          expect(await read.json()).toMatchObject({ size: 5 });
        },
      };
    },
  },
});

/** A POST that needs a body: the answer it gives when none is sent, in its service's error format. */
function refused(path: string, status: number, body: unknown, anonymous = false): RouteCase {
  return {
    method: 'POST',
    status,
    anonymous,
    prepare: async () => ({ path, after: async (response) => expect(json(response)).toEqual(body) }),
  };
}

describeRoutes('routes that need a body answer their usual 4xx, never a 500', {
  'POST /sdk/v1/filePerms': refused('/sdk/v1/filePerms', 400, { label: 'INVALID_BODY', message: ANY_STRING }),
  'POST /sdk/v2/files': refused('/sdk/v2/files', 400, { label: 'BAD_MULTIPART', message: ANY_STRING }),
  'POST /sdk/v2/files/resumable': refused('/sdk/v2/files/resumable', 400, {
    label: 'BAD_MULTIPART',
    message: ANY_STRING,
  }),
  'POST /cloud/v1/shares': refused('/cloud/v1/shares', 400, {
    data: null,
    error: { label: 'GENERAL_INVALID_PARAMETERS', message: ANY_STRING },
  }),
  'POST /identity/oauth/token': refused(
    '/identity/oauth/token',
    400,
    { error: 'invalid_request', error_description: ANY_STRING },
    true,
  ),
  'POST /identity/oauth/revoke': refused(
    '/identity/oauth/revoke',
    401,
    { error: 'invalid_client', error_description: ANY_STRING },
    true,
  ),
  'POST /identity/authorize (the sign-in form)': {
    method: 'POST',
    status: 400,
    anonymous: true,
    prepare: async () => ({
      path: '/identity/authorize',
      after: async (response) => expect(response.headers['content-type']).toMatch(/^text\/html/),
    }),
  },
});

describe('a JSON body that is not empty is parsed as before', () => {
  async function patchChunked(body: string): Promise<RawResponse> {
    const file = await freshFile();
    const head = requestHead('PATCH', `/sdk/v2/files/${file.id}`, device.base, {
      authorization: `Bearer ${device.tokenFor('alice')}`,
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    });
    const bytes = Buffer.from(body);
    return rawRequest(device.base, `${head}${bytes.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
  }

  it.each([
    ['only white space', ' '],
    ['malformed JSON', '{"name":'],
    ['a __proto__ key', '{"__proto__": {"name": "x.txt"}}'],
    ['a constructor.prototype key', '{"constructor": {"prototype": {"name": "x.txt"}}}'],
  ])('answers 400 INVALID_JSON for %s', async (_name, body) => {
    const response = await patchChunked(body);
    expect(response.status).toBe(400);
    expect(json(response)).toEqual({ label: 'INVALID_JSON', message: ANY_STRING });
  });

  it('answers 413 for a chunked body over 1 MiB', async () => {
    const response = await patchChunked(
      JSON.stringify({ name: 'big.txt', padding: 'x'.repeat(1024 * 1024) }),
    );
    expect(response.status).toBe(413);
    expect(json(response)).toEqual({ label: 'PAYLOAD_TOO_LARGE', message: ANY_STRING });
  });
});
