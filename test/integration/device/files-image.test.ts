// The File's `image` object over HTTP (device-api.md §3 "Image metadata"): filled when image content is
// stored by a multipart create, a resumable upload or a content PUT, and absent for anything else.
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import type { FileObject, ImageInfo, ListingResponse } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { CAMERA_EXIF, corruptJpeg, jpegWithExif, minimalPng } from '../../helpers/images.ts';
import {
  createFile,
  folderMaker,
  createItem,
  idFromLocation,
  postMultipart,
} from '../../helpers/multipart.ts';

const freshFolder = folderMaker('image-test');

const CAMERA_INFO: ImageInfo = {
  date: '2024:06:15 14:30:05',
  width: 640,
  height: 480,
  cameraMake: 'Canon',
  cameraModel: 'Canon EOS 5D Mark IV',
  aperture: 2.8,
  exposureTime: 0.008,
  isoSpeed: 400,
  focalLength: 50,
  flashFired: false,
  orientation: 1,
};
const cameraJpeg = (): Buffer => jpegWithExif({ width: 640, height: 480, exif: CAMERA_EXIF });

async function getFile(device: TestDevice, id: string, query = ''): Promise<Partial<FileObject>> {
  const response = await device.fetchAs('alice', `/sdk/v2/files/${id}${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Partial<FileObject>;
}

async function listing(device: TestDevice, folderId: string, query = ''): Promise<Partial<FileObject>[]> {
  const response = await device.fetchAs('alice', `/sdk/v2/filesSearch/parents?ids=${folderId}${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as ListingResponse).files;
}

function putContent(device: TestDevice, id: string, body: Buffer | string): Promise<Response> {
  return device.fetchAs('alice', `/sdk/v2/files/${id}/content`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body,
  });
}

async function startUpload(
  device: TestDevice,
  metadata: Record<string, unknown>,
  content?: Buffer,
  query = 'done=false',
): Promise<string> {
  const response = await postMultipart(device, metadata, content, { path: '/sdk/v2/files/resumable', query });
  expect(response.status).toBe(201);
  return idFromLocation(response);
}

