// Finding and revoking file permissions: the granting search and DELETE /sdk/v1/filePerms/{id}
// (device-api.md §3).
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { FilePermRecord, FilePermsSearchResponse } from '../../../common/wire/sharing.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, createFolder, type Created } from '../../helpers/multipart.ts';
import { grant, rootId, PERMS_TREE_DEVICE, permsTree, userId } from '../../helpers/shares.ts';

const ANY_STRING: unknown = expect.any(String);

let folder: Created;
let sub: Created;
let file: Created;
let bob: string;
let carol: string;

test.override({ deviceOptions: PERMS_TREE_DEVICE });

test.beforeAll(async ({ device }) => {
  ({ folder, sub, file, bob, carol } = await permsTree(device));
  // bob may read and change what is in sub but not its permissions; carol may see every permission of
  // alice's and change those below folder.
  await grant(device, 'alice', sub.id, { id: bob, type: 'user' }, 'ReadFile');
  await grant(device, 'alice', sub.id, { id: bob, type: 'user' }, 'WriteFile');
  await grant(device, 'alice', 'root', { id: carol, type: 'user' }, 'ReadFilePerms');
  await grant(device, 'alice', folder.id, { id: carol, type: 'user' }, 'WriteFilePerms');
});

function granting(device: TestDevice, user: string, query: string): Promise<Response> {
  return device.fetchAs(user, `/sdk/v1/filePermsSearch/granting?${query}`);
}

async function grantingBody(
  device: TestDevice,
  user: string,
  query: string,
): Promise<FilePermsSearchResponse> {
  const response = await granting(device, user, query);
  expect(response.status).toBe(200);
  return (await response.json()) as FilePermsSearchResponse;
}

function revoke(device: TestDevice, user: string, id: string): Promise<Response> {
  return device.fetchAs(user, `/sdk/v1/filePerms/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

describe('GET /sdk/v1/filePermsSearch/granting', () => {
  let erin: Created;
  let grants: FilePermRecord[];

  test.beforeAll(async ({ device }) => {
    erin = await createFolder(device, 'granting');
    const leaf = await createFile(device, 'leaf.txt', 'x', erin.id);
    grants = [
      await grant(device, 'alice', erin.id, { id: bob, type: 'user' }, 'ReadFile'),
      await grant(device, 'alice', leaf.id, { id: bob, type: 'user' }, 'WriteFile'),
      await grant(device, 'alice', leaf.id, { id: carol, type: 'user' }, 'ReadFile'),
    ];
    erin = leaf;
  });

  it('lists the permissions on the file and on every ancestor, the owner’s FileOwner included', async ({
    device,
  }) => {
    const body = await grantingBody(device, 'alice', `fileID=${erin.id}`);
    expect(body.pageToken).toBe('');
    const ids = body.filePerms.map((perm) => perm.id);
    for (const perm of grants) expect(ids).toContain(perm.id);
    expect(body.filePerms).toContainEqual({
      id: ANY_STRING,
      fileID: rootId(device, 'alice'),
      entity: { id: userId(device, 'alice'), type: 'user' },
      value: 'FileOwner',
    });
    expect(body.filePerms.find((perm) => perm.id === grants[0]?.id)).toEqual(grants[0]);
  });

  it('filters by entityID and entityType', async ({ device }) => {
    const byBob = await grantingBody(
      device,
      'alice',
      `fileID=${erin.id}&entityID=${encodeURIComponent(bob)}&entityType=user`,
    );
    expect(byBob.filePerms.map((perm) => perm.id).sort()).toEqual([grants[0]?.id, grants[1]?.id].sort());
    const shares = await grantingBody(device, 'alice', `fileID=${erin.id}&entityType=cloudShare`);
    expect(shares.filePerms).toEqual([]);
  });

  it('pages with limit and pageToken, each permission once', async ({ device }) => {
    const all = await grantingBody(device, 'alice', `fileID=${erin.id}`);
    const seen: string[] = [];
    let pageToken = '';
    do {
      const page = await grantingBody(
        device,
        'alice',
        `fileID=${erin.id}&limit=1${pageToken ? `&pageToken=${pageToken}` : ''}`,
      );
      expect(page.filePerms.length).toBeLessThanOrEqual(1);
      seen.push(...page.filePerms.map((perm) => perm.id));
      pageToken = page.pageToken;
    } while (pageToken !== '' && seen.length <= all.filePerms.length);
    expect(seen.sort()).toEqual(all.filePerms.map((perm) => perm.id).sort());
  });

  it('lets a holder of ReadFilePerms search', async ({ device }) => {
    // carol holds ReadFilePerms on alice's root (granted above).
    expect((await granting(device, 'carol', `fileID=${erin.id}`)).status).toBe(200);
  });

  it('answers 403 to a user who may read the file but not its permissions', async ({ device }) => {
    const response = await granting(device, 'bob', `fileID=${erin.id}`);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ label: 'PERMISSION_DENIED' });
  });

  it('answers 404 to a user who cannot see the file', async ({ device }) => {
    const other = await createFolder(device, 'not for dave');
    const response = await granting(device, 'dave', `fileID=${other.id}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ label: 'FILE_NOT_FOUND' });
  });

  it.for([
    ['no fileID', ''],
    ['an unknown entityType', 'entityType=group'],
    ['a bad limit', 'limit=0'],
    ['a pageToken it never gave out', 'pageToken=nonsense'],
  ] as const)('answers 400 for %s', async ([_label, query], { device }) => {
    const fileQuery = query === '' ? '' : `fileID=${erin.id}&${query}`;
    expect((await granting(device, 'alice', fileQuery)).status).toBe(400);
  });
});

