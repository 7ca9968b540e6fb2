// File content: download with ranges, and replacing the content of a file (device-api.md §3 "Files").
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeviceContext } from '../context.ts';
import { loadItem } from '../files/access.ts';
import { sendContent } from '../files/send-content.ts';
import { readImageColumn } from '../files/image-metadata.ts';
import { authenticate } from '../http/auth.ts';
import { badRequest, HttpError } from '../http/errors.ts';
import { evaluatePreconditions } from '../http/preconditions.ts';
import { booleanParam } from '../http/query.ts';
import type { ItemRow } from '../store/items.ts';

type IdParams = { id: string };

function ensureFile(row: ItemRow): void {
  if (row.is_dir) throw badRequest('IS_A_FOLDER', 'A folder has no content; list it instead.');
}

export function registerContentRoutes(app: FastifyInstance, ctx: DeviceContext): void {
  const download = async (
    request: FastifyRequest<{ Params: IdParams }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> => {
    const principal = authenticate(ctx, request);
    const asAttachment = booleanParam(request, 'download', false);
    const row = loadItem(ctx, principal, request.params.id, 'read');
    ensureFile(row);
    return sendContent(ctx, request, reply, row, { attachment: asAttachment });
  };
  app.get<{ Params: IdParams }>('/v2/files/:id/content', download);
  app.get<{ Params: IdParams }>('/v3/files/:id/content', download);

  app.put<{ Params: IdParams }>('/v2/files/:id/content', async (request, reply) => {
    const principal = authenticate(ctx, request);
    const before = loadItem(ctx, principal, request.params.id, 'write');
    ensureFile(before);
    // Checked before the body is read, so a stale client learns it at once; checked again at commit.
    evaluatePreconditions(request, before.etag, 'write');
    ctx.storage.checkRoomFor(request.headers);
    const tempPath = ctx.blobs.tempPath();
    try {
      await pipeline(request.raw, ctx.blobs.createTempStream(tempPath));
      const size = await ctx.blobs.size(tempPath);
      // New content, new metadata: anything but an image clears what the old content had.
      const image = size > 0 ? await readImageColumn(tempPath) : null;
      const blob = size > 0 ? await ctx.blobs.commit(tempPath) : null;
      const current = ctx.items.getLive(before.id);
      try {
        if (!current)
          throw new HttpError(404, 'FILE_NOT_FOUND', 'The file was deleted while its content arrived.');
        evaluatePreconditions(request, current.etag, 'write');
      } catch (error) {
        if (blob) await ctx.blobs.remove(blob);
        throw error;
      }
      const updated = ctx.items.update(current, { blob, size, m_time: ctx.now(), image }, ctx.now());
      if (current.blob) await ctx.blobs.remove(current.blob);
      return reply.code(204).header('etag', updated.etag).send();
    } finally {
      await ctx.blobs.removePath(tempPath);
    }
  });
}
