// The device files client against the real local device: every call, and the requests each one costs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { DIR_MIME_TYPE } from '../../../../common/wire/device-api.ts';
import { clientFor } from '../../../helpers/api-client.ts';

describe('DeviceClient files', () => {
  it('creates a file with content in one POST and reads it back', async ({ device }) => {
    const { device: api, requests } = clientFor(device);
    const mTimeMs = Date.parse('2026-01-02T03:04:05.678Z');
    const created = await api.create({ name: 'hello.txt', content: Buffer.from('hello'), mTimeMs });
    expect(created.eTag).toMatch(/^".+"$/);
    expect(requests()).toEqual(['POST /sdk/v2/files']);
    const file = await api.getFile(created.id);
    expect(file).toMatchObject({
      id: created.id,
      name: 'hello.txt',
      size: 5,
      isFolder: false,
      eTag: created.eTag,
    });
    expect(file.mTimeMs).toBe(mTimeMs);
    expect(file.parentID).toBeDefined();
  });

  it('reads the root, whose name is empty, without calling it invalid', async ({ device }) => {
    const root = await clientFor(device).device.getFile('root');
    expect(root).toMatchObject({ name: '', isFolder: true, parentID: undefined });
  });

  it('creates folders and finds children by parent and name', async ({ device }) => {
    const { device: api } = clientFor(device);
    const made = await api.createFolder({ name: 'Photos' });
    const found = await api.findByName('root', 'Photos');
    expect(found).toMatchObject({ id: made.id, isFolder: true, mimeType: DIR_MIME_TYPE });
    expect(await api.findByName('root', 'no such thing')).toBeUndefined();
  });

  it('reports a name clash as CONFLICT, or takes a free name when asked to', async ({ device }) => {
    const { device: api } = clientFor(device);
    await api.create({ name: 'clash.txt', content: Buffer.from('1') });
    await expect(api.create({ name: 'clash.txt', content: Buffer.from('2') })).rejects.toMatchObject({
      code: 'CONFLICT',
      label: 'NAME_CONFLICT',
    });
    const second = await api.create({
      name: 'clash.txt',
      content: Buffer.from('2'),
      resolveNameConflict: true,
    });
    expect((await api.getFile(second.id)).name).toBe('clash (1).txt');
  });

  it('replaces content with If-Match and refuses a stale eTag with PRECONDITION_FAILED', async ({
    device,
  }) => {
    const { device: api } = clientFor(device);
    const created = await api.create({ name: 'put.txt', content: Buffer.from('old') });
    const put = await api.putContent(created.id, Buffer.from('new content'), { ifMatch: created.eTag });
    expect(put.eTag).not.toBe(created.eTag);
    await expect(
      api.putContent(created.id, Buffer.from('x'), { ifMatch: created.eTag }),
    ).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
    });
    expect((await api.getFile(created.id)).size).toBe('new content'.length);
  });

  it('renames with exactly one PATCH', async ({ device }) => {
    const { device: api, requests } = clientFor(device);
    const created = await api.create({ name: 'before.txt', content: Buffer.from('x') });
    const start = requests().length;
    const patched = await api.patch(created.id, { name: 'after.txt' }, { ifMatch: created.eTag });
    expect(requests().slice(start)).toEqual([`PATCH /sdk/v2/files/${created.id}`]);
    expect(await api.getFile(created.id)).toMatchObject({ name: 'after.txt', eTag: patched.eTag });
  });

  it('refuses to send names that could escape a folder, before any request', async ({ device }) => {
    const { device: api, requests } = clientFor(device);
    for (const name of ['..', '.', 'a/b', 'a\\b', 'nul\0byte', 'x'.repeat(256), '']) {
      await expect(api.create({ name })).rejects.toMatchObject({ code: 'INVALID_NAME' });
    }
    await expect(api.patch('root', { name: '../up' })).rejects.toMatchObject({ code: 'INVALID_NAME' });
    expect(requests()).toEqual([]);
  });

  it('deletes a file (204) and a non-empty folder in the background (202)', async ({ device }) => {
    const { device: api } = clientFor(device);
    const file = await api.create({ name: 'gone.txt', content: Buffer.from('x') });
    expect(await api.delete(file.id, { ifMatch: file.eTag })).toEqual({ inBackground: false });
    const dir = await api.createFolder({ name: 'full' });
    await api.create({ name: 'inside.txt', parentId: dir.id, content: Buffer.from('x') });
    expect(await api.delete(dir.id)).toEqual({ inBackground: true });
    await expect(api.getFile(dir.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(api.delete(file.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('downloads to a path through a temporary file and verifies the length', async ({ device, tempDir }) => {
    const { device: api } = clientFor(device);
    const content = Buffer.from('download me '.repeat(1000));
    const created = await api.create({ name: 'down.txt', content });
    const target = join(tempDir, 'down.txt');
    const progress: number[] = [];
    const result = await api.download(created.id, target, { onProgress: (p) => progress.push(p.bytesDone) });
    expect(readFileSync(target)).toEqual(content);
    expect(result).toEqual({ size: content.length, eTag: created.eTag });
    expect(progress.at(-1)).toBe(content.length);
  });

  it('uploads from a file path with progress in content bytes', async ({ device, tempDir }) => {
    const { device: api } = clientFor(device);
    const source = join(tempDir, 'source.bin');
    writeFileSync(source, Buffer.alloc(100_000, 7));
    const progress: number[] = [];
    const result = await api.upload({
      name: 'from-path.bin',
      content: { path: source, size: 100_000 },
      onProgress: (p) => progress.push(p.bytesDone),
    });
    expect(result.size).toBe(100_000);
    expect(Math.max(...progress)).toBe(100_000);
    expect((await api.getFile(result.id)).size).toBe(100_000);
  });
});

describe('DeviceClient listings', () => {
  it('pages through a folder and revalidates it with If-None-Match', async ({ device }) => {
    const { device: api, requests } = clientFor(device);
    const dir = await api.createFolder({ name: 'paged' });
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      await api.create({ name, parentId: dir.id, content: Buffer.from(name) });
    const start = requests().length;
    const all = await api.listAll(dir.id, { limit: 2, orderBy: 'name' });
    if (all.notModified) throw new Error('expected a listing');
    expect(all.files.map((file) => file.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(all.rejected).toEqual([]);
    expect(requests().slice(start)).toHaveLength(3);
    expect(await api.list(dir.id, { limit: 2, orderBy: 'name', ifNoneMatch: all.eTag })).toEqual({
      notModified: true,
    });
    await api.create({ name: 'f', parentId: dir.id });
    const changed = await api.list(dir.id, { limit: 2, orderBy: 'name', ifNoneMatch: all.eTag });
    expect(changed.notModified).toBe(false);
  });
});
