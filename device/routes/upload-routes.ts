// Creating files and folders: the multipart create and the resumable upload (device-api.md §3 "Files").
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BugError } from '../../common/errors.ts';
import { DIR_MIME_TYPE } from '../../common/wire/device-api.ts';
import type { DeviceContext } from '../context.ts';
import { loadFolder } from '../files/access.ts';
import { parseMetadata } from '../files/metadata-input.ts';
import { readImageColumn, sniffImageFormat } from '../files/image-metadata.ts';
import { guessMimeType } from '../files/mime.ts';
import {
  boundaryFromContentType,
  MultipartError,
  parseMultipartRelated,
  type ContentSink,
  type MultipartResult,
} from '../files/multipart.ts';
import { alternativeName } from '../files/names.ts';
import { authenticate, requireScope, type Principal } from '../http/auth.ts';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.ts';
import { booleanParam, integerParam } from '../http/query.ts';
import { nameTaken, type ItemRow } from '../store/items.ts';
import type { SyncedFileStream } from '../store/synced-file.ts';
import { newId } from '../store/tags.ts';

type IdParams = { id: string };

const MAX_CONFLICT_ATTEMPTS = 10_000;

interface NewItem {
  row: Omit<ItemRow, 'etag' | 'list_tag' | 'updated_at'>;
  resolveConflict: boolean;
}

/** Checks create metadata against the caller's rights; `contentBytes` is known only after the body. */
function checkCreate(
  ctx: DeviceContext,
  principal: Principal,
  id: string,
  raw: unknown,
  resolveConflict: boolean,
): NewItem {
  const metadata = parseMetadata(raw);
  if (metadata.name === undefined) throw badRequest('GENERAL_INSUFFICIENT_PARAMETERS', 'name is required.');
  const parent = loadFolder(ctx, principal, metadata.parentID ?? 'root', 'write');
  const isDir = metadata.mimeType === DIR_MIME_TYPE;
  const now = ctx.now();
  return {
    resolveConflict,
    row: {
      id,
      owner_id: parent.owner_id,
      parent_id: parent.id,
      name: metadata.name,
      is_dir: isDir ? 1 : 0,
      mime_type: metadata.mimeType ?? guessMimeType(metadata.name),
      size: 0,
      m_time: metadata.mTime ?? now,
      c_time: metadata.cTime ?? now,
      hidden: metadata.hidden ?? 'none',
      blob: null,
      image: null,
      state: 'live',
    },
  };
}

/** Parses the multipart body, streaming any content to the sink `openSink` gives once the metadata has passed. */
async function receiveCreate(
  ctx: DeviceContext,
  principal: Principal,
  request: FastifyRequest,
  id: string,
  openSink: () => ContentSink,
): Promise<NewItem> {
  const resolveConflict = booleanParam(request, 'resolveNameConflict', false);
  let checked: NewItem | undefined;
  let result: MultipartResult;
  try {
    result = await parseMultipartRelated(
      request.raw,
      boundaryFromContentType(request.headers['content-type']),
      async (metadata) => {
        // Bad metadata or a missing parent is answered before any content is stored.
        checked = checkCreate(ctx, principal, id, metadata, resolveConflict);
        return openSink();
      },
    );
  } catch (error) {
    if (error instanceof MultipartError) throw badRequest(error.label, error.message);
    throw error;
  }
  const item = checked ?? checkCreate(ctx, principal, id, result.metadata, resolveConflict);
  if (item.row.is_dir && result.contentBytes > 0)
    throw badRequest('IS_A_FOLDER', 'A folder cannot have content.');
  item.row.size = result.contentBytes;
  return item;
}

/** The name to use in `parentId`: `name` if free, else with resolveNameConflict the first free " (n)". */
function freeName(ctx: DeviceContext, parentId: string, name: string, resolve: boolean): string {
  if (!ctx.items.childByName(parentId, name)) return name;
  if (!resolve) throw nameTaken(name);
  for (let n = 1; n <= MAX_CONFLICT_ATTEMPTS; n += 1) {
    const candidate = alternativeName(name, n);
    if (!ctx.items.childByName(parentId, candidate)) return candidate;
  }
  throw conflict('NAME_CONFLICT', `No free name like "${name}" is left in that folder.`);
}

