// Every device route against every kind of caller, with the exact status of each cell (device-api.md
// §2, §3): the owner, users holding ReadFile or WriteFile on a folder, a user without any grant, a
// read-only token, a link share's entity, and no token at all.
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { TestDevice } from '../../helpers/device.ts';
import {
  createFile,
  createFolder,
  idFromLocation,
  multipartBody,
  postMultipart,
  type Created,
} from '../../helpers/multipart.ts';
import { grant, rootId, shareToken, shareWithLink, userId } from '../../helpers/shares.ts';

const CALLERS = ['owner', 'reader', 'writer', 'stranger', 'readOnly', 'share', 'none'] as const;
type Caller = (typeof CALLERS)[number];

/** Fresh items for one cell, inside the folder `team` that reader, writer and the share may reach. */
interface Target {
  file: string;
  /** An unfinished resumable upload of alice's in `team`. */
  upload: string;
  /** A permission on `file`, granted to erin (who is none of the callers). */
  perm: string;
  fileName: string;
  /** A name no item in `team` has yet. */
  fresh: string;
}

interface RouteCase {
  route: string;
  request(target: Target): {
    method: string;
    path: string;
    body?: { body: Uint8Array | string; contentType: string };
  };
  expected: Record<Caller, number>;
}

let device: TestDevice;
let team: Created;
let privateFile: Created;
let tokens: Record<Exclude<Caller, 'none'>, string>;
let counter = 0;

test.override({
  deviceOptions: {
    users: ['alice', 'bob', 'carol', 'dave', 'erin'].map((name) => ({ name, password: `${name}-password` })),
  },
});

test.beforeAll(async ({ device: started }) => {
  // The helpers and tables of cases below close over this handle, so the file keeps one.
  device = started;
  team = await createFolder(device, 'team');
  privateFile = await createFile(device, 'private.txt', 'alice only');
  await grant(device, 'alice', team.id, { id: userId(device, 'bob'), type: 'user' }, 'ReadFile');
  await grant(device, 'alice', team.id, { id: userId(device, 'carol'), type: 'user' }, 'WriteFile');
  const share = await shareWithLink(device, 'alice', [team.id]);
  tokens = {
    owner: device.tokenFor('alice'),
    reader: device.tokenFor('bob'),
    writer: device.tokenFor('carol'),
    stranger: device.tokenFor('dave'),
    readOnly: device.tokenFor('alice', 'openid nas_read_only'),
    share: await shareToken(share),
  };
});

async function freshTarget(): Promise<Target> {
  counter += 1;
  const file = await createFile(device, `file-${counter}.txt`, 'original', team.id);
  const started = await postMultipart(device, { name: `upload-${counter}.bin`, parentID: team.id }, 'abc', {
    path: '/sdk/v2/files/resumable',
    query: 'done=false',
  });
  const perm = await grant(
    device,
    'alice',
    file.id,
    { id: userId(device, 'erin'), type: 'user' },
    'ReadFile',
  );
  return {
    file: file.id,
    fileName: `file-${counter}.txt`,
    upload: idFromLocation(started),
    perm: perm.id,
    fresh: `new-${counter}.txt`,
  };
}

const json = (value: unknown) => ({ body: JSON.stringify(value), contentType: 'application/json' });
const create = (name: string) => {
  const { body, contentType } = multipartBody({ name, parentID: team.id }, 'x');
  return { body: new Uint8Array(body), contentType };
};
const row = (...statuses: number[]): Record<Caller, number> =>
  Object.fromEntries(CALLERS.map((caller, i) => [caller, statuses[i]])) as Record<Caller, number>;

//                                  owner reader writer stranger readOnly share none
const READ = row(200, 200, 200, 404, 200, 200, 401);
const SEARCH = row(200, 200, 200, 200, 200, 200, 401);

