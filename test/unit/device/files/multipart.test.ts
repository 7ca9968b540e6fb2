// Unit tests of the streaming multipart/related parser behind file creation.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  boundaryFromContentType,
  MultipartError,
  parseMultipartRelated,
  type MultipartResult,
} from '../../../../device/files/multipart.ts';

const B = 'mch-7f3a9c';
const METADATA = { name: 'résumé ☃.txt', parentID: 'root', mimeType: 'text/plain' };
const METADATA_JSON = JSON.stringify(METADATA);

let directory: string;
let sinkCount = 0;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'mch-multipart-test-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

interface Parsed {
  result: MultipartResult;
  /** The sink file's bytes, or undefined when the sink was never opened. */
  content: Buffer | undefined;
}

async function* fromChunks(chunks: readonly Buffer[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) {
    await Promise.resolve();
    yield chunk;
  }
}

function chunked(body: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += size)
    chunks.push(body.subarray(offset, offset + size));
  return chunks;
}

/** Opens temp-file sinks and remembers them so a test can check their state after a failure. */
function fileSinks() {
  const opened: { path: string; stream: WriteStream }[] = [];
  return {
    opened,
    open: (): Promise<WriteStream> => {
      const path = join(directory, `content-${sinkCount++}`);
      const stream = createWriteStream(path);
      opened.push({ path, stream });
      return Promise.resolve(stream);
    },
  };
}

async function parse(
  body: Buffer | string | readonly Buffer[],
  options?: { maxMetadataBytes?: number },
): Promise<Parsed> {
  const chunks = typeof body === 'string' ? [Buffer.from(body)] : Buffer.isBuffer(body) ? [body] : body;
  const sinks = fileSinks();
  const result = await parseMultipartRelated(fromChunks(chunks), B, sinks.open, options);
  expect(sinks.opened.length).toBeLessThanOrEqual(1);
  const content = sinks.opened[0] === undefined ? undefined : await readFile(sinks.opened[0].path);
  return { result, content };
}

async function parseFailure(body: string | Buffer | readonly Buffer[]): Promise<MultipartError> {
  const error = await parse(body).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MultipartError);
  return error as MultipartError;
}

/** Compares bytes and reports the first difference instead of dumping megabytes. */
function expectSameBytes(actual: Buffer | undefined, expected: Buffer): void {
  expect(actual).toBeDefined();
  const bytes = actual ?? Buffer.alloc(0);
  if (bytes.equals(expected)) return;
  let index = 0;
  while (index < bytes.length && index < expected.length && bytes[index] === expected[index]) index++;
  expect.fail(`bytes differ at offset ${index}: got ${bytes.length} bytes, expected ${expected.length}`);
}

function body(content: Buffer, eol = '\r\n'): Buffer {
  return Buffer.concat([
    Buffer.from(`--${B}${eol}Content-Type: application/json${eol}${eol}${METADATA_JSON}${eol}`),
    Buffer.from(`--${B}${eol}Content-Type: application/octet-stream${eol}${eol}`),
    content,
    Buffer.from(`${eol}--${B}--${eol}`),
  ]);
}

/** Deterministic bytes (mulberry32), so a failure can be replayed. */
function seededBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let index = 0; index < length; index++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), state | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    bytes[index] = (value ^ (value >>> 14)) & 0xff;
  }
  return bytes;
}

// Everything that looks like the start of a delimiter without being one.
const TRAPS = [
  '\r\n--',
  '\n--',
  '\r\n-',
  '\r',
  '\r\n',
  '\n',
  `\r\n--${B.slice(0, 5)}`,
  `\n--${B.slice(0, 9)}`,
  `\r\n--${B}X`,
  `\n--${B}-x`,
  `\r\n--${B} \tx`,
  `\r\n--${B}\r\r`,
  `--${B}\r\n`,
  `${B}--`,
].map((trap) => Buffer.from(trap));

