// Sends a file's content with its validators, preconditions and ranges: the device API and the share page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeviceContext } from '../context.ts';
import { HttpError } from '../http/errors.ts';
import { evaluatePreconditions, ifRangeAllows } from '../http/preconditions.ts';
import type { ItemRow } from '../store/items.ts';
import { contentRangeHeader, parseRange, unsatisfiedRangeHeader, type RangeResult } from './range.ts';

/**
 * Up to this many bytes are read whole and sent in one write: a stream costs more in objects, events
 * and buffers than a small file's bytes, and a sync client downloads many small files.
 */
const READ_WHOLE_BYTES = 64 * 1024;

/** `attachment` with an ASCII fallback and the exact UTF-8 name (RFC 6266 / RFC 8187). */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // encodeURIComponent leaves ! ' ( ) * alone, but RFC 8187 attr-chars do not include them.
  const encoded = encodeURIComponent(name).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Answers with the content of the file `row` (the caller has checked access and that it is a file). */
export async function sendContent(
  ctx: DeviceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  row: ItemRow,
  options: { attachment: boolean },
): Promise<FastifyReply> {
  void reply.header('etag', row.etag).header('accept-ranges', 'bytes');
  void reply.header('last-modified', new Date(row.m_time).toUTCString());
  if (evaluatePreconditions(request, row.etag, 'read') === 'not-modified') return reply.code(304).send();
  void reply.type(row.mime_type);
  if (options.attachment) void reply.header('content-disposition', attachmentDisposition(row.name));
  const range: RangeResult = ifRangeAllows(request, row.etag)
    ? parseRange(request.headers.range, row.size)
    : { kind: 'none' };
  if (range.kind === 'unsatisfiable') {
    throw new HttpError(416, 'RANGE_NOT_SATISFIABLE', `The file has ${row.size} bytes.`, {
      'content-range': unsatisfiedRangeHeader(row.size),
    });
  }
  if (row.blob === null || row.size === 0) return reply.header('content-length', 0).send(Buffer.alloc(0));
  const [start, end] = range.kind === 'range' ? [range.start, range.end] : [0, row.size - 1];
  if (range.kind === 'range') {
    void reply.code(206).header('content-range', contentRangeHeader(start, end, row.size));
  }
  void reply.header('content-length', end - start + 1);
  // Opened in the same tick as the row was read, so a concurrent PUT cannot remove this blob first.
  if (end - start + 1 <= READ_WHOLE_BYTES) return reply.send(await ctx.blobs.readRange(row.blob, start, end));
  return reply.send(ctx.blobs.openRead(row.blob, range.kind === 'range' ? { start, end } : undefined));
}
