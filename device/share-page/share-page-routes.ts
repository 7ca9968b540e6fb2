// The recipient's page of a share link under B/s/{shareId}: browse, download, preview (device-api.md §4).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ShareTokenResponse } from '../../common/wire/sharing.ts';
import type { DeviceContext } from '../context.ts';
import { describeError, deviceErrorBody } from '../http/error-handler.ts';
import { badRequest, HttpError, notFound } from '../http/errors.ts';
import { queryParam } from '../http/query.ts';
import { sendContent } from '../files/send-content.ts';
import type { ItemRow, ListCursor } from '../store/items.ts';
import { CONTENT_CSP, PAGE_HEADERS } from './page-style.ts';
import { renderErrorPage, renderListingPage, renderNotFoundPage, type EntryView } from './render.ts';
import { issueShareToken } from './share-token.ts';
import {
  loadSharedItem,
  openShare,
  readableChain,
  sharedItems,
  shareNotFound,
  type OpenShare,
} from './share-view.ts';

type ShareParams = { shareId: string };
type ItemParams = { shareId: string; fileId: string };

/** A folder page shows this many entries, then links to the next page (decided). */
const PAGE_SIZE = 200;

/** Thumbnails are the images themselves, so only small ones of types every browser shows (decided). */
const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;
const PREVIEW_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
]);

/** Routes that answer JSON (the token endpoint) instead of a page, also when they fail. */
interface RouteConfig {
  json?: boolean;
}

function canPreview(row: ItemRow): boolean {
  return !row.is_dir && row.size > 0 && row.size <= PREVIEW_MAX_BYTES && PREVIEW_TYPES.has(row.mime_type);
}

function itemPath(open: OpenShare, row: ItemRow, action?: 'download' | 'preview'): string {
  return `${open.basePath}/files/${encodeURIComponent(row.id)}${action === undefined ? '' : `/${action}`}`;
}

function entryOf(open: OpenShare, row: ItemRow): EntryView {
  return {
    name: row.name,
    isDir: row.is_dir === 1,
    href: itemPath(open, row, row.is_dir ? undefined : 'download'),
    size: row.size,
    mTime: row.m_time,
    ...(canPreview(row) ? { previewSrc: itemPath(open, row, 'preview') } : {}),
  };
}

function encodeCursor(row: ItemRow): string {
  return Buffer.from(JSON.stringify([row.name, row.id])).toString('base64url');
}

function decodeCursor(raw: string | undefined): ListCursor | undefined {
  if (raw === undefined || raw === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') {
    throw badRequest('INVALID_PARAMETER', 'from is not a position this page gave out.');
  }
  return { value: parsed[0], id: parsed[1] };
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

export function sharePageRoutes(ctx: DeviceContext): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', async (_request, reply) => {
      void reply.headers(PAGE_HEADERS);
    });

    app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const described = describeError(error);
      if (!described) request.log.error({ err: error }, 'unhandled error');
      const status = described?.status ?? 500;
      if (error instanceof HttpError) void reply.headers(error.headers);
      if ((request.routeOptions.config as RouteConfig).json) {
        return reply
          .code(status)
          .send(
            deviceErrorBody(described?.label ?? 'INTERNAL_ERROR', described?.message ?? 'The device failed.'),
          );
      }
      // One page for every 404, so a visitor learns nothing about which part of the address was wrong.
      return sendPage(reply, status, status === 404 ? renderNotFoundPage() : renderErrorPage(status));
    });
    app.setNotFoundHandler((_request, reply) => sendPage(reply, 404, renderNotFoundPage()));

    const sharePage = async (request: FastifyRequest<{ Params: ShareParams }>, reply: FastifyReply) => {
      const open = openShare(ctx, request.params.shareId);
      const items = sharedItems(ctx, open);
      // A share whose permissions or items are gone looks exactly like no share at all.
      if (items.length === 0) throw shareNotFound();
      const title = items.length === 1 && items[0] ? items[0].name : 'Shared files';
      return sendPage(
        reply,
        200,
        renderListingPage({
          title,
          crumbs: [{ name: 'Shared files' }],
          entries: items.map((row) => entryOf(open, row)),
        }),
      );
    };
    app.get<{ Params: ShareParams }>('/:shareId', sharePage);
    app.get<{ Params: ShareParams }>('/:shareId/', sharePage);

    app.get<{ Params: ItemParams }>('/:shareId/files/:fileId', async (request, reply) => {
      const open = openShare(ctx, request.params.shareId);
      const item = loadSharedItem(ctx, open, request.params.fileId);
      const after = decodeCursor(queryParam(request, 'from'));
      const chain = readableChain(ctx, open, item);
      const crumbs = [
        { name: 'Shared files', href: open.basePath },
        ...chain.map((row, index) =>
          index === chain.length - 1 ? { name: row.name } : { name: row.name, href: itemPath(open, row) },
        ),
      ];
      if (!item.is_dir) {
        return sendPage(
          reply,
          200,
          renderListingPage({ title: item.name, crumbs, entries: [entryOf(open, item)] }),
        );
      }
      const rows = ctx.items.listChildren(item.id, 'name', 'asc', PAGE_SIZE + 1, after);
      const page = rows.slice(0, PAGE_SIZE);
      const last = page.at(-1);
      return sendPage(
        reply,
        200,
        renderListingPage({
          title: item.name,
          crumbs,
          entries: page.map((row) => entryOf(open, row)),
          ...(rows.length > PAGE_SIZE && last
            ? { moreHref: `${itemPath(open, item)}?from=${encodeCursor(last)}` }
            : {}),
        }),
      );
    });

    const sendShared = (
      request: FastifyRequest<{ Params: ItemParams }>,
      reply: FastifyReply,
      mode: 'download' | 'preview',
    ): Promise<FastifyReply> => {
      const open = openShare(ctx, request.params.shareId);
      const row = loadSharedItem(ctx, open, request.params.fileId);
      if (row.is_dir || (mode === 'preview' && !canPreview(row)))
        throw notFound('NOT_FOUND', 'Nothing to show.');
      // The link is re-checked on every request, so a cached copy may be kept only if revalidated.
      void reply.headers({
        'content-security-policy': CONTENT_CSP,
        'cache-control': 'private, no-cache',
      });
      return sendContent(ctx, request, reply, row, { attachment: mode === 'download' });
    };
    app.get<{ Params: ItemParams }>('/:shareId/files/:fileId/download', async (request, reply) =>
      sendShared(request, reply, 'download'),
    );
    app.get<{ Params: ItemParams }>('/:shareId/files/:fileId/preview', async (request, reply) =>
      sendShared(request, reply, 'preview'),
    );

    // A device token for the link's visitors, for reading the shared items through the device API
    // (decided: sub cloudShare|<authId>, scope nas_read_only, short-lived; docs/device.md).
    app.post<{ Params: ShareParams }>(
      '/:shareId/token',
      { config: { json: true } satisfies RouteConfig },
      async (request): Promise<ShareTokenResponse> => {
        const open = openShare(ctx, request.params.shareId);
        const { token, expiresIn } = issueShareToken(ctx, open.share.auth_id);
        return {
          access_token: token,
          token_type: 'Bearer',
          expires_in: expiresIn,
          scope: 'nas_read_only',
          fileIds: sharedItems(ctx, open).map((row) => row.id),
        };
      },
    );
  };
}