/** Random bytes with a delimiter look-alike every few hundred bytes; never contains a real delimiter. */
function trickyContent(length: number, seed: number): Buffer {
  const random = seededBytes(length, seed);
  // Each look-alike follows a `Q`, so a random line break can never complete it into a delimiter.
  const separator = Buffer.from('Q');
  const pieces: Buffer[] = [];
  let size = 0;
  for (let offset = 0, trap = 0; size < length; trap++) {
    const run = random.subarray(offset, offset + 1 + (random[offset] ?? 0) * 3);
    const lookAlike = TRAPS[trap % TRAPS.length] ?? separator;
    pieces.push(run, separator, lookAlike);
    size += run.length + separator.length + lookAlike.length;
    offset = (offset + run.length) % length;
  }
  // A fixed ending keeps LF bodies clear of their one ambiguity (content ending in CR).
  const content = Buffer.concat([Buffer.concat(pieces, length - 3), Buffer.from('end')]);
  expect(containsDelimiter(content)).toBe(false);
  return content;
}

/** Whether `content` holds a real delimiter line (after a line break, as RFC 2046 defines it). */
function containsDelimiter(content: Buffer): boolean {
  const needle = Buffer.from(`\n--${B}`);
  for (let index = content.indexOf(needle); index !== -1; index = content.indexOf(needle, index + 1)) {
    const tail = content.subarray(index + needle.length, index + needle.length + 16).toString('latin1');
    if (/^(--|[ \t]*\r?\n)/.test(tail)) return true;
  }
  return content.subarray(0, needle.length - 1).equals(needle.subarray(1));
}

describe('boundaryFromContentType', () => {
  it('reads an unquoted boundary', () => {
    expect(boundaryFromContentType(`multipart/related; boundary=${B}`)).toBe(B);
  });

  it('reads a quoted boundary with spaces and escapes', () => {
    expect(boundaryFromContentType('multipart/related; boundary="a b\\"c=d;e"')).toBe('a b"c=d;e');
  });

  it('ignores case and other parameters', () => {
    expect(boundaryFromContentType(`Multipart/Related ; type="application/json" ;BOUNDARY = ${B} `)).toBe(B);
  });

  it('does not take a boundary quoted inside another parameter', () => {
    expect(boundaryFromContentType('multipart/related; type="x;boundary=evil"; boundary=good')).toBe('good');
  });

  it('accepts any multipart subtype', () => {
    expect(boundaryFromContentType('multipart/form-data; boundary=xyz')).toBe('xyz');
  });

  it.each([[undefined], [''], ['application/json'], ['application/json; boundary=xyz'], ['multipart']])(
    'rejects the non-multipart Content-Type %j',
    (contentType) => {
      expect(() => boundaryFromContentType(contentType)).toThrow(MultipartError);
    },
  );

  it.each([
    ['multipart/related'],
    ['multipart/related; type=a'],
    ['multipart/related; boundary='],
    ['multipart/related; boundary=""'],
  ])('rejects %j for its missing boundary', (contentType) => {
    expect(() => boundaryFromContentType(contentType)).toThrow(/boundary/);
  });
});

