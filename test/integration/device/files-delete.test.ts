// Deleting with DELETE /sdk/v2/files/{id}: files and empty folders at once, non-empty folders in the
// background (device-api.md §3 "Files").
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import type { FileObject, ListingResponse } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, createFolder, type Created } from '../../helpers/multipart.ts';

let folderCount = 0;
function freshFolder(device: TestDevice, parentID = 'root'): Promise<Created> {
  folderCount += 1;
  return createFolder(device, `delete-${folderCount}`, parentID);
}

function remove(device: TestDevice, id: string, headers: Record<string, string> = {}): Promise<Response> {
  return device.fetchAs('alice', `/sdk/v2/files/${id}`, { method: 'DELETE', headers });
}

async function status(device: TestDevice, path: string): Promise<number> {
  return (await device.fetchAs('alice', path)).status;
}

async function listingIds(device: TestDevice, folderId: string): Promise<string[]> {
  const response = await device.fetchAs('alice', `/sdk/v2/filesSearch/parents?ids=${folderId}&limit=1000`);
  return ((await response.json()) as ListingResponse).files.map((file) => file.id ?? '');
}

/** The content file names of items, read from the device's database (the API never shows them). */
function blobNames(device: TestDevice, ids: readonly string[]): string[] {
  const select = device.running.context.db.prepare<[string], { blob: string | null }>(
    'SELECT blob FROM items WHERE id = ?',
  );
  return ids.map((id) => select.get(id)?.blob).filter((blob): blob is string => typeof blob === 'string');
}

/** The names of the files under `<dataDir>/content`, at any depth. */
function contentFiles(device: TestDevice): Set<string> {
  const entries = readdirSync(join(device.dataDir, 'content'), { recursive: true, withFileTypes: true });
  return new Set(entries.filter((entry) => entry.isFile()).map((entry) => basename(entry.name)));
}

/** Runs `task` over `items` with at most `limit` at a time. */
async function inBatches<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += limit) {
    results.push(...(await Promise.all(items.slice(start, start + limit).map(task))));
  }
  return results;
}

describe('DELETE /sdk/v2/files/{id}', () => {
  it('answers 204 for a file, which is then gone from GET, content and the listing', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'bye.txt', 'x', folder.id);
    const response = await remove(device, file.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(await status(device, `/sdk/v2/files/${file.id}`)).toBe(404);
    expect(await status(device, `/sdk/v2/files/${file.id}/content`)).toBe(404);
    expect(await listingIds(device, folder.id)).toEqual([]);
  });

  it('frees the name for a new item at once', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'reuse.txt', 'one', folder.id);
    await remove(device, file.id);
    const again = await createFile(device, 'reuse.txt', 'two', folder.id);
    expect(again.id).not.toBe(file.id);
  });

  it('answers 204 for an empty folder', async ({ device }) => {
    const folder = await freshFolder(device);
    const empty = await createFolder(device, 'empty', folder.id);
    expect((await remove(device, empty.id)).status).toBe(204);
    expect(await status(device, `/sdk/v2/files/${empty.id}`)).toBe(404);
  });

  it('answers 202 for a non-empty folder, which vanishes from GET and the listing at once', async ({
    device,
  }) => {
    const folder = await freshFolder(device);
    const full = await createFolder(device, 'full', folder.id);
    const child = await createFile(device, 'child.txt', 'x', full.id);
    const sub = await createFolder(device, 'sub', full.id);
    const grandchild = await createFile(device, 'grandchild.txt', 'y', sub.id);
    const response = await remove(device, full.id);
    expect(response.status).toBe(202);
    for (const id of [full.id, child.id, sub.id, grandchild.id]) {
      expect(await status(device, `/sdk/v2/files/${id}`)).toBe(404);
    }
    expect(await listingIds(device, folder.id)).toEqual([]);
    expect((await device.fetchAs('alice', `/sdk/v2/filesSearch/parents?ids=${full.id}`)).status).toBe(404);
  });

  it('answers 404 for a second DELETE of a folder that is still being removed', async ({ device }) => {
    const folder = await freshFolder(device);
    await createFile(device, 'child.txt', 'x', folder.id);
    expect((await remove(device, folder.id)).status).toBe(202);
    expect((await remove(device, folder.id)).status).toBe(404);
  });

  it('answers 404 for an item deleted already', async ({ device }) => {
    const file = await createFile(device, `twice-${folderCount}.txt`, 'x');
    expect((await remove(device, file.id)).status).toBe(204);
    expect((await remove(device, file.id)).status).toBe(404);
  });

  it('answers 404 for an unknown id', async ({ device }) => {
    expect((await remove(device, 'no-such-id')).status).toBe(404);
  });

  it('answers 403 for root, by alias or by id', async ({ device }) => {
    const rootResponse = await device.fetchAs('alice', '/sdk/v2/files/root');
    const rootId = ((await rootResponse.json()) as FileObject).id;
    expect((await remove(device, 'root')).status).toBe(403);
    expect((await remove(device, rootId)).status).toBe(403);
    expect(await status(device, '/sdk/v2/files/root')).toBe(200);
  });

  it('answers 412 and keeps the item when If-Match names an old eTag', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'guarded.txt', 'x', folder.id);
    await device.fetchAs('alice', `/sdk/v2/files/${file.id}/content`, { method: 'PUT', body: 'changed' });
    expect((await remove(device, file.id, { 'if-match': file.etag })).status).toBe(412);
    expect(await status(device, `/sdk/v2/files/${file.id}`)).toBe(200);
  });

  it('answers 204 when If-Match names the current eTag', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'current.txt', 'x', folder.id);
    expect((await remove(device, file.id, { 'if-match': file.etag })).status).toBe(204);
  });

  it('answers 412 when If-None-Match is *', async ({ device }) => {
    const folder = await freshFolder(device);
    const file = await createFile(device, 'none-match.txt', 'x', folder.id);
    expect((await remove(device, file.id, { 'if-none-match': '*' })).status).toBe(412);
    expect(await status(device, `/sdk/v2/files/${file.id}`)).toBe(200);
  });

  it('removes the content file of a deleted file once the deleter is idle', async ({ device }) => {
    const file = await createFile(device, `blob-${folderCount}.bin`, 'some bytes');
    const [blob] = blobNames(device, [file.id]);
    expect(contentFiles(device).has(blob ?? '')).toBe(true);
    await remove(device, file.id);
    await device.running.context.deleter.idle();
    expect(contentFiles(device).has(blob ?? '')).toBe(false);
  });

  it('deletes a folder of 1,000 files: 202, every child 404, every content file removed', async ({
    device,
  }) => {
    const folder = await freshFolder(device);
    const names = Array.from({ length: 1000 }, (_, i) => `file-${String(i).padStart(4, '0')}.txt`);
    const children = await inBatches(names, 25, (name) =>
      createFile(device, name, `content of ${name}`, folder.id),
    );
    const blobs = blobNames(
      device,
      children.map((child) => child.id),
    );
    expect(new Set(blobs).size).toBe(1000);
    const before = contentFiles(device);
    expect(blobs.filter((blob) => !before.has(blob))).toEqual([]);

    expect((await remove(device, folder.id)).status).toBe(202);
    const statuses = await inBatches(children, 50, (child) => status(device, `/sdk/v2/files/${child.id}`));
    expect(statuses.every((code) => code === 404)).toBe(true);

    await device.running.context.deleter.idle();
    const after = contentFiles(device);
    expect(blobs.filter((blob) => after.has(blob))).toEqual([]);
  }, 120_000);
});
