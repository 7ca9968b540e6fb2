// Granting file permissions: POST /sdk/v1/filePerms, its statuses and who may grant (device-api.md §3).
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { FilePermRecord } from '../../../common/wire/sharing.ts';
import type { Created } from '../../helpers/multipart.ts';
import {
  createShare,
  grant,
  postFilePerm,
  rootId,
  PERMS_TREE_DEVICE,
  permsTree,
  userId,
} from '../../helpers/shares.ts';

const ANY_STRING: unknown = expect.any(String);

let folder: Created;
let sub: Created;
let file: Created;
let bob: string;
let carol: string;

test.override({ deviceOptions: PERMS_TREE_DEVICE });

test.beforeAll(async ({ device }) => {
  ({ folder, sub, file, bob, carol } = await permsTree(device));
  // bob may read what is in sub, which is not the right to grant there.
  await grant(device, 'alice', sub.id, { id: bob, type: 'user' }, 'ReadFile');
});

describe('POST /sdk/v1/filePerms', () => {
  it('answers 201 with Location and the stored record', async ({ device }) => {
    const response = await postFilePerm(device, 'alice', file.id, { id: bob, type: 'user' }, 'ReadFile');
    expect(response.status).toBe(201);
    const record = (await response.json()) as FilePermRecord;
    expect(record).toEqual({
      id: ANY_STRING,
      fileID: file.id,
      entity: { id: bob, type: 'user' },
      value: 'ReadFile',
    });
    expect(response.headers.get('location')).toBe(`/sdk/v1/filePerms/${record.id}`);
  });

  it('answers 409 for the same permission twice', async ({ device }) => {
    await grant(device, 'alice', sub.id, { id: bob, type: 'user' }, 'WriteFile');
    const again = await postFilePerm(device, 'alice', sub.id, { id: bob, type: 'user' }, 'WriteFile');
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ label: 'PERMISSION_EXISTS' });
  });

  it('takes another value for the same entity as a new permission', async ({ device }) => {
    const response = await postFilePerm(device, 'alice', sub.id, { id: bob, type: 'user' }, 'ReadFilePerms');
    expect(response.status).toBe(201);
  });

  it('accepts the alias root for the owner and stores the root’s id', async ({ device }) => {
    const response = await postFilePerm(
      device,
      'alice',
      'root',
      { id: carol, type: 'user' },
      'ReadFilePerms',
    );
    expect(response.status).toBe(201);
    expect(((await response.json()) as FilePermRecord).fileID).toBe(rootId(device, 'alice'));
  });

  it('answers under the relay address too', async ({ device }) => {
    const response = await device.fetchAs(
      'alice',
      `/proxy/${device.running.context.device.id}/sdk/v1/filePerms`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fileID: folder.id, entity: { id: carol, type: 'user' }, value: 'ReadFile' }),
      },
    );
    expect(response.status).toBe(201);
  });

  const badBodies: [string, unknown, string][] = [
    ['a body that is not an object', ['fileID'], 'INVALID_BODY'],
    [
      'no fileID',
      { entity: { id: 'x', type: 'user' }, value: 'ReadFile' },
      'GENERAL_INSUFFICIENT_PARAMETERS',
    ],
    [
      'a fileID that is not a string',
      { fileID: 1, entity: { id: 'x', type: 'user' }, value: 'ReadFile' },
      'INVALID_PARAMETER',
    ],
    ['no entity', { fileID: 'F', value: 'ReadFile' }, 'GENERAL_INSUFFICIENT_PARAMETERS'],
    [
      'an entity that is not an object',
      { fileID: 'F', entity: 'bob', value: 'ReadFile' },
      'INVALID_PARAMETER',
    ],
    [
      'no entity.id',
      { fileID: 'F', entity: { type: 'user' }, value: 'ReadFile' },
      'GENERAL_INSUFFICIENT_PARAMETERS',
    ],
    [
      'an unknown entity.type',
      { fileID: 'F', entity: { id: 'x', type: 'group' }, value: 'ReadFile' },
      'INVALID_ENTITY_TYPE',
    ],
    ['no value', { fileID: 'F', entity: { id: 'x', type: 'user' } }, 'GENERAL_INSUFFICIENT_PARAMETERS'],
    [
      'an unknown value',
      { fileID: 'F', entity: { id: 'x', type: 'user' }, value: 'ReadFiles' },
      'INVALID_PERMISSION_VALUE',
    ],
    [
      'the value FileOwner',
      { fileID: 'F', entity: { id: 'x', type: 'user' }, value: 'FileOwner' },
      'INVALID_PERMISSION_VALUE',
    ],
    [
      'WriteFile for a link share',
      { fileID: 'F', entity: { id: 'x', type: 'cloudShare' }, value: 'WriteFile' },
      'INVALID_PERMISSION_VALUE',
    ],
  ];

  it.for(badBodies)('answers 400 for %s', async ([_label, body, label], { device }) => {
    const withFile = JSON.parse(JSON.stringify(body).replace('"F"', JSON.stringify(file.id))) as unknown;
    const response = await device.fetchAs('alice', '/sdk/v1/filePerms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(withFile),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ label, message: ANY_STRING });
  });

  it('answers 400 for malformed JSON', async ({ device }) => {
    const response = await device.fetchAs('alice', '/sdk/v1/filePerms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"fileID":',
    });
    expect(response.status).toBe(400);
  });

  it('answers 400 UNKNOWN_ENTITY for a user or a share the device does not know', async ({ device }) => {
    const user = await postFilePerm(
      device,
      'alice',
      file.id,
      { id: 'auth0|000000000000000000000000', type: 'user' },
      'ReadFile',
    );
    expect(user.status).toBe(400);
    expect(await user.json()).toMatchObject({ label: 'UNKNOWN_ENTITY' });
    const share = await createShare(device, 'alice', [file.id]);
    // The classic mistake: the shareId where the authId belongs.
    const byShareId = await postFilePerm(
      device,
      'alice',
      file.id,
      { id: share.shareId, type: 'cloudShare' },
      'ReadFile',
    );
    expect(byShareId.status).toBe(400);
    expect(await byShareId.json()).toMatchObject({ label: 'UNKNOWN_ENTITY' });
  });

  it('answers 404 for an unknown file and for a file the caller cannot see', async ({ device }) => {
    const unknown = await postFilePerm(
      device,
      'alice',
      'no-such-item',
      { id: bob, type: 'user' },
      'ReadFile',
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ label: 'FILE_NOT_FOUND' });
    const hidden = await postFilePerm(
      device,
      'dave',
      folder.id,
      { id: userId(device, 'dave'), type: 'user' },
      'ReadFile',
    );
    expect(hidden.status).toBe(404);
  });

  it('answers 403 to a user who may read the item but not grant on it', async ({ device }) => {
    const response = await postFilePerm(
      device,
      'bob',
      file.id,
      { id: userId(device, 'dave'), type: 'user' },
      'ReadFile',
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ label: 'PERMISSION_DENIED' });
  });

  it('lets a holder of WriteFilePerms on an ancestor grant', async ({ device }) => {
    await grant(device, 'alice', folder.id, { id: carol, type: 'user' }, 'WriteFilePerms');
    const response = await postFilePerm(
      device,
      'carol',
      file.id,
      { id: userId(device, 'dave'), type: 'user' },
      'ReadFile',
    );
    expect(response.status).toBe(201);
    expect((await device.fetchAs('dave', `/sdk/v2/files/${file.id}`)).status).toBe(200);
  });

  it('answers 403 to a read-only token', async ({ device }) => {
    const token = device.tokenFor('alice', 'openid nas_read_only');
    const response = await postFilePerm(
      device,
      'alice',
      file.id,
      { id: bob, type: 'user' },
      'WriteFilePerms',
      token,
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ label: 'INSUFFICIENT_SCOPE' });
  });

  it('answers 401 without a token', async ({ device }) => {
    const response = await fetch(`${device.sdk}/v1/filePerms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fileID: file.id, entity: { id: bob, type: 'user' }, value: 'ReadFile' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });
});