describe('parseMultipartRelated: accepted bodies', () => {
  it('reads JSON metadata and content parts with headers and CRLF', async () => {
    const { result, content } = await parse(body(Buffer.from('hello world')));
    expect(result).toEqual({ metadata: METADATA, hasContent: true, contentBytes: 11 });
    expectSameBytes(content, Buffer.from('hello world'));
  });

  it('reads a body with bare LF line endings', async () => {
    const { result, content } = await parse(body(Buffer.from('hello\nworld'), '\n'));
    expect(result).toEqual({ metadata: METADATA, hasContent: true, contentBytes: 11 });
    expectSameBytes(content, Buffer.from('hello\nworld'));
  });

  it('skips a blank line before the first boundary', async () => {
    const { result, content } = await parse(Buffer.concat([Buffer.from('\r\n'), body(Buffer.from('x'))]));
    expect(result.metadata).toEqual(METADATA);
    expectSameBytes(content, Buffer.from('x'));
  });

  it('skips any preamble, even one mentioning the boundary mid-line', async () => {
    const preamble = `This is a MIME message. --${B}\r\nnot a delimiter\r\n--${B}X also not\r\n`;
    const { result, content } = await parse(Buffer.concat([Buffer.from(preamble), body(Buffer.from('x'))]));
    expect(result.metadata).toEqual(METADATA);
    expectSameBytes(content, Buffer.from('x'));
  });

  it('reads parts without headers that start with a blank line', async () => {
    const text = `--${B}\r\n\r\n${METADATA_JSON}\r\n--${B}\r\n\r\ncontent\r\n--${B}--\r\n`;
    const { result, content } = await parse(text);
    expect(result).toEqual({ metadata: METADATA, hasContent: true, contentBytes: 7 });
    expectSameBytes(content, Buffer.from('content'));
  });

  it('reads parts without headers whose first line is not a header line', async () => {
    const text = `--${B}\r\n${METADATA_JSON}\r\n--${B}\r\nplain text, line 1\r\nline 2\r\n--${B}--`;
    const { result, content } = await parse(text);
    expect(result.metadata).toEqual(METADATA);
    expectSameBytes(content, Buffer.from('plain text, line 1\r\nline 2'));
  });

  it('reads header-less content that starts like a header when the blank line is sent', async () => {
    const text = `--${B}\n${METADATA_JSON}\n--${B}\n\nKey: value\n--${B}--\n`;
    const { content } = await parse(text);
    expectSameBytes(content, Buffer.from('Key: value'));
  });

  it('skips every header of a part, including folded ones', async () => {
    const headers = 'Content-Type: application/json;\r\n charset=utf-8\r\nContent-ID: <meta>\r\nX-Empty:\r\n';
    const text = `--${B}\r\n${headers}\r\n${METADATA_JSON}\r\n--${B}\r\nContent-Length: 3\r\n\r\nabc\r\n--${B}--`;
    const { result, content } = await parse(text);
    expect(result.metadata).toEqual(METADATA);
    expectSameBytes(content, Buffer.from('abc'));
  });

  it('returns metadata alone without opening a sink when there is no second part', async () => {
    const { result, content } = await parse(`--${B}\r\n\r\n${METADATA_JSON}\r\n--${B}--\r\n`);
    expect(result).toEqual({ metadata: METADATA, hasContent: false, contentBytes: 0 });
    expect(content).toBeUndefined();
  });

  it.each([
    ['with headers and a blank line', `--${B}\r\nContent-Type: text/plain\r\n\r\n\r\n--${B}--`],
    ['with headers and no blank line', `--${B}\r\nContent-Type: text/plain\r\n--${B}--`],
    ['without headers, with a blank line', `--${B}\r\n\r\n\r\n--${B}--`],
    ['without headers or blank line', `--${B}\r\n\r\n--${B}--`],
    ['right after the delimiter line', `--${B}\r\n--${B}--`],
    ['in an LF body', `--${B}\n\n\n--${B}--\n`],
  ])('opens and ends the sink for an empty content part %s', async (_, tail) => {
    const { result, content } = await parse(`--${B}\r\n\r\n${METADATA_JSON}\r\n${tail}`);
    expect(result).toEqual({ metadata: METADATA, hasContent: true, contentBytes: 0 });
    expectSameBytes(content, Buffer.alloc(0));
  });

  it('accepts transport padding after every boundary', async () => {
    const text = `--${B} \t\r\n\r\n${METADATA_JSON}\r\n--${B}\t \t\r\n\r\ndata\r\n--${B}--  \r\n`;
    const { result, content } = await parse(text);
    expect(result.metadata).toEqual(METADATA);
    expectSameBytes(content, Buffer.from('data'));
  });

  it.each([
    ['nothing', ''],
    ['a line break', '\r\n'],
    ['an epilogue', `\r\nThis is the epilogue. --${B}\r\n--${B}\r\nmore\r\n`],
  ])('accepts the closing boundary followed by %s', async (_, epilogue) => {
    const { content } = await parse(
      `--${B}\r\n\r\n${METADATA_JSON}\r\n--${B}\r\n\r\ndata\r\n--${B}--${epilogue}`,
    );
    expectSameBytes(content, Buffer.from('data'));
  });

  it('keeps a line break that ends the content before the delimiter line break', async () => {
    const crlf = await parse(body(Buffer.from('line\r\n')));
    expectSameBytes(crlf.content, Buffer.from('line\r\n'));
    const lf = await parse(body(Buffer.from('line\n'), '\n'));
    expectSameBytes(lf.content, Buffer.from('line\n'));
    const cr = await parse(body(Buffer.from('line\r')));
    expectSameBytes(cr.content, Buffer.from('line\r'));
  });

  it('keeps boundary look-alikes that are not delimiters as content', async () => {
    const tricky = Buffer.concat(TRAPS);
    const { result, content } = await parse(body(tricky));
    expect(result.contentBytes).toBe(tricky.length);
    expectSameBytes(content, tricky);
  });

  it('reads a boundary made of unusual characters', async () => {
    const boundary = "'()+_,-./:=? end";
    const text = `--${boundary}\r\n\r\n{}\r\n--${boundary}\r\n\r\nok\r\n--${boundary}--`;
    const sinks = fileSinks();
    const result = await parseMultipartRelated(fromChunks([Buffer.from(text)]), boundary, sinks.open);
    expect(result).toEqual({ metadata: {}, hasContent: true, contentBytes: 2 });
    expectSameBytes(await readFile(sinks.opened[0]?.path ?? ''), Buffer.from('ok'));
  });

  it('reads the whole body, epilogue included, so the request is consumed', async () => {
    let finished = false;
    async function* source(): AsyncGenerator<Buffer> {
      await Promise.resolve();
      yield Buffer.from(`--${B}\r\n\r\n{}\r\n--${B}--\r\n`);
      yield Buffer.from('epilogue');
      finished = true;
    }
    await parseMultipartRelated(source(), B, fileSinks().open);
    expect(finished).toBe(true);
  });

  it('ends a Readable body on success', async () => {
    const stream = Readable.from([Buffer.from(`--${B}\r\n\r\n{}\r\n--${B}\r\n\r\nabc\r\n--${B}--`)]);
    const result = await parseMultipartRelated(stream, B, fileSinks().open);
    expect(result.contentBytes).toBe(3);
    expect(stream.readableEnded).toBe(true);
  });

  it('ends and closes the file sink before resolving', async () => {
    const sinks = fileSinks();
    await parseMultipartRelated(fromChunks([body(Buffer.from('abc'))]), B, sinks.open);
    expect(sinks.opened[0]?.stream.closed).toBe(true);
    expect(sinks.opened[0]?.stream.writableFinished).toBe(true);
  });
});