const routes: RouteCase[] = [
  {
    route: 'GET /v2/files/{id}',
    request: (t) => ({ method: 'GET', path: `/sdk/v2/files/${t.file}` }),
    expected: READ,
  },
  {
    route: 'GET /v2/files/{id}/content',
    request: (t) => ({ method: 'GET', path: `/sdk/v2/files/${t.file}/content` }),
    expected: READ,
  },
  {
    route: 'GET /v3/files/{id}/content',
    request: (t) => ({ method: 'GET', path: `/sdk/v3/files/${t.file}/content` }),
    expected: READ,
  },
  {
    route: 'POST /v2/files',
    request: (t) => ({ method: 'POST', path: '/sdk/v2/files', body: create(t.fresh) }),
    expected: row(201, 403, 201, 404, 403, 403, 401),
  },
  {
    route: 'PUT /v2/files/{id}/content',
    request: (t) => ({
      method: 'PUT',
      path: `/sdk/v2/files/${t.file}/content`,
      body: { body: 'changed', contentType: 'application/octet-stream' },
    }),
    expected: row(204, 403, 204, 404, 403, 403, 401),
  },
  {
    route: 'POST /v2/files/resumable',
    request: (t) => ({ method: 'POST', path: '/sdk/v2/files/resumable', body: create(t.fresh) }),
    expected: row(201, 403, 201, 404, 403, 403, 401),
  },
  {
    route: 'GET /v2/files/{id}/resumable',
    request: (t) => ({ method: 'GET', path: `/sdk/v2/files/${t.upload}/resumable` }),
    expected: row(200, 404, 200, 404, 403, 403, 401),
  },
  {
    route: 'PUT /v2/files/{id}/resumable/content',
    request: (t) => ({
      method: 'PUT',
      path: `/sdk/v2/files/${t.upload}/resumable/content?done=true`,
      body: { body: 'def', contentType: 'application/octet-stream' },
    }),
    expected: row(204, 404, 204, 404, 403, 403, 401),
  },
  {
    route: 'DELETE /v2/files/{id}/resumable',
    request: (t) => ({ method: 'DELETE', path: `/sdk/v2/files/${t.upload}/resumable` }),
    expected: row(204, 404, 204, 404, 403, 403, 401),
  },
  {
    route: 'PATCH /v2/files/{id}',
    request: (t) => ({ method: 'PATCH', path: `/sdk/v2/files/${t.file}`, body: json({ name: t.fresh }) }),
    expected: row(204, 403, 204, 404, 403, 403, 401),
  },
  {
    route: 'POST /v2/files/{id}/patch',
    request: (t) => ({
      method: 'POST',
      path: `/sdk/v2/files/${t.file}/patch`,
      body: json({ name: t.fresh }),
    }),
    expected: row(204, 403, 204, 404, 403, 403, 401),
  },
  {
    route: 'DELETE /v2/files/{id}',
    request: (t) => ({ method: 'DELETE', path: `/sdk/v2/files/${t.file}` }),
    expected: row(204, 403, 204, 404, 403, 403, 401),
  },
  {
    route: 'GET /v2/filesSearch/parents',
    request: () => ({ method: 'GET', path: `/sdk/v2/filesSearch/parents?ids=${team.id}` }),
    expected: READ,
  },
  {
    route: 'GET /v2/filesSearch/parentAndName',
    request: (t) => ({
      method: 'GET',
      path: `/sdk/v2/filesSearch/parentAndName?parentID=${team.id}&name=${encodeURIComponent(t.fileName)}`,
    }),
    expected: READ,
  },
  {
    // Search answers everyone with a read scope; what it finds is checked below.
    route: 'GET /v2/filesSearch/text',
    request: (t) => ({ method: 'GET', path: `/sdk/v2/filesSearch/text?q=${encodeURIComponent(t.fileName)}` }),
    expected: SEARCH,
  },
  {
    route: 'GET /v2/filesSearch/mediaTime',
    request: () => ({
      method: 'GET',
      path: '/sdk/v2/filesSearch/mediaTime?startTime=2000-01-01T00:00:00Z&endTime=2100-01-01T00:00:00Z',
    }),
    expected: SEARCH,
  },
  {
    // The whole device's space, the same for every user (one disk, no quota per user); never a share's.
    route: 'GET /v2/device/storage',
    request: () => ({ method: 'GET', path: '/sdk/v2/device/storage' }),
    expected: row(200, 200, 200, 200, 200, 403, 401),
  },
  {
    route: 'POST /v1/filePerms',
    request: (t) => ({
      method: 'POST',
      path: '/sdk/v1/filePerms',
      body: json({
        fileID: t.file,
        entity: { id: userId(device, 'erin'), type: 'user' },
        value: 'WriteFile',
      }),
    }),
    expected: row(201, 403, 403, 404, 403, 403, 401),
  },
  {
    route: 'GET /v1/filePermsSearch/granting',
    request: (t) => ({ method: 'GET', path: `/sdk/v1/filePermsSearch/granting?fileID=${t.file}` }),
    expected: row(200, 403, 403, 404, 200, 403, 401),
  },
  {
    route: 'DELETE /v1/filePerms/{id}',
    request: (t) => ({ method: 'DELETE', path: `/sdk/v1/filePerms/${t.perm}` }),
    expected: row(204, 404, 404, 404, 403, 403, 401),
  },
];