function putChunk(device: TestDevice, id: string, chunk: Buffer, query = ''): Promise<Response> {
  return device.fetchAs('alice', `/sdk/v2/files/${id}/resumable/content${query ? `?${query}` : ''}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: chunk,
  });
}

describe('image metadata of a multipart create', () => {
  it('fills image from the JPEG headers and EXIF, in GET and in the listing', async ({ device }) => {
    const folder = await freshFolder(device);
    const created = await createFile(device, 'photo.jpg', cameraJpeg(), folder.id);
    expect((await getFile(device, created.id)).image).toEqual(CAMERA_INFO);
    const [listed] = await listing(device, folder.id);
    expect(listed).toMatchObject({ id: created.id, image: CAMERA_INFO });
  });

  it('fills image for a PNG with its size only', async ({ device }) => {
    const created = await createFile(device, 'diagram.png', minimalPng(300, 200));
    expect((await getFile(device, created.id)).image).toEqual({ width: 300, height: 200 });
  });

  it('goes by the content, not by the name or mimeType', async ({ device }) => {
    const created = await createItem(
      device,
      { name: 'IMG_0001', mimeType: 'application/octet-stream' },
      cameraJpeg(),
    );
    expect((await getFile(device, created.id)).image).toEqual(CAMERA_INFO);
  });

  it('creates a corrupt JPEG with 201 and no image, keeping its bytes', async ({ device }) => {
    const bytes = corruptJpeg();
    const response = await postMultipart(device, { name: 'broken.jpg' }, bytes);
    expect(response.status).toBe(201);
    const id = idFromLocation(response);
    const file = await getFile(device, id);
    expect(file.image).toBeUndefined();
    expect(file).toMatchObject({ size: bytes.length, mimeType: 'image/jpeg' });
    const content = await device.fetchAs('alice', `/sdk/v2/files/${id}/content`);
    expect(Buffer.from(await content.arrayBuffer())).toEqual(bytes);
  });

  it('gives a non-image file no image, even named .jpg', async ({ device }) => {
    const text = await createFile(device, 'notes.txt', 'just text');
    const fake = await createFile(device, 'fake.jpg', 'not a jpeg either');
    expect(await getFile(device, text.id)).not.toHaveProperty('image');
    expect(await getFile(device, fake.id)).not.toHaveProperty('image');
  });

  it('gives an empty file and a folder no image', async ({ device }) => {
    const empty = await createFile(device, 'empty.jpg', '');
    const folder = await freshFolder(device);
    expect(await getFile(device, empty.id)).not.toHaveProperty('image');
    expect(await getFile(device, folder.id)).not.toHaveProperty('image');
  });
});

describe('image metadata and fields=', () => {
  it('returns only image with fields=image', async ({ device }) => {
    const created = await createFile(device, 'fields.jpg', cameraJpeg());
    expect(await getFile(device, created.id, '?fields=image')).toEqual({ image: CAMERA_INFO });
  });

  it('returns image beside other fields in a listing', async ({ device }) => {
    const folder = await freshFolder(device);
    const created = await createFile(device, 'listed.jpg', cameraJpeg(), folder.id);
    await createFile(device, 'listed.txt', 'text', folder.id);
    const files = await listing(device, folder.id, '&fields=id,image&orderBy=name');
    expect(files).toEqual([{ id: created.id, image: CAMERA_INFO }, { id: expect.any(String) as unknown }]);
  });

  it('leaves image out of fields that do not ask for it', async ({ device }) => {
    const created = await createFile(device, 'no-image-field.jpg', cameraJpeg());
    expect(await getFile(device, created.id, '?fields=id,name')).toEqual({
      id: created.id,
      name: 'no-image-field.jpg',
    });
  });
});

describe('image metadata of a resumable upload', () => {
  it('fills image when an upload sent in two chunks is committed', async ({ device }) => {
    const folder = await freshFolder(device);
    const bytes = cameraJpeg();
    const id = await startUpload(device, { name: 'chunked.jpg', parentID: folder.id });
    expect((await putChunk(device, id, bytes.subarray(0, 100))).status).toBe(204);
    const done = await putChunk(device, id, bytes.subarray(100), 'done=true');
    expect(done.status).toBe(204);
    expect((await getFile(device, id)).image).toEqual(CAMERA_INFO);
    expect((await listing(device, folder.id)).map((file) => file.image)).toEqual([CAMERA_INFO]);
  });

  it('fills image for an upload created with its content and done=true', async ({ device }) => {
    const id = await startUpload(device, { name: 'one-shot.png' }, minimalPng(64, 32), 'done=true');
    expect((await getFile(device, id)).image).toEqual({ width: 64, height: 32 });
  });

  it('gives no image to a corrupt JPEG, which still commits', async ({ device }) => {
    const id = await startUpload(device, { name: 'broken-resumable.jpg' });
    expect((await putChunk(device, id, corruptJpeg(), 'done=true')).status).toBe(204);
    expect(await getFile(device, id)).not.toHaveProperty('image');
  });
});

describe('image metadata of a content PUT', () => {
  it('replaces image with that of the new content', async ({ device }) => {
    const created = await createFile(device, 'replaced.jpg', cameraJpeg());
    const newer = jpegWithExif({
      width: 1024,
      height: 768,
      exif: { ...CAMERA_EXIF, model: 'Canon EOS R5', orientation: 8, flash: 0x19 },
    });
    const response = await putContent(device, created.id, newer);
    expect(response.status).toBe(204);
    const file = await getFile(device, created.id);
    expect(file.eTag).toBe(response.headers.get('etag'));
    expect(file.image).toEqual({
      ...CAMERA_INFO,
      width: 1024,
      height: 768,
      cameraModel: 'Canon EOS R5',
      orientation: 8,
      flashFired: true,
    });
  });

  it('clears image when the new content is not an image', async ({ device }) => {
    const created = await createFile(device, 'becomes-text.jpg', cameraJpeg());
    expect((await putContent(device, created.id, 'now plain text')).status).toBe(204);
    expect(await getFile(device, created.id)).not.toHaveProperty('image');
  });

  it('clears image when the new content is empty or a corrupt JPEG', async ({ device }) => {
    const emptied = await createFile(device, 'emptied.jpg', cameraJpeg());
    const broken = await createFile(device, 'broken-later.jpg', cameraJpeg());
    expect((await putContent(device, emptied.id, '')).status).toBe(204);
    expect((await putContent(device, broken.id, corruptJpeg())).status).toBe(204);
    expect(await getFile(device, emptied.id)).not.toHaveProperty('image');
    expect(await getFile(device, broken.id)).not.toHaveProperty('image');
  });

  it('fills image when image content replaces text', async ({ device }) => {
    const created = await createFile(device, 'was-text.png', 'placeholder');
    expect((await putContent(device, created.id, minimalPng(12, 34))).status).toBe(204);
    expect((await getFile(device, created.id)).image).toEqual({ width: 12, height: 34 });
  });
});

describe('image metadata and metadata changes', () => {
  it('keeps image through a rename and a mimeType change, which do not touch the content', async ({
    device,
  }) => {
    const created = await createFile(device, 'renamed.jpg', cameraJpeg());
    const response = await device.fetchAs('alice', `/sdk/v2/files/${created.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'renamed.bin', mimeType: 'application/octet-stream' }),
    });
    expect(response.status).toBe(204);
    expect((await getFile(device, created.id)).image).toEqual(CAMERA_INFO);
  });
});
