// Permissions granted to other users: a grant on a folder covers everything below it, ReadFile only reads,
// WriteFile also changes, and nothing outside the granted folder shows (device-api.md §3).
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { FileObject, ListingResponse } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, createFolder, postMultipart, type Created } from '../../helpers/multipart.ts';
import { grant, rootId, userId } from '../../helpers/shares.ts';

/** alice: team/ (bob ReadFile, carol WriteFile) holding deep/notes.txt; private.txt beside team/. */
let team: Created;
let deep: Created;
let notes: Created;
let privateFile: Created;

test.override({
  deviceOptions: {
    users: ['alice', 'bob', 'carol'].map((name) => ({ name, password: `${name}-password` })),
  },
});

test.beforeAll(async ({ device }) => {
  team = await createFolder(device, 'team');
  deep = await createFolder(device, 'deep', team.id);
  notes = await createFile(device, 'notes.txt', 'shared notes', deep.id);
  privateFile = await createFile(device, 'private.txt', 'alice only');
  await grant(device, 'alice', team.id, { id: userId(device, 'bob'), type: 'user' }, 'ReadFile');
  await grant(device, 'alice', team.id, { id: userId(device, 'carol'), type: 'user' }, 'WriteFile');
});

const json = (body: unknown): RequestInit => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function listing(device: TestDevice, user: string, folderId: string): Promise<ListingResponse> {
  const response = await device.fetchAs(user, `/sdk/v2/filesSearch/parents?ids=${folderId}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ListingResponse;
}

describe('a user with ReadFile on a folder', () => {
  it('reads the folder, what is below it and its content', async ({ device }) => {
    expect((await device.fetchAs('bob', `/sdk/v2/files/${team.id}`)).status).toBe(200);
    const file = await device.fetchAs('bob', `/sdk/v2/files/${notes.id}/content`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('shared notes');
  });

  it('lists the folder and its subfolders and finds by parent and name', async ({ device }) => {
    expect((await listing(device, 'bob', team.id)).files.map((item) => item.id)).toEqual([deep.id]);
    expect((await listing(device, 'bob', deep.id)).files.map((item) => item.id)).toEqual([notes.id]);
    const found = await device.fetchAs(
      'bob',
      `/sdk/v2/filesSearch/parentAndName?parentID=${deep.id}&name=notes.txt`,
    );
    expect(((await found.json()) as FileObject).id).toBe(notes.id);
  });

  it('sees nothing above or beside the folder', async ({ device }) => {
    const aliceRoot = rootId(device, 'alice');
    expect((await device.fetchAs('bob', `/sdk/v2/files/${aliceRoot}`)).status).toBe(404);
    expect((await device.fetchAs('bob', `/sdk/v2/filesSearch/parents?ids=${aliceRoot}`)).status).toBe(404);
    expect((await device.fetchAs('bob', `/sdk/v2/files/${privateFile.id}`)).status).toBe(404);
    const byName = `/sdk/v2/filesSearch/parentAndName?parentID=${aliceRoot}&name=private.txt`;
    expect((await device.fetchAs('bob', byName)).status).toBe(404);
  });

  it('keeps root meaning his own root', async ({ device }) => {
    const own = (await (await device.fetchAs('bob', '/sdk/v2/files/root')).json()) as FileObject;
    expect(own.id).toBe(rootId(device, 'bob'));
  });

  it('gets 403 for every change inside the folder', async ({ device }) => {
    const patch = await device.fetchAs('bob', `/sdk/v2/files/${notes.id}`, {
      method: 'PATCH',
      ...json({ name: 'x.txt' }),
    });
    expect(patch.status).toBe(403);
    expect(await patch.json()).toMatchObject({ label: 'PERMISSION_DENIED' });
    const put = await device.fetchAs('bob', `/sdk/v2/files/${notes.id}/content`, {
      method: 'PUT',
      body: 'bob',
    });
    expect(put.status).toBe(403);
    expect((await device.fetchAs('bob', `/sdk/v2/files/${notes.id}`, { method: 'DELETE' })).status).toBe(403);
    expect((await device.fetchAs('bob', `/sdk/v2/files/${team.id}`, { method: 'DELETE' })).status).toBe(403);
    const create = await postMultipart(device, { name: 'bob.txt', parentID: deep.id }, 'x', { user: 'bob' });
    expect(create.status).toBe(403);
    const content = await device.fetchAs('alice', `/sdk/v2/files/${notes.id}/content`);
    expect(await content.text()).toBe('shared notes');
  });
});

describe('a user with WriteFile on a folder', () => {
  it('creates inside it, and the new item belongs to the folder’s owner', async ({ device }) => {
    const response = await postMultipart(device, { name: 'carol.txt', parentID: deep.id }, 'from carol', {
      user: 'carol',
    });
    expect(response.status).toBe(201);
    const names = (await listing(device, 'alice', deep.id)).files.map((item) => item.name);
    expect(names).toContain('carol.txt');
  });

  it('replaces content, renames and deletes below it', async ({ device }) => {
    const target = await createFile(device, 'draft.txt', 'v1', deep.id);
    const put = await device.fetchAs('carol', `/sdk/v2/files/${target.id}/content`, {
      method: 'PUT',
      body: 'v2',
    });
    expect(put.status).toBe(204);
    const patch = await device.fetchAs('carol', `/sdk/v2/files/${target.id}`, {
      method: 'PATCH',
      ...json({ name: 'final.txt' }),
    });
    expect(patch.status).toBe(204);
    const read = (await (await device.fetchAs('alice', `/sdk/v2/files/${target.id}`)).json()) as FileObject;
    expect(read.name).toBe('final.txt');
    expect((await device.fetchAs('carol', `/sdk/v2/files/${target.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await device.fetchAs('alice', `/sdk/v2/files/${target.id}`)).status).toBe(404);
  });

  it('cannot carry an item off into her own tree', async ({ device }) => {
    const response = await device.fetchAs('carol', `/sdk/v2/files/${notes.id}`, {
      method: 'PATCH',
      ...json({ parentID: 'root' }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ label: 'CROSS_OWNER_MOVE' });
    expect((await device.fetchAs('alice', `/sdk/v2/files/${notes.id}`)).status).toBe(200);
  });

  it('cannot move an item out of the folder into the owner’s other folders', async ({ device }) => {
    const response = await device.fetchAs('carol', `/sdk/v2/files/${notes.id}`, {
      method: 'PATCH',
      ...json({ parentID: rootId(device, 'alice') }),
    });
    expect(response.status).toBe(404);
  });

  it('still gets 404 outside the folder', async ({ device }) => {
    const put = await device.fetchAs('carol', `/sdk/v2/files/${privateFile.id}/content`, {
      method: 'PUT',
      body: 'x',
    });
    expect(put.status).toBe(404);
  });
});

