// Renaming, moving and changing metadata with PATCH /sdk/v2/files/{id} and its older form
// POST /sdk/v2/files/{id}/patch (device-api.md §3 "Files").
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import type { FileObject } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, createFolder, type Created } from '../../helpers/multipart.ts';

let folderCount = 0;
function freshFolder(device: TestDevice, parentID = 'root'): Promise<Created> {
  folderCount += 1;
  return createFolder(device, `patch-${folderCount}`, parentID);
}

async function getFile(device: TestDevice, id: string): Promise<FileObject> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as FileObject;
}

type PatchStyle = 'PATCH' | 'POST .../patch';

function patch(
  device: TestDevice,
  id: string,
  body: unknown,
  headers: Record<string, string> = {},
  style: PatchStyle = 'PATCH',
): Promise<Response> {
  const path = style === 'PATCH' ? `/sdk/v2/files/${id}` : `/sdk/v2/files/${id}/patch`;
  return device.fetchAs('alice', path, {
    method: style === 'PATCH' ? 'PATCH' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe.each<PatchStyle>(['PATCH', 'POST .../patch'])('%s', (style) => {
  it('renames: 204 with the new ETag that GET then shows', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'old.txt', 'x', folder.id);
    const response = await patch(device, file.id, { name: 'new.txt' }, {}, style);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    const after = await getFile(device, file.id);
    expect(after).toMatchObject({ name: 'new.txt', parentID: folder.id, extension: '.txt' });
    expect(response.headers.get('etag')).toBe(after.eTag);
    expect(after.eTag).not.toBe(file.etag);
  });

  it('moves to another folder, keeping the name and content', async ({ device }) => {
    const from = await freshFolder(device);
    const to = await freshFolder(device);
    const file = await createFile(device, 'moving.txt', 'payload', from.id);
    const response = await patch(device, file.id, { parentID: to.id }, {}, style);
    expect(response.status).toBe(204);
    expect(await getFile(device, file.id)).toMatchObject({ name: 'moving.txt', parentID: to.id });
    const content = await device.fetchAs('alice', `/sdk/v2/files/${file.id}/content`);
    expect(await content.text()).toBe('payload');
  });

  it('moves and renames in one call', async ({ device }) => {
    const from = await freshFolder(device);
    const to = await freshFolder(device);
    const file = await createFile(device, 'before.txt', 'x', from.id);
    expect((await patch(device, file.id, { parentID: to.id, name: 'after.txt' }, {}, style)).status).toBe(
      204,
    );
    expect(await getFile(device, file.id)).toMatchObject({ name: 'after.txt', parentID: to.id });
  });

  it('moves to the root with the alias root', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, `to-root-${style.length}.txt`, 'x', folder.id);
    expect((await patch(device, file.id, { parentID: 'root' }, {}, style)).status).toBe(204);
    expect((await getFile(device, file.id)).parentID).toBe((await getFile(device, 'root')).id);
  });

  it('sets mTime and cTime', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'times.txt', 'x', folder.id);
    const body = { mTime: '2020-02-03T04:05:06.789Z', cTime: '2019-01-01T00:00:00Z' };
    expect((await patch(device, file.id, body, {}, style)).status).toBe(204);
    expect(await getFile(device, file.id)).toMatchObject({
      mTime: '2020-02-03T04:05:06.789Z',
      cTime: '2019-01-01T00:00:00.000Z',
    });
  });

  it('sets hidden', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'hide-me.txt', 'x', folder.id);
    expect((await patch(device, file.id, { hidden: 'windows' }, {}, style)).status).toBe(204);
    expect((await getFile(device, file.id)).hidden).toBe('windows');
  });

  it('changes the eTag for a metadata-only change', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'etag.txt', 'x', folder.id);
    const response = await patch(device, file.id, { hidden: 'linux' }, {}, style);
    expect(response.headers.get('etag')).not.toBe(file.etag);
  });

  it('answers 204 when If-Match names the current eTag', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'guarded.txt', 'x', folder.id);
    expect(
      (await patch(device, file.id, { name: 'guarded-2.txt' }, { 'if-match': file.etag }, style)).status,
    ).toBe(204);
  });

  it('answers 412 and changes nothing when If-Match names an old eTag', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'stale.txt', 'x', folder.id);
    await patch(device, file.id, { hidden: 'mac' }, {}, style);
    const response = await patch(device, file.id, { name: 'renamed.txt' }, { 'if-match': file.etag }, style);
    expect(response.status).toBe(412);
    expect((await getFile(device, file.id)).name).toBe('stale.txt');
  });

  it('answers 412 when If-None-Match names the current eTag', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'none-match.txt', 'x', folder.id);
    const response = await patch(
      device,
      file.id,
      { name: 'renamed.txt' },
      { 'if-none-match': file.etag },
      style,
    );
    expect(response.status).toBe(412);
    expect((await getFile(device, file.id)).name).toBe('none-match.txt');
  });

  it('answers 204 when If-None-Match names another eTag', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'none-match-other.txt', 'x', folder.id);
    const response = await patch(
      device,
      file.id,
      { name: 'renamed.txt' },
      { 'if-none-match': '"other"' },
      style,
    );
    expect(response.status).toBe(204);
  });

  it('answers 409 for a rename onto a taken name', async ({ device }) => {
    const folder = await freshFolder(device);
    await createFile(device, 'taken.txt', 'x', folder.id);
    const file = await createFile(device, 'mine.txt', 'x', folder.id);
    const response = await patch(device, file.id, { name: 'taken.txt' }, {}, style);
    expect(response.status).toBe(409);
    expect((await getFile(device, file.id)).name).toBe('mine.txt');
  });

  it('answers 409 for a move into a folder holding that name', async ({ device }) => {
    const from = await freshFolder(device);
    const to = await freshFolder(device);
    await createFile(device, 'same.txt', 'x', to.id);
    const file = await createFile(device, 'same.txt', 'x', from.id);
    expect((await patch(device, file.id, { parentID: to.id }, {}, style)).status).toBe(409);
    expect((await getFile(device, file.id)).parentID).toBe(from.id);
  });

  it('answers 400 for moving a folder into itself', async ({ device }) => {
    const folder = await freshFolder(device);
    expect((await patch(device, folder.id, { parentID: folder.id }, {}, style)).status).toBe(400);
  });

  it('answers 400 for moving a folder below itself', async ({ device }) => {
    const top = await freshFolder(device);
    const middle = await createFolder(device, 'middle', top.id);
    const bottom = await createFolder(device, 'bottom', middle.id);
    const response = await patch(device, top.id, { parentID: bottom.id }, {}, style);
    expect(response.status).toBe(400);
    expect((await getFile(device, top.id)).parentID).toBe((await getFile(device, 'root')).id);
  });

  it('answers 400 for moving into a file', async ({ device }) => {
    const folder = await freshFolder(device);
    const target = await createFile(device, 'a-file.txt', 'x', folder.id);
    const file = await createFile(device, 'mover.txt', 'x', folder.id);
    expect((await patch(device, file.id, { parentID: target.id }, {}, style)).status).toBe(400);
  });

  it('answers 404 for moving into a folder that does not exist', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'lost.txt', 'x', folder.id);
    expect((await patch(device, file.id, { parentID: 'no-such-folder' }, {}, style)).status).toBe(404);
  });

  it('answers 403 for patching root, by alias or by id', async ({ device }) => {
    const rootId = (await getFile(device, 'root')).id;
    expect((await patch(device, 'root', { name: 'renamed-root' }, {}, style)).status).toBe(403);
    expect((await patch(device, rootId, { hidden: 'mac' }, {}, style)).status).toBe(403);
  });

  it('answers 404 for an unknown id', async ({ device }) => {
    expect((await patch(device, 'no-such-id', { name: 'x.txt' }, {}, style)).status).toBe(404);
  });
});