/** Inserts a new item, retrying the next free name if another request took it meanwhile. */
function insertWithName(ctx: DeviceContext, item: NewItem): ItemRow {
  const parentId = item.row.parent_id as string;
  for (;;) {
    // Without resolveNameConflict the unique index answers a taken name (409) as freeName would, so the
    // look-up before the insert is only for finding a free name.
    const name = item.resolveConflict ? freeName(ctx, parentId, item.row.name, true) : item.row.name;
    try {
      return ctx.items.insert({ ...item.row, name }, ctx.now());
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 409 && item.resolveConflict)) throw error;
    }
  }
}

/** An unfinished resumable upload the caller may write to, or a 404. */
function loadUpload(ctx: DeviceContext, principal: Principal, id: string): ItemRow {
  requireScope(principal, 'write');
  const row = ctx.items.get(id);
  if (!row || row.state !== 'uploading' || !ctx.permissions.allows(principal, row.id, 'write')) {
    throw notFound('UPLOAD_NOT_FOUND', `No unfinished resumable upload ${id}.`);
  }
  return row;
}

export function registerUploadRoutes(app: FastifyInstance, ctx: DeviceContext): void {
  app.post('/v2/files', async (request, reply) => {
    const principal = authenticate(ctx, request);
    requireScope(principal, 'write');
    ctx.storage.checkRoomFor(request.headers);
    const id = newId();
    const tempPath = ctx.blobs.tempPath();
    // The temporary file exists from when the content part starts until it is committed.
    let temp: SyncedFileStream | undefined;
    try {
      const item = await receiveCreate(ctx, principal, request, id, () => {
        temp = ctx.blobs.createSyncedTempStream(tempPath);
        return temp;
      });
      if (item.row.size > 0 && temp) {
        // Read before the insert, so the file never shows without its image metadata; content whose
        // first bytes name no image format has none, and is not read back for it.
        item.row.image = sniffImageFormat(temp.head) === undefined ? null : await readImageColumn(tempPath);
        // The stream flushed the file before it closed: renamed into place, it is on disk.
        item.row.blob = await ctx.blobs.commitFlushed(tempPath);
        temp = undefined;
      }
      let created: ItemRow;
      try {
        created = insertWithName(ctx, item);
      } catch (error) {
        if (item.row.blob) await ctx.blobs.remove(item.row.blob);
        throw error;
      }
      return reply
        .code(201)
        .header('location', `/sdk/v2/files/${created.id}`)
        .header('etag', created.etag)
        .send();
    } finally {
      if (temp) await ctx.blobs.removePath(tempPath);
    }
  });

  app.post('/v2/files/resumable', async (request, reply) => {
    const principal = authenticate(ctx, request);
    requireScope(principal, 'write');
    const done = booleanParam(request, 'done', false);
    ctx.storage.checkRoomFor(request.headers);
    const id = newId();
    const uploadPath = ctx.blobs.uploadPath(id);
    let item: NewItem;
    try {
      item = await receiveCreate(ctx, principal, request, id, () =>
        ctx.blobs.createUploadStream(uploadPath, 'w'),
      );
      if (item.row.is_dir) throw badRequest('IS_A_FOLDER', 'Folders are created with POST /sdk/v2/files.');
      // The name is checked now for a quick answer, and again when the upload is committed.
      freeName(ctx, item.row.parent_id as string, item.row.name, item.resolveConflict);
    } catch (error) {
      await ctx.blobs.removePath(uploadPath);
      throw error;
    }
    ctx.uploads.create(item.row, item.resolveConflict, ctx.now());
    const etag = done ? (await commitWriting(ctx, id)).etag : undefined;
    void reply.code(201).header('location', `/sdk/v2/files/${id}`);
    if (etag) void reply.header('etag', etag);
    return reply.send();
  });

  app.get<{ Params: IdParams }>('/v2/files/:id/resumable', async (request) => {
    const principal = authenticate(ctx, request);
    const row = loadUpload(ctx, principal, request.params.id);
    return { id: row.id, size: await ctx.blobs.size(ctx.blobs.uploadPath(row.id)) };
  });

  app.put<{ Params: IdParams }>('/v2/files/:id/resumable/content', async (request, reply) => {
    const principal = authenticate(ctx, request);
    const row = loadUpload(ctx, principal, request.params.id);
    const offset = integerParam(request, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER });
    const done = booleanParam(request, 'done', false);
    if (!ctx.uploads.beginWrite(row.id))
      throw conflict('UPLOAD_BUSY', 'Another request is writing to this upload right now.');
    try {
      ctx.uploads.touch(row.id, ctx.now());
      const path = ctx.blobs.uploadPath(row.id);
      const received = await ctx.blobs.size(path);
      const start = offset ?? received;
      if (start > received) {
        throw badRequest('INVALID_OFFSET', `offset ${start} is past the ${received} bytes received so far.`);
      }
      // Resending from an earlier offset replaces what came after it.
      if (start < received) await ctx.blobs.truncate(path, start);
      ctx.storage.checkRoomFor(request.headers);
      // What arrives is kept even if the connection breaks: that is what makes the upload resumable.
      await pipeline(request.raw, ctx.blobs.createUploadStream(path, 'a'));
      if (!done) return reply.code(204).send();
      const committed = await commitUpload(ctx, row.id);
      return reply.code(204).header('etag', committed.etag).send();
    } finally {
      // The age of an idle upload counts from its last request with bytes (device-api.md §3); a
      // committed upload has no row left to touch.
      ctx.uploads.touch(row.id, ctx.now());
      ctx.uploads.endWrite(row.id);
    }
  });

  app.delete<{ Params: IdParams }>('/v2/files/:id/resumable', async (request, reply) => {
    const principal = authenticate(ctx, request);
    const row = loadUpload(ctx, principal, request.params.id);
    if (ctx.uploads.isWriting(row.id))
      throw conflict('UPLOAD_BUSY', 'The upload is being written; try again when it ends.');
    ctx.items.markDeleting(row, ctx.now());
    ctx.deleter.kick();
    return reply.code(204).send();
  });
}