/** Reads of things outside `team`: the share and the users with grants must not see them. */
const outside: RouteCase[] = [
  {
    route: 'GET an unshared file',
    request: () => ({ method: 'GET', path: `/sdk/v2/files/${privateFile.id}` }),
    expected: row(200, 404, 404, 404, 200, 404, 401),
  },
  {
    route: 'GET the content of an unshared file',
    request: () => ({ method: 'GET', path: `/sdk/v2/files/${privateFile.id}/content` }),
    expected: row(200, 404, 404, 404, 200, 404, 401),
  },
  {
    route: 'GET the owner’s root by id',
    request: () => ({ method: 'GET', path: `/sdk/v2/files/${rootId(device, 'alice')}` }),
    expected: row(200, 404, 404, 404, 200, 404, 401),
  },
  {
    // Each user's own root; a link share has none.
    route: 'GET /v2/files/root',
    request: () => ({ method: 'GET', path: '/sdk/v2/files/root' }),
    expected: row(200, 200, 200, 200, 200, 404, 401),
  },
  {
    route: 'list the alias root',
    request: () => ({ method: 'GET', path: '/sdk/v2/filesSearch/parents?ids=root' }),
    expected: row(200, 200, 200, 200, 200, 404, 401),
  },
  {
    route: 'list the parent of the shared folder',
    request: () => ({ method: 'GET', path: `/sdk/v2/filesSearch/parents?ids=${rootId(device, 'alice')}` }),
    expected: row(200, 404, 404, 404, 200, 404, 401),
  },
  {
    route: 'find the shared folder by parent and name',
    request: () => ({
      method: 'GET',
      path: `/sdk/v2/filesSearch/parentAndName?parentID=${rootId(device, 'alice')}&name=team`,
    }),
    expected: row(200, 404, 404, 404, 200, 404, 401),
  },
  {
    route: 'find a sibling by parent and name',
    request: () => ({
      method: 'GET',
      path: `/sdk/v2/filesSearch/parentAndName?parentID=${rootId(device, 'alice')}&name=private.txt`,
    }),
    expected: row(200, 404, 404, 404, 200, 404, 401),
  },
];

async function send(caller: Caller, target: Target, route: RouteCase): Promise<Response> {
  const { method, path, body } = route.request(target);
  const headers = new Headers();
  if (caller !== 'none') headers.set('authorization', `Bearer ${tokens[caller]}`);
  if (body) headers.set('content-type', body.contentType);
  return fetch(`${device.base}${path}`, { method, headers, body: body?.body });
}

function cells(table: RouteCase[]): [string, Caller, number, RouteCase][] {
  return table.flatMap((route) =>
    CALLERS.map((caller): [string, Caller, number, RouteCase] => [
      route.route,
      caller,
      route.expected[caller],
      route,
    ]),
  );
}

describe('routes on items in a folder shared with reader, writer and a link', () => {
  it.each(cells(routes))('%s as %s answers %i', async (_route, caller, status, route) => {
    const target = await freshTarget();
    const response = await send(caller, target, route);
    expect(response.status).toBe(status);
    if (status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    if (status >= 400) expect(await response.json()).toMatchObject({ label: expect.any(String) as unknown });
  });
});

describe('reads outside the shared folder', () => {
  it.each(cells(outside))('%s as %s answers %i', async (_route, caller, status, route) => {
    const response = await send(caller, { file: '', fileName: '', upload: '', perm: '', fresh: '' }, route);
    expect(response.status).toBe(status);
  });
});

describe('text search', () => {
  // How many of the fresh file, the unshared private.txt each caller finds.
  const found: Record<Exclude<Caller, 'none'>, [number, number]> = {
    owner: [1, 1],
    reader: [1, 0],
    writer: [1, 0],
    stranger: [0, 0],
    readOnly: [1, 1],
    share: [1, 0],
  };

  it.each(Object.entries(found))('finds for %s only what it may read', async (caller, [inTeam, outside]) => {
    const target = await freshTarget();
    for (const [name, count] of [
      [target.fileName, inTeam],
      ['private.txt', outside],
    ] as const) {
      const response = await fetch(`${device.sdk}/v2/filesSearch/text?q=${encodeURIComponent(name)}`, {
        headers: { authorization: `Bearer ${tokens[caller as Exclude<Caller, 'none'>]}` },
      });
      const body = (await response.json()) as { matches: { file: { name: string } }[] };
      expect(
        body.matches.filter((match) => match.file.name === name),
        name,
      ).toHaveLength(count);
    }
  });
});

/** `METHOD /path` of every route the running device serves under /sdk, from fastify's route tree. */
function deviceRoutes(): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of device.running.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const [, indent = '', segment = '', methods = ''] = match;
    const depth = indent.length / 4;
    stack.length = depth;
    const path = `${stack.at(-1) ?? ''}${segment}`;
    stack.push(path);
    if (!path.startsWith('/sdk/')) continue;
    for (const method of methods.split(', ')) {
      if (method !== 'HEAD') found.push(`${method} ${path.slice('/sdk'.length)}`);
    }
  }
  return found;
}

it('covers every device route', () => {
  const served = deviceRoutes();
  expect(served.length).toBeGreaterThanOrEqual(routes.length);
  const covered = routes.map((route) => route.route.replace(/\{id\}/g, ':id'));
  expect(served.filter((route) => !covered.includes(route))).toEqual([]);
});
