// The cloud services of the local device: device lookup, user lookup (§5) and sharing (device-api.md §4).
import type { FastifyPluginAsync } from 'fastify';
import type { DeviceRecord, UserRecord, Wrapped } from '../../common/wire/cloud.ts';
import type { DeviceContext } from '../context.ts';
import { authenticateUser } from '../http/auth.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { installErrorHandling, wrappedErrorBody } from '../http/error-handler.ts';
import { registerShareRoutes } from './share-routes.ts';

function deviceRecord(ctx: DeviceContext): DeviceRecord {
  return {
    deviceId: ctx.device.id,
    name: ctx.device.name,
    modelId: ctx.device.model_id,
    type: 'nas',
    serialNumber: ctx.device.serial_number,
    createdOn: ctx.device.created_on,
    network: ctx.urls().network,
  };
}

export function cloudRoutes(ctx: DeviceContext): FastifyPluginAsync {
  return async (app) => {
    installErrorHandling(app, wrappedErrorBody);
    registerShareRoutes(app, ctx);

    // Every user of the local device is a member of its one device.
    app.get('/device/v1/user/:userId', async (request): Promise<Wrapped<DeviceRecord[]>> => {
      const principal = authenticateUser(ctx, request);
      const { userId } = request.params as { userId: string };
      if (userId !== principal.userId) throw forbidden('FORBIDDEN', 'You may only look up your own devices.');
      return { data: [deviceRecord(ctx)], error: null };
    });

    app.get('/device/v1/device/:deviceId', async (request): Promise<Wrapped<DeviceRecord>> => {
      authenticateUser(ctx, request);
      const { deviceId } = request.params as { deviceId: string };
      if (deviceId !== ctx.device.id) throw notFound('DEVICE_NOT_FOUND', `No device ${deviceId}.`);
      return { data: deviceRecord(ctx), error: null };
    });

    // Older clients find their user id by email; only the caller's own record is ever returned.
    app.get('/authservice/v2/auth0/user', async (request): Promise<Wrapped<UserRecord[]>> => {
      const principal = authenticateUser(ctx, request);
      const { email } = request.query as { email?: unknown };
      if (typeof email !== 'string' || email === '') {
        throw badRequest('GENERAL_INSUFFICIENT_PARAMETERS', 'email is required.');
      }
      const user = ctx.users.byEmail(email);
      if (!user || user.id !== principal.userId) return { data: [], error: null };
      return {
        data: [
          {
            user_id: user.id,
            email: user.email,
            name: user.name,
            user_metadata: { first_name: user.name, last_name: '', lang: 'en', time_zone_name: 'UTC' },
          },
        ],
        error: null,
      };
    });
  };
}
