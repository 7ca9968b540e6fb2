// Reading, patching (rename, move, metadata) and deleting one item (device-api.md §3 "Files").
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DIR_MIME_TYPE } from '../../common/wire/device-api.ts';
import type { DeviceContext } from '../context.ts';
import { loadFolder, loadItem, resolveId } from '../files/access.ts';
import { parseFields, pickFields, toFileObject } from '../files/file-object.ts';
import { parseMetadata } from '../files/metadata-input.ts';
import { authenticate } from '../http/auth.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { evaluatePreconditions } from '../http/preconditions.ts';
import { queryParam } from '../http/query.ts';
import type { ItemChanges } from '../store/items.ts';

type IdParams = { id: string };

export function registerFileRoutes(app: FastifyInstance, ctx: DeviceContext): void {
  app.get<{ Params: IdParams }>('/v2/files/:id', async (request, reply) => {
    const principal = authenticate(ctx, request);
    const fields = parseFields(queryParam(request, 'fields'));
    const row = loadItem(ctx, principal, request.params.id, 'read');
    void reply.header('etag', row.etag);
    if (evaluatePreconditions(request, row.etag, 'read') === 'not-modified') return reply.code(304).send();
    return pickFields(toFileObject(row), fields);
  });

  const patch = async (
    request: FastifyRequest<{ Params: IdParams }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> => {
    const principal = authenticate(ctx, request);
    const row = loadItem(ctx, principal, request.params.id, 'write');
    if (row.parent_id === null)
      throw forbidden('ROOT_IMMUTABLE', 'The root folder cannot be renamed or moved.');
    const input = parseMetadata(request.body === undefined ? {} : request.body);
    evaluatePreconditions(request, row.etag, 'write');

    const changes: ItemChanges = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.parentID !== undefined) {
      const target = loadFolder(ctx, principal, input.parentID, 'write');
      // A user with WriteFile on a shared folder could otherwise carry its items off into their own
      // tree, where the owner's FileOwner on their root no longer reaches them (decided).
      if (target.owner_id !== row.owner_id) {
        throw forbidden('CROSS_OWNER_MOVE', "Items cannot be moved into another user's folders.");
      }
      // device-api.md §3: moving a folder into itself or below itself is a 400.
      if (row.is_dir && ctx.items.ancestry(target.id).includes(row.id)) {
        throw badRequest('INVALID_MOVE', 'A folder cannot be moved into itself or one of its subfolders.');
      }
      changes.parent_id = target.id;
    }
    if (input.mimeType !== undefined) {
      if ((input.mimeType === DIR_MIME_TYPE) !== (row.is_dir === 1)) {
        throw badRequest(
          'INVALID_MIME_TYPE',
          'A patch cannot turn a file into a folder or a folder into a file.',
        );
      }
      changes.mime_type = input.mimeType;
    }
    if (input.mTime !== undefined) changes.m_time = input.mTime;
    if (input.cTime !== undefined) changes.c_time = input.cTime;
    if (input.hidden !== undefined) changes.hidden = input.hidden;

    const updated = ctx.items.update(row, changes, ctx.now());
    return reply.code(204).header('etag', updated.etag).send();
  };
  app.patch<{ Params: IdParams }>('/v2/files/:id', patch);
  // The pre-2019 form of the same call; both keep working (device-api.md §3).
  app.post<{ Params: IdParams }>('/v2/files/:id/patch', patch);

  app.delete<{ Params: IdParams }>('/v2/files/:id', async (request, reply) => {
    const principal = authenticate(ctx, request);
    if (principal.kind === 'user' && resolveId(principal, request.params.id) === principal.rootId) {
      throw forbidden('ROOT_IMMUTABLE', 'The root folder cannot be deleted.');
    }
    const row = loadItem(ctx, principal, request.params.id, 'write');
    if (row.parent_id === null) throw forbidden('ROOT_IMMUTABLE', 'A root folder cannot be deleted.');
    evaluatePreconditions(request, row.etag, 'write');
    const hadChildren = row.is_dir === 1 && ctx.items.hasLiveChildren(row.id);
    ctx.items.markDeleting(row, ctx.now());
    ctx.deleter.kick();
    // device-api.md §3: 202 for a non-empty folder, whose content goes in the background.
    return reply.code(hadChildren ? 202 : 204).send();
  });
}