/** Commits an upload that no request is writing yet (the POST with done=true), holding it meanwhile. */
async function commitWriting(ctx: DeviceContext, id: string): Promise<ItemRow> {
  if (!ctx.uploads.beginWrite(id)) throw new BugError(`A new upload ${id} is being written already.`);
  try {
    return await commitUpload(ctx, id);
  } finally {
    ctx.uploads.endWrite(id);
  }
}

/** Makes a finished resumable upload a visible file, under a free name if it asked for one. */
async function commitUpload(ctx: DeviceContext, id: string): Promise<ItemRow> {
  const row = ctx.items.get(id);
  if (!row || row.state !== 'uploading' || row.parent_id === null) {
    throw notFound('UPLOAD_NOT_FOUND', `No unfinished resumable upload ${id}.`);
  }
  const resolve = ctx.uploads.resolvesConflict(id);
  const parentId = row.parent_id;
  const name = freeName(ctx, parentId, row.name, resolve);
  const path = ctx.blobs.uploadPath(id);
  const size = await ctx.blobs.size(path);
  const image = size > 0 ? await readImageColumn(path) : null;
  const blob = size > 0 ? await ctx.blobs.commit(path) : null;
  if (!blob) await ctx.blobs.removePath(path);
  const current = ctx.items.get(id);
  if (!current || current.state !== 'uploading') {
    if (blob) await ctx.blobs.remove(blob);
    throw notFound('UPLOAD_NOT_FOUND', `The upload ${id} was cancelled.`);
  }
  try {
    return ctx.uploads.finish(current, { name, size, blob, image, state: 'live' }, ctx.now());
  } catch (error) {
    if (blob) await ctx.blobs.remove(blob);
    throw error;
  }
}
