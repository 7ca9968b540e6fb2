// The device API (device-api.md §3), mounted under /sdk and under the relay path /proxy/{deviceId}/sdk.
import type { FastifyPluginAsync } from 'fastify';
import type { DeviceContext } from '../context.ts';
import { deviceErrorBody, installErrorHandling } from '../http/error-handler.ts';
import { registerContentRoutes } from './content-routes.ts';
import { registerFilePermRoutes } from './file-perms-routes.ts';
import { registerFileRoutes } from './file-routes.ts';
import { registerListingRoutes } from './listing-routes.ts';
import { registerSearchRoutes } from './search-routes.ts';
import { registerStorageRoutes } from './storage-routes.ts';
import { registerUploadRoutes } from './upload-routes.ts';

export function deviceApiRoutes(ctx: DeviceContext): FastifyPluginAsync {
  return async (app) => {
    installErrorHandling(app, deviceErrorBody);
    registerFileRoutes(app, ctx);
    registerListingRoutes(app, ctx);
    registerSearchRoutes(app, ctx);
    registerFilePermRoutes(app, ctx);
    registerStorageRoutes(app, ctx);
    // Content and uploads read the raw request stream themselves, whatever its Content-Type, so in
    // their scope no body parser (and no 1 MiB JSON limit) applies.
    await app.register(async (streaming) => {
      streaming.removeAllContentTypeParsers();
      streaming.addContentTypeParser('*', (_request, _payload, done) => done(null));
      registerContentRoutes(streaming, ctx);
      registerUploadRoutes(streaming, ctx);
    });
  };
}