describe('parseMultipartRelated: chunking', () => {
  const small = body(Buffer.concat([Buffer.from('start'), ...TRAPS, Buffer.from('\r\n--end\r')]));
  const smallLf = body(Buffer.concat([Buffer.from('start'), ...TRAPS, Buffer.from('\n--end')]), '\n');

  it.each([
    ['CRLF', small],
    ['LF', smallLf],
  ])('gives the same result for a %s body split at every byte position', async (_, whole) => {
    const expected = await parse(whole);
    for (let position = 0; position <= whole.length; position++) {
      const split = await parse([whole.subarray(0, position), whole.subarray(position)]);
      expect(split.result, `split at ${position}`).toEqual(expected.result);
      expectSameBytes(split.content, expected.content ?? Buffer.alloc(0));
    }
    expect(expected.result.metadata).toEqual(METADATA);
  });

  it.each([
    ['CRLF', small],
    ['LF', smallLf],
  ])('gives the same result for a %s body in 1-byte chunks', async (_, whole) => {
    const expected = await parse(whole);
    const split = await parse(chunked(whole, 1));
    expect(split.result).toEqual(expected.result);
    expectSameBytes(split.content, expected.content ?? Buffer.alloc(0));
  });

  it('streams 3 MiB of random content with delimiter look-alikes intact in random chunk sizes', async () => {
    const content = trickyContent(3 * 1024 * 1024, 7);
    const whole = body(content);
    const sizes = seededBytes(4096, 11);
    const chunks: Buffer[] = [];
    for (let offset = 0, index = 0; offset < whole.length; index++) {
      const pick = sizes[index % sizes.length] ?? 0;
      const size = pick < 64 ? 1 + (pick % 8) : pick * 397;
      chunks.push(whole.subarray(offset, offset + size));
      offset += size;
    }
    const { result, content: written } = await parse(chunks);
    expect(result).toEqual({ metadata: METADATA, hasContent: true, contentBytes: content.length });
    expectSameBytes(written, content);
  });

  it('streams 3 MiB of random content in one chunk and in 64 KiB chunks', async () => {
    const content = trickyContent(3 * 1024 * 1024, 21);
    const whole = body(content);
    expectSameBytes((await parse(whole)).content, content);
    expectSameBytes((await parse(chunked(whole, 64 * 1024))).content, content);
  });

  it('streams 64 KiB of random LF-body content in 1-byte chunks', async () => {
    const content = trickyContent(64 * 1024, 3);
    const { result, content: written } = await parse(chunked(body(content, '\n'), 1));
    expect(result.contentBytes).toBe(content.length);
    expectSameBytes(written, content);
  });

  it('waits for the sink to drain instead of buffering the content', async () => {
    const content = trickyContent(3 * 1024 * 1024, 5);
    let pulled = 0;
    let stored = 0;
    let largestBacklog = 0;
    const received: Buffer[] = [];
    async function* source(): AsyncGenerator<Buffer> {
      for (const chunk of chunked(body(content), 64 * 1024)) {
        largestBacklog = Math.max(largestBacklog, pulled - stored);
        pulled += chunk.length;
        await Promise.resolve();
        yield chunk;
      }
    }
    const slowSink = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        setImmediate(() => {
          received.push(chunk);
          stored += chunk.length;
          callback();
        });
      },
    });
    const result = await parseMultipartRelated(source(), B, () => Promise.resolve(slowSink));
    expect(result.contentBytes).toBe(content.length);
    expectSameBytes(Buffer.concat(received), content);
    expect(largestBacklog).toBeLessThan(256 * 1024);
  });
});