describe('DELETE /sdk/v1/filePerms/{id}', () => {
  it('answers 204 and the access is gone at once', async ({ device }) => {
    const target = await createFile(device, 'revoked.txt', 'x', folder.id);
    const perm = await grant(
      device,
      'alice',
      target.id,
      { id: userId(device, 'dave'), type: 'user' },
      'ReadFile',
    );
    expect((await device.fetchAs('dave', `/sdk/v2/files/${target.id}`)).status).toBe(200);
    expect((await revoke(device, 'alice', perm.id)).status).toBe(204);
    expect((await device.fetchAs('dave', `/sdk/v2/files/${target.id}`)).status).toBe(404);
    const again = await revoke(device, 'alice', perm.id);
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ label: 'PERMISSION_NOT_FOUND' });
  });

  it('answers 404 to whoever may not see the item’s permissions', async ({ device }) => {
    const perm = await grant(
      device,
      'alice',
      file.id,
      { id: userId(device, 'dave'), type: 'user' },
      'ReadFilePerms',
    );
    // bob may read and write the file but not see its permissions; dave holds only the permission itself.
    expect((await revoke(device, 'bob', perm.id)).status).toBe(404);
    expect((await revoke(device, 'alice', 'no-such-permission')).status).toBe(404);
  });

  it('answers 403 to a holder of ReadFilePerms only', async ({ device }) => {
    const perm = await grant(device, 'alice', file.id, { id: bob, type: 'user' }, 'ReadFilePerms');
    const response = await revoke(device, 'bob', perm.id);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ label: 'PERMISSION_DENIED' });
  });

  it('lets a holder of WriteFilePerms revoke', async ({ device }) => {
    const perm = await grant(
      device,
      'alice',
      sub.id,
      { id: userId(device, 'dave'), type: 'user' },
      'ReadFile',
    );
    expect((await revoke(device, 'carol', perm.id)).status).toBe(204);
  });

  it('refuses to remove the owner’s FileOwner', async ({ device }) => {
    const body = await grantingBody(
      device,
      'alice',
      `fileID=root&entityType=user&entityID=${encodeURIComponent(userId(device, 'alice'))}`,
    );
    const owner = body.filePerms.find((perm) => perm.value === 'FileOwner');
    expect(owner).toBeDefined();
    const response = await revoke(device, 'alice', owner?.id ?? '');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ label: 'OWNER_PERMISSION' });
    expect((await device.fetchAs('alice', '/sdk/v2/files/root')).status).toBe(200);
  });

  it('answers 403 to a read-only token and 401 without one', async ({ device }) => {
    const perm = await grant(
      device,
      'alice',
      folder.id,
      { id: userId(device, 'dave'), type: 'user' },
      'ReadFile',
    );
    const readOnly = await device.fetchAs('alice', `/sdk/v1/filePerms/${perm.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${device.tokenFor('alice', 'openid nas_read_only')}` },
    });
    expect(readOnly.status).toBe(403);
    expect((await fetch(`${device.sdk}/v1/filePerms/${perm.id}`, { method: 'DELETE' })).status).toBe(401);
    expect((await revoke(device, 'alice', perm.id)).status).toBe(204);
  });
});
