// Lenient reading of answers: wire times, Location ids, File objects and multipart bodies.
import { describe, expect, it } from 'vitest';
import { idFromLocation, wireTimeToMs } from '../../../../app/api/answers.ts';
import { checkItem, fileSchema, toRemoteFile } from '../../../../app/api/device-schemas.ts';
import { multipartBody } from '../../../../app/api/multipart.ts';
import type { ApiResponse } from '../../../../app/api/http/transport.ts';

function answer(headers: Record<string, string>): ApiResponse {
  return { kind: 'created', headers, body: Buffer.alloc(0), correlationId: 'c', url: new URL('http://h/') };
}

describe('wire times', () => {
  it('reads times with or without fractions, with Z or an offset', () => {
    expect(wireTimeToMs('2026-11-22T01:02:03Z')).toBe(Date.UTC(2026, 10, 22, 1, 2, 3));
    expect(wireTimeToMs('2026-11-22T01:02:03.456Z')).toBe(Date.UTC(2026, 10, 22, 1, 2, 3, 456));
    expect(wireTimeToMs('2026-11-22T01:02:03.456789Z')).toBe(Date.UTC(2026, 10, 22, 1, 2, 3, 456));
    expect(wireTimeToMs('2026-11-22T03:02:03+02:00')).toBe(Date.UTC(2026, 10, 22, 1, 2, 3));
    expect(wireTimeToMs('2026-11-22T01:02:03')).toBeUndefined();
    expect(wireTimeToMs('yesterday')).toBeUndefined();
  });
});

describe('idFromLocation', () => {
  it('takes the last segment of a relative or absolute Location', () => {
    expect(idFromLocation(answer({ location: '/sdk/v2/files/abc' }), 'x')).toBe('abc');
    expect(idFromLocation(answer({ location: 'https://other.example/sdk/v2/files/a%20b' }), 'x')).toBe('a b');
  });

  it('refuses a missing Location or one without an id', () => {
    expect(() => idFromLocation(answer({}), 'x')).toThrow(
      expect.objectContaining({ code: 'BAD_RESPONSE' }) as Error,
    );
    expect(() => idFromLocation(answer({ location: '/sdk/v2/files/..' }), 'x')).toThrow(
      expect.objectContaining({ code: 'BAD_RESPONSE' }) as Error,
    );
  });
});

describe('File objects', () => {
  const file = { id: 'a', parentID: 'p', name: 'n.txt', eTag: '"e"', mimeType: 'text/plain', size: 1 };

  it('lets only the root have an empty name', () => {
    expect(toRemoteFile(fileSchema.parse({ ...file, parentID: undefined, name: '' })).name).toBe('');
    expect('rejected' in checkItem({ ...file, name: '' }, 'x')).toBe(true);
  });

  it('reads every item exactly as the schema does, whether or not it takes the hand-checked path', () => {
    const variants: unknown[] = [
      file,
      { ...file, unknownField: 1 },
      { ...file, size: undefined, mTime: undefined },
      {
        ...file,
        cTime: '2026-11-22T01:02:03.456789+02:00',
        hidden: 'mac',
        trashed: false,
        extension: '.txt',
      },
      { ...file, hidden: 'sideways' },
      { ...file, trashed: 'yes' },
      { ...file, extension: 42 },
      { ...file, image: { width: 3, height: 'tall' } },
      { ...file, size: -1 },
      { ...file, size: 1.5 },
      { ...file, size: '12' },
      { ...file, mTime: 'yesterday' },
      { ...file, eTag: '' },
      { ...file, mimeType: '' },
      { ...file, id: '..' },
      { ...file, parentID: '' },
      { ...file, name: 7 },
      null,
      'a string',
    ];
    for (const raw of variants) {
      const parsed = fileSchema.safeParse(raw);
      const checked = checkItem(raw, 'x');
      if (parsed.success) expect(checked).toEqual({ file: toRemoteFile(parsed.data) });
      else expect('rejected' in checked).toBe(true);
    }
  });

  it('drops a malformed image block but keeps the file', () => {
    const checked = checkItem({ ...file, image: 'not an object' }, 'x');
    expect('file' in checked && checked.file.image).toBeUndefined();
  });
});

describe('multipartBody', () => {
  it('writes the metadata part, then the content, with an exact Content-Length', async () => {
    const body = multipartBody({ name: 'a.txt', parentID: 'root' }, Buffer.from('hello'));
    const chunks: Buffer[] = [];
    for await (const chunk of body.open()) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    const boundary = /boundary=(.+)$/.exec(body.contentType)?.[1] ?? '';
    expect(text).toBe(
      `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n{"name":"a.txt","parentID":"root"}\r\n` +
        `--${boundary}\r\nContent-Type: application/octet-stream\r\n\r\nhello\r\n--${boundary}--\r\n`,
    );
    expect(Buffer.byteLength(text)).toBe(body.contentLength);
    expect(text.slice(body.contentStart, body.contentStart + 5)).toBe('hello');
  });
});