describe('inheritance follows the tree', () => {
  it('covers an item moved into the folder and no longer one moved out', async ({ device }) => {
    const loose = await createFile(device, 'loose.txt', 'x');
    expect((await device.fetchAs('bob', `/sdk/v2/files/${loose.id}`)).status).toBe(404);
    const moveIn = await device.fetchAs('alice', `/sdk/v2/files/${loose.id}`, {
      method: 'PATCH',
      ...json({ parentID: team.id }),
    });
    expect(moveIn.status).toBe(204);
    expect((await device.fetchAs('bob', `/sdk/v2/files/${loose.id}`)).status).toBe(200);
    const moveOut = await device.fetchAs('alice', `/sdk/v2/files/${loose.id}`, {
      method: 'PATCH',
      ...json({ parentID: 'root' }),
    });
    expect(moveOut.status).toBe(204);
    expect((await device.fetchAs('bob', `/sdk/v2/files/${loose.id}`)).status).toBe(404);
  });

  it('a grant on one file shows that file and not its folder', async ({ device }) => {
    const folder = await createFolder(device, 'single');
    const only = await createFile(device, 'only.txt', 'x', folder.id);
    await createFile(device, 'sibling.txt', 'x', folder.id);
    await grant(device, 'alice', only.id, { id: userId(device, 'bob'), type: 'user' }, 'ReadFile');
    expect((await device.fetchAs('bob', `/sdk/v2/files/${only.id}`)).status).toBe(200);
    expect((await device.fetchAs('bob', `/sdk/v2/filesSearch/parents?ids=${folder.id}`)).status).toBe(404);
    const sibling = `/sdk/v2/filesSearch/parentAndName?parentID=${folder.id}&name=sibling.txt`;
    expect((await device.fetchAs('bob', sibling)).status).toBe(404);
  });
});
