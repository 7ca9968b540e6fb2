// The configuration service: where every other service lives (interface.md "Configuration", device-api.md §5).
import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Configuration, Wrapped } from '../../common/wire/cloud.ts';
import type { DeviceContext } from '../context.ts';
import { badRequest } from '../http/errors.ts';
import { installErrorHandling, wrappedErrorBody } from '../http/error-handler.ts';
import { tagListMatches } from '../http/preconditions.ts';

const CLIENT_TYPES = ['nas', 'portal'] as const;

export function buildConfiguration(ctx: DeviceContext, clientType: string): Configuration {
  const urls = ctx.urls();
  return {
    configurationId: `local-${clientType}`,
    name: `Local device configuration (${clientType})`,
    modelId: ctx.device.model_id,
    modifiedOn: ctx.device.created_on,
    createdOn: ctx.device.created_on,
    componentMap: {
      'cloud.service.urls': {
        'service.device.url': urls.cloud,
        'service.share.url': urls.cloud,
        'service.identity.url': urls.identity,
        'service.auth0.url': urls.identity,
        'service.auth.url': urls.cloud,
        'service.client.url': urls.cloud,
      },
    },
  };
}

export function configRoutes(ctx: DeviceContext): FastifyPluginAsync {
  return async (app) => {
    installErrorHandling(app, wrappedErrorBody);
    app.get('/v1/config', async (request, reply) => {
      const { clienttype = 'nas' } = request.query as { clienttype?: unknown };
      if (typeof clienttype !== 'string' || !(CLIENT_TYPES as readonly string[]).includes(clienttype)) {
        throw badRequest('GENERAL_INVALID_PARAMETERS', 'clienttype must be nas or portal.');
      }
      const body: Wrapped<Configuration> = { data: buildConfiguration(ctx, clienttype), error: null };
      const json = JSON.stringify(body);
      const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 22)}"`;
      void reply.header('etag', etag).header('cache-control', 'no-cache');
      const ifNoneMatch = request.headers['if-none-match'];
      if (typeof ifNoneMatch === 'string' && tagListMatches(ifNoneMatch, etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(json);
    });
  };
}
