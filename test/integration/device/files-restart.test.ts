// Stopping the device and starting it again on the same data folder loses nothing: items, eTags,
// content, unfinished uploads and the tokens already handed out.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FileObject } from '../../../common/wire/device-api.ts';
import { startTestDevice, type TestDevice } from '../../helpers/device.ts';
import {
  createFile,
  createFolder,
  idFromLocation,
  postMultipart,
  type Created,
} from '../../helpers/multipart.ts';

describe('a restart on the same data folder', () => {
  it('keeps ids, eTags, content bytes and listings, and old tokens still work', async () => {
    const first = await startTestDevice();
    let second: TestDevice | undefined;
    try {
      const docs = await createFolder(first, 'docs');
      const sub = await createFolder(first, 'sub', docs.id);
      const items: Record<string, { created: Created; content?: Buffer }> = {
        docs: { created: docs },
        sub: { created: sub },
      };
      for (const [name, parent, size] of [
        ['a.bin', docs.id, 100_000],
        ['b.txt', sub.id, 10],
        ['empty.txt', 'root', 0],
      ] as const) {
        const content = randomBytes(size);
        items[name] = { created: await createFile(first, name, content, parent), content };
      }
      const token = first.tokenFor('alice');
      const getWith = (target: TestDevice, path: string): Promise<Response> =>
        fetch(`${target.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const before = new Map<string, unknown>();
      for (const { created } of Object.values(items)) {
        before.set(created.id, await (await getWith(first, `/sdk/v2/files/${created.id}`)).json());
      }
      const rootBefore = await (await getWith(first, '/sdk/v2/files/root')).json();
      const listingBefore = await (await getWith(first, `/sdk/v2/filesSearch/parents?ids=${docs.id}`)).json();

      await first.stop({ keepData: true });
      second = await startTestDevice({ dataDir: first.dataDir });

      expect(await (await getWith(second, '/sdk/v2/files/root')).json()).toEqual(rootBefore);
      for (const { created, content } of Object.values(items)) {
        const response = await getWith(second, `/sdk/v2/files/${created.id}`);
        expect(response.status).toBe(200);
        const after = (await response.json()) as FileObject;
        expect(after).toEqual(before.get(created.id));
        if (content) {
          const bytes = Buffer.from(
            await (await getWith(second, `/sdk/v2/files/${created.id}/content`)).arrayBuffer(),
          );
          expect(bytes.equals(content)).toBe(true);
        }
      }
      const listingAfter = await (await getWith(second, `/sdk/v2/filesSearch/parents?ids=${docs.id}`)).json();
      expect(listingAfter).toEqual(listingBefore);
    } finally {
      await second?.stop();
      await first.stop();
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });

  it('lets an unfinished resumable upload be finished after the restart', async () => {
    const first = await startTestDevice();
    let second: TestDevice | undefined;
    try {
      const started = await postMultipart(first, { name: 'across-restart.bin' }, 'part one, ', {
        path: '/sdk/v2/files/resumable',
        query: 'done=false',
      });
      const id = idFromLocation(started);
      await first.stop({ keepData: true });
      second = await startTestDevice({ dataDir: first.dataDir });
      const status = await second.fetchAs('alice', `/sdk/v2/files/${id}/resumable`);
      expect(await status.json()).toEqual({ id, size: 10 });
      const done = await second.fetchAs('alice', `/sdk/v2/files/${id}/resumable/content?done=true`, {
        method: 'PUT',
        body: 'part two',
      });
      expect(done.status).toBe(204);
      expect(await (await second.fetchAs('alice', `/sdk/v2/files/${id}/content`)).text()).toBe(
        'part one, part two',
      );
    } finally {
      await second?.stop();
      await first.stop();
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});
