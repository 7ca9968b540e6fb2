// The device's space for its clients: GET /v2/device/storage (docs/device.md; decided, as the real
// device's own figures are not public).
import type { FastifyInstance } from 'fastify';
import type { DeviceContext } from '../context.ts';
import type { StorageFigures } from '../store/storage-meter.ts';
import { authenticateUser, requireScope } from '../http/auth.ts';

export function registerStorageRoutes(app: FastifyInstance, ctx: DeviceContext): void {
  // The whole device's figures, the same for every user: it has one disk and no quota per user. A share
  // token reads only what was granted to it, never the device's state (403).
  app.get('/v2/device/storage', async (request): Promise<StorageFigures> => {
    requireScope(authenticateUser(ctx, request), 'read');
    return ctx.storage.figures();
  });
}
