// Pipelined HTTP/1.1 answers are split where they end, however the bytes arrive, and anything odd is refused.
import { describe, expect, it } from 'vitest';
import {
  Http1ResponseReader,
  ResponseFramingError,
  type Http1Response,
} from '../../../../app/api/http/http1-responses.ts';

const MiB = 1024 * 1024;

/** Everything `bytes` holds as answers, fed in pieces of `piece` bytes. */
function read(bytes: string, piece = bytes.length, maxBodyBytes = MiB): Http1Response[] {
  const reader = new Http1ResponseReader(maxBodyBytes);
  const data = Buffer.from(bytes, 'latin1');
  const answers: Http1Response[] = [];
  for (let at = 0; at < data.length; at += piece) answers.push(...reader.push(data.subarray(at, at + piece)));
  const last = reader.end();
  if (last !== undefined) answers.push(last);
  return answers;
}

function summary(answers: Http1Response[]): string[] {
  return answers.map(
    (answer) =>
      `${answer.status} ${answer.headers['etag'] ?? '-'} ${answer.body.toString('latin1')}${answer.lastOnConnection ? ' (last)' : ''}`,
  );
}

const notModified = (eTag: string): string => `HTTP/1.1 304 Not Modified\r\nETag: ${eTag}\r\n\r\n`;
const withLength = (body: string): string =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
const chunked =
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nETag: "c"\r\n\r\n' +
  '5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: yes\r\n\r\n';

describe('Http1ResponseReader', () => {
  it('splits pipelined answers in order, whatever the pieces the bytes come in', () => {
    const stream = notModified('"a"') + withLength('{"files":[]}') + chunked + notModified('"b"');
    const expected = ['304 "a" ', '200 - {"files":[]}', '200 "c" hello, world', '304 "b" '];
    for (const piece of [1, 2, 3, 7, 16, 61, stream.length]) {
      expect(summary(read(stream, piece)), `pieces of ${piece}`).toEqual(expected);
    }
  });

  it('skips interim answers, joins repeated fields, and reads header names in any case', () => {
    const stream =
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-A: 1\r\nx-a: 2\r\nCONTENT-LENGTH: 2\r\n\r\nok';
    const [answer] = read(stream);
    expect(answer?.status).toBe(200);
    expect(answer?.headers['x-a']).toBe('1, 2');
    expect(answer?.body.toString()).toBe('ok');
  });

  it('knows when the server closes after an answer, and reads a body that lasts until then', () => {
    expect(summary(read(`HTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n`))).toEqual([
      '304 -  (last)',
    ]);
    expect(summary(read('HTTP/1.0 304 Not Modified\r\n\r\n'))).toEqual(['304 -  (last)']);
    expect(summary(read('HTTP/1.0 304 Not Modified\r\nConnection: keep-alive\r\n\r\n'))).toEqual(['304 - ']);
    expect(summary(read('HTTP/1.1 200 OK\r\n\r\nuntil the end', 4))).toEqual(['200 - until the end']);
  });

  it('refuses what it cannot frame for sure', () => {
    const bad = [
      'HTTP/2 200 OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nBad Header\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\nabc',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n',
      // The connection ends in the middle of an answer.
      'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc',
      'HTTP/1.1 304 Not',
    ];
    for (const stream of bad)
      expect(() => read(stream), JSON.stringify(stream)).toThrow(ResponseFramingError);
  });

  it('refuses an answer larger than its limit, framed by length, by chunks or by the end', () => {
    const body = 'x'.repeat(100);
    expect(() => read(withLength(body), 100, 99)).toThrow(ResponseFramingError);
    expect(() =>
      read(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n64\r\n${body}\r\n0\r\n\r\n`, 7, 99),
    ).toThrow(ResponseFramingError);
    expect(() => read(`HTTP/1.1 200 OK\r\n\r\n${body}`, 10, 99)).toThrow(ResponseFramingError);
    expect(summary(read(withLength(body), 100, 100))).toEqual([`200 - ${body}`]);
  });
});