describe('a folder’s eTag', () => {
  it('changes when a child is added', async ({ device }) => {
    const folder = await freshFolder(device);
    const before = (await getFile(device, folder.id)).eTag;
    await createFile(device, 'added.txt', 'x', folder.id);
    expect((await getFile(device, folder.id)).eTag).not.toBe(before);
  });

  it('changes when a child is renamed', async ({ device }) => {
    const folder = await freshFolder(device);
    const child = await createFile(device, 'child.txt', 'x', folder.id);
    const before = (await getFile(device, folder.id)).eTag;
    await patch(device, child.id, { name: 'renamed-child.txt' });
    expect((await getFile(device, folder.id)).eTag).not.toBe(before);
  });

  it('changes for both folders when a child moves between them', async ({ device }) => {
    const from = await freshFolder(device);
    const to = await freshFolder(device);
    const child = await createFile(device, 'traveller.txt', 'x', from.id);
    const fromBefore = (await getFile(device, from.id)).eTag;
    const toBefore = (await getFile(device, to.id)).eTag;
    await patch(device, child.id, { parentID: to.id });
    expect((await getFile(device, from.id)).eTag).not.toBe(fromBefore);
    expect((await getFile(device, to.id)).eTag).not.toBe(toBefore);
  });

  it('changes when a child is removed', async ({ device }) => {
    const folder = await freshFolder(device);
    const child = await createFile(device, 'doomed.txt', 'x', folder.id);
    const before = (await getFile(device, folder.id)).eTag;
    expect((await device.fetchAs('alice', `/sdk/v2/files/${child.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await getFile(device, folder.id)).eTag).not.toBe(before);
  });

  it('changes when the folder itself is renamed', async ({ device }) => {
    const folder = await freshFolder(device);
    const response = await patch(device, folder.id, { name: `renamed-folder-${folderCount}` });
    expect(response.status).toBe(204);
    expect((await getFile(device, folder.id)).eTag).not.toBe(folder.etag);
  });
});
