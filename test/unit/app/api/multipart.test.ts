// A create's multipart body: in memory it is the same bytes as the stream sends, in one buffer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { multipartBody } from '../../../../app/api/multipart.ts';

describe('multipartBody', () => {
  it.for([
    ['content in memory', Buffer.from('hello\r\n--not-a-boundary')],
    ['no content', undefined],
  ] as const)('with %s, gives the whole body at once, byte for byte the stream', async ([, content]) => {
    const body = multipartBody({ name: 'a.txt', parentID: 'p' }, content);
    expect(body.bytes).toBeDefined();
    expect(body.bytes).toEqual(await buffer(body.open()));
    expect(body.bytes?.length).toBe(body.contentLength);
  });

  it('streams content read from a file, which is not held in memory', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mch-multipart-'));
    try {
      writeFileSync(join(folder, 'f'), 'file content');
      const body = multipartBody({ name: 'f' }, { path: join(folder, 'f'), size: 12 });
      expect(body.bytes).toBeUndefined();
      const sent = await buffer(body.open());
      expect(sent.length).toBe(body.contentLength);
      expect(sent.subarray(body.contentStart, body.contentStart + 12).toString()).toBe('file content');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
