// Concurrent writers of one item or one name: exactly one wins, the other gets the documented error
// (device-api.md §3 "Preconditions", "Errors").
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import type { FileObject, ListingResponse } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, folderMaker, idFromLocation, postMultipart } from '../../helpers/multipart.ts';

const freshFolder = folderMaker('race');

async function currentFile(device: TestDevice, id: string): Promise<FileObject> {
  return (await (await device.fetchAs('alice', `/sdk/v2/files/${id}`)).json()) as FileObject;
}

describe('races', () => {
  const ROUNDS = 5;

  it('two concurrent renames with the same If-Match: exactly one 204 and one 412', async ({ device }) => {
    const folder = await freshFolder(device);
    for (let round = 0; round < ROUNDS; round += 1) {
      const target = await createFile(device, `race-${round}.txt`, 'x', folder.id);
      const rename = (name: string): Promise<Response> =>
        device.fetchAs('alice', `/sdk/v2/files/${target.id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'if-match': target.etag },
          body: JSON.stringify({ name }),
        });
      const responses = await Promise.all([rename(`race-${round}-a.txt`), rename(`race-${round}-b.txt`)]);
      expect(responses.map((response) => response.status).sort()).toEqual([204, 412]);
      const winner = responses.find((response) => response.status === 204);
      expect((await currentFile(device, target.id)).eTag).toBe(winner?.headers.get('etag'));
    }
  });

  it('two concurrent creates of one name in one folder: exactly one 201 and one 409', async ({ device }) => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const folder = await freshFolder(device);
      const content = randomBytes(256 * 1024);
      const responses = await Promise.all([
        postMultipart(device, { name: 'same.bin', parentID: folder.id }, content),
        postMultipart(device, { name: 'same.bin', parentID: folder.id }, content),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
      const listing = (await (
        await device.fetchAs('alice', `/sdk/v2/filesSearch/parents?ids=${folder.id}`)
      ).json()) as ListingResponse;
      expect(listing.files.map((item) => item.name)).toEqual(['same.bin']);
    }
  });

  it('two concurrent creates with resolveNameConflict=true both succeed under different names', async ({
    device,
  }) => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const folder = await freshFolder(device);
      await createFile(device, 'taken.txt', 'x', folder.id);
      const responses = await Promise.all([
        postMultipart(device, { name: 'taken.txt', parentID: folder.id }, 'a', {
          query: 'resolveNameConflict=true',
        }),
        postMultipart(device, { name: 'taken.txt', parentID: folder.id }, 'b', {
          query: 'resolveNameConflict=true',
        }),
      ]);
      expect(responses.map((response) => response.status)).toEqual([201, 201]);
      const names = await Promise.all(
        responses.map(async (response) => (await currentFile(device, idFromLocation(response))).name),
      );
      expect(names.sort()).toEqual(['taken (1).txt', 'taken (2).txt']);
    }
  });
});