describe('parseMultipartRelated: rejected bodies', () => {
  it('labels its errors BAD_MULTIPART', async () => {
    const error = await parseFailure('');
    expect(error).toBeInstanceOf(Error);
    expect(error.label).toBe('BAD_MULTIPART');
    expect(error.code).toBe('BAD_MULTIPART');
  });

  it.each([
    ['an empty body', ''],
    ['a body without any boundary', 'just some text\r\n'],
    ['a body whose boundary differs', '--other\r\n\r\n{}\r\n--other--'],
  ])('rejects %s', async (_, text) => {
    expect((await parseFailure(text)).message).toMatch(/no "--mch-7f3a9c" line/);
  });

  it('rejects a body that closes before the metadata part', async () => {
    expect((await parseFailure(`\r\n--${B}--\r\n`)).message).toMatch(/no metadata part/);
  });

  it.each([
    ['inside the metadata part', `--${B}\r\n\r\n{"name":`],
    ['inside part headers', `--${B}\r\nContent-Type: appl`],
    ['before the metadata headers end', `--${B}\r\nContent-Type: application/json\r\n`],
    ['right after the metadata', `--${B}\r\n\r\n{}`],
    ['inside the content', `--${B}\r\n\r\n{}\r\n--${B}\r\n\r\nsome content`],
    ['on the closing boundary without its dashes', `--${B}\r\n\r\n{}\r\n--${B}\r\n\r\nx\r\n--${B}`],
    ['on the closing boundary with one dash', `--${B}\r\n\r\n{}\r\n--${B}\r\n\r\nx\r\n--${B}-`],
    ['on a delimiter line without its line break', `--${B}\r\n\r\n{}\r\n--${B}  `],
  ])('rejects a body truncated %s', async (_, text) => {
    expect((await parseFailure(text)).message).toMatch(/ended/);
  });

  it('rejects metadata that is not JSON', async () => {
    expect((await parseFailure(`--${B}\r\n\r\n{name: x}\r\n--${B}--`)).message).toMatch(/not valid JSON/);
  });

  it('rejects an empty metadata part', async () => {
    expect((await parseFailure(`--${B}\r\n\r\n\r\n--${B}--`)).message).toMatch(/not valid JSON/);
  });

  it('rejects metadata larger than the limit', async () => {
    const text = `--${B}\r\n\r\n{"name":"${'a'.repeat(100)}"}\r\n--${B}--`;
    const error = await parse(text, { maxMetadataBytes: 50 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MultipartError);
    expect((error as Error).message).toMatch(/larger than 50 bytes/);
  });

  it('rejects metadata larger than 64 KiB by default', async () => {
    const text = `--${B}\r\n\r\n{"name":"${'a'.repeat(64 * 1024)}"}\r\n--${B}--`;
    expect((await parseFailure(text)).message).toMatch(/larger than 65536 bytes/);
  });

  it('rejects part headers longer than 16 KiB', async () => {
    const headers = 'X-Filler: abcdefghijklmnopqrstuvwxyz\r\n'.repeat(1000);
    expect((await parseFailure(`--${B}\r\n${headers}\r\n{}\r\n--${B}--`)).message).toMatch(
      /headers are longer/,
    );
  });

  it('rejects a single endless header line without buffering it all', async () => {
    const line = `--${B}\r\nX-Filler: ${'a'.repeat(100 * 1024)}`;
    expect((await parseFailure(chunked(Buffer.from(line), 1024))).message).toMatch(/headers are longer/);
  });

  it('rejects an empty boundary', async () => {
    const error = await parseMultipartRelated(fromChunks([]), '', fileSinks().open).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MultipartError);
  });

  it('does not open the sink when the metadata is invalid', async () => {
    const sinks = fileSinks();
    const text = `--${B}\r\n\r\nnot json\r\n--${B}\r\n\r\ncontent\r\n--${B}--`;
    await expect(parseMultipartRelated(fromChunks([Buffer.from(text)]), B, sinks.open)).rejects.toThrow(
      MultipartError,
    );
    expect(sinks.opened).toHaveLength(0);
  });

  it('rejects a third part and destroys the sink after it closed its file', async () => {
    const sinks = fileSinks();
    const text = `--${B}\r\n\r\n{}\r\n--${B}\r\n\r\none\r\n--${B}\r\n\r\ntwo\r\n--${B}--`;
    await expect(parseMultipartRelated(fromChunks([Buffer.from(text)]), B, sinks.open)).rejects.toThrow(
      /more than two parts/,
    );
    expect(sinks.opened[0]?.stream.destroyed).toBe(true);
    expect(sinks.opened[0]?.stream.closed).toBe(true);
  });

  it('destroys the sink when the body is truncated inside the content', async () => {
    const sinks = fileSinks();
    const chunks = chunked(body(seededBytes(200 * 1024, 9)).subarray(0, 150 * 1024), 16 * 1024);
    await expect(parseMultipartRelated(fromChunks(chunks), B, sinks.open)).rejects.toThrow(/ended before/);
    const sink = sinks.opened[0];
    expect(sink?.stream.destroyed).toBe(true);
    expect(sink?.stream.closed).toBe(true);
    // The caller deletes the file; it exists and is no longer being written.
    expect((await stat(sink?.path ?? '')).size).toBeLessThanOrEqual(150 * 1024);
  });

  it('rejects with the sink error when writing the content fails', async () => {
    const failingSink = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('disk full'));
      },
    });
    const text = `--${B}\r\n\r\n{}\r\n--${B}\r\n\r\n${'x'.repeat(100_000)}\r\n--${B}--`;
    const error = await parseMultipartRelated(fromChunks(chunked(Buffer.from(text), 1000)), B, () =>
      Promise.resolve(failingSink),
    ).catch((thrown: unknown) => thrown);
    expect(error).not.toBeInstanceOf(MultipartError);
    expect((error as Error).message).toBe('disk full');
    expect(failingSink.destroyed).toBe(true);
  });

  it('rejects with the body error when the upload is aborted', async () => {
    async function* aborted(): AsyncGenerator<Buffer> {
      await Promise.resolve();
      yield Buffer.from(`--${B}\r\n\r\n{}\r\n--${B}\r\n\r\npartial`);
      throw new Error('aborted');
    }
    const sinks = fileSinks();
    await expect(parseMultipartRelated(aborted(), B, sinks.open)).rejects.toThrow('aborted');
    expect(sinks.opened[0]?.stream.destroyed).toBe(true);
  });

  it('leaves a Readable body open after a failure so the caller can still answer', async () => {
    const stream = Readable.from(
      [`--${B}\r\n\r\nnot json\r\n`, `--${B}\r\n\r\nrest`, `\r\n--${B}--`].map((text) => Buffer.from(text)),
    );
    await expect(parseMultipartRelated(stream, B, fileSinks().open)).rejects.toThrow(MultipartError);
    expect(stream.destroyed).toBe(false);
    const rest: Buffer[] = [];
    for await (const chunk of stream) rest.push(chunk as Buffer);
    expect(Buffer.concat(rest).toString()).toContain('--mch-7f3a9c--');
  });
});
