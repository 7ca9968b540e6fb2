// Builds and starts the local device: one fastify server for all of its services (device-api.md §1).
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from './db/database.ts';
import type { DeviceContext } from './context.ts';
import { deviceErrorBody, installErrorHandling } from './http/error-handler.ts';
import { FaultInjector, installFaults, type FaultSpec } from './faults.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { JwtSigner, loadSigningKey } from './identity/jwt.ts';
import { identityRoutes } from './identity/routes.ts';
import { Permissions } from './permissions.ts';
import { configRoutes } from './routes/config-routes.ts';
import { cloudRoutes } from './routes/cloud-routes.ts';
import { deviceApiRoutes } from './routes/device-api.ts';
import { sharePageRoutes } from './share-page/share-page-routes.ts';
import { BlobStore } from './store/blobs.ts';
import { StorageMeter } from './store/storage-meter.ts';
import { Deleter } from './store/deleter.ts';
import { SearchIndexer } from './search/indexer.ts';
import { ensureDeviceRecord } from './store/device-record.ts';
import { FilePermStore } from './store/file-perms.ts';
import { ItemStore } from './store/items.ts';
import { ShareStore } from './store/shares.ts';
import { UserStore } from './store/users.ts';
import { UploadStore } from './store/uploads.ts';
import { DEFAULT_UPLOAD_TTL_SECONDS, sweepIntervalFor, UploadSweeper } from './store/upload-sweeper.ts';
import { deriveUrls, type DeviceUrls } from './urls.ts';
import { Forwarder, type AddressState, type LinkShape } from './forwarder.ts';

export const DEFAULT_PORT = 4780;
export const DEFAULT_TOKEN_TTL_SECONDS = 86_400;
const JSON_BODY_LIMIT = 1024 * 1024;

export interface DeviceUser {
  name: string;
  password: string;
}

export interface DeviceOptions {
  dataDir: string;
  host?: string;
  /** 0 lets the OS choose a free port. */
  port?: number;
  /** The base advertised in every URL the device hands out, for running behind a proxy. */
  publicUrl?: string;
  tokenTtlSeconds?: number;
  /** An unfinished resumable upload that has received nothing for this long is dropped (default a day). */
  uploadTtlSeconds?: number;
  /** How often the running device looks for such uploads (default: from the age); for tests. */
  uploadSweepIntervalMs?: number;
  /** Created when missing; with none at all, and no user yet, `demo`/`demo` is created. */
  users?: DeviceUser[];
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  now?: () => number;
  /** Injected failures for client tests (`mch-device --faults`). */
  faults?: { spec: FaultSpec; seed: number };
  /**
   * A home address (e.g. 127.0.0.2), advertised as `internalDNSName` instead of the listener; with a
   * shape, a slow home network (tests that must catch a transfer in the middle).
   */
  home?: { host: string; port?: number } & Partial<LinkShape>;
  /** A relay address (e.g. 127.0.0.3), advertised as `proxyURL`, with its latency and bandwidth cap. */
  relay?: { host: string; port?: number } & Partial<LinkShape>;
  /**
   * The device's size in bytes (`mch-device --capacity`): writes past it are refused with 507, and
   * GET /sdk/v2/device/storage answers it. Absent: the data folder's file system decides.
   */
  capacityBytes?: number;
}

export type AddressName = 'home' | 'relay';

export interface RunningDevice {
  app: FastifyInstance;
  context: DeviceContext;
  urls: DeviceUrls;
  /** Where the server itself listens, e.g. http://127.0.0.1:4780 (the advertised base may differ). */
  listenUrl: string;
  /** The users this start created (for example the demo user). */
  createdUsers: string[];
  /** The separate addresses that were asked for (`home`, `relay`), each with its own listener. */
  addresses: Partial<Record<AddressName, Forwarder>>;
  /** Takes a separate address down (refused, open connections cut) or brings it back on the same port. */
  setAddress(name: AddressName, state: AddressState): Promise<void>;
  /** A new capacity in bytes while running (undefined: the file system's), so a test can fill or free it. */
  setCapacity(bytes: number | undefined): void;
  close(): Promise<void>;
}

function createContext(options: DeviceOptions, urls: () => DeviceUrls): DeviceContext {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const db = openDatabase(join(options.dataDir, 'device.db'));
  const now = options.now ?? Date.now;
  const items = new ItemStore(db);
  const storage = new StorageMeter(options.dataDir, options.capacityBytes);
  const blobs = new BlobStore(options.dataDir, storage);
  const uploads = new UploadStore(db, items);
  const uploadTtlSeconds = options.uploadTtlSeconds ?? DEFAULT_UPLOAD_TTL_SECONDS;
  return {
    db,
    dataDir: options.dataDir,
    device: ensureDeviceRecord(db, now()),
    items,
    users: new UserStore(db, items),
    permissions: new Permissions(db),
    filePerms: new FilePermStore(db),
    shares: new ShareStore(db),
    blobs,
    storage,
    deleter: new Deleter(db, blobs, (error) => console.error('device: background delete failed:', error)),
    uploads,
    uploadSweeper: new UploadSweeper({
      uploads,
      blobs,
      now,
      ttlSeconds: uploadTtlSeconds,
      intervalMs: options.uploadSweepIntervalMs ?? sweepIntervalFor(uploadTtlSeconds),
      onError: (error) => console.error('device: dropping idle uploads failed:', error),
    }),
    searchIndexer: new SearchIndexer(db, (error) => console.error('device: search indexing failed:', error)),
    signer: new JwtSigner(loadSigningKey(options.dataDir)),
    tokenTtlSeconds: options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    urls,
    now,
  };
}

/** The fastify app with every service mounted; it does not listen yet. */
export function buildApp(
  context: DeviceContext,
  logLevel: DeviceOptions['logLevel'] = 'error',
  faults?: DeviceOptions['faults'],
): FastifyInstance {
  const app = Fastify({
    logger: { level: logLevel },
    bodyLimit: JSON_BODY_LIMIT,
    routerOptions: { maxParamLength: 1000 },
    requestIdHeader: 'x-correlation-id',
    forceCloseConnections: true,
    frameworkErrors: (error, _request, reply) => {
      // A malformed URL (bad percent-encoding...) never reaches a route; it is still the client's fault.
      void (reply as FastifyReply).code(400).send(deviceErrorBody('BAD_REQUEST', error.message));
    },
  });
  installErrorHandling(app, deviceErrorBody);
  installJsonBodyParser(app, JSON_BODY_LIMIT);
  if (faults) installFaults(app, new FaultInjector(faults.spec, faults.seed));
  installPrettyJson(app);
  app.register(configRoutes(context), { prefix: '/config' });
  // Form bodies are for the identity provider only (its sign-in form and token endpoint); the device
  // API takes JSON (device-api.md §3).
  app.register(
    async (identity) => {
      identity.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      await identity.register(identityRoutes(context));
    },
    { prefix: '/identity' },
  );
  app.register(cloudRoutes(context), { prefix: '/cloud' });
  app.register(deviceApiRoutes(context), { prefix: '/sdk' });
  // The relay address of device-api.md §1: the same API under /proxy/{deviceId}/sdk.
  app.register(deviceApiRoutes(context), { prefix: `/proxy/${context.device.id}/sdk` });
  // The recipient's page of a share link (device-api.md §4).
  app.register(sharePageRoutes(context), { prefix: '/s' });
  return app;
}

/** `pretty=true` indents any JSON answer (device-api.md §3); other values than true/false are a 400. */
function installPrettyJson(app: FastifyInstance): void {
  // Callback hooks, not async ones: they run on every request, and a promise each is pure cost here.
  app.addHook('onRequest', (request, reply, done) => {
    const pretty = (request.query as Record<string, unknown>)['pretty'];
    if (pretty !== undefined && pretty !== 'true' && pretty !== 'false') {
      // An answer from a callback hook ends the request: done() is not called.
      void reply.code(400).send(deviceErrorBody('BAD_REQUEST', 'pretty must be true or false.'));
      return;
    }
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      (request.query as Record<string, unknown>)['pretty'] !== 'true' ||
      typeof payload !== 'string' ||
      !String(reply.getHeader('content-type') ?? '').startsWith('application/json')
    ) {
      done(null, payload);
      return;
    }
    try {
      done(null, JSON.stringify(JSON.parse(payload), null, 2));
    } catch (error) {
      done(error as Error);
    }
  });
}

/** Opens the data folder, creates the requested users and starts listening. */
export async function startDevice(options: DeviceOptions): Promise<RunningDevice> {
  const known: { urls?: DeviceUrls } = {};
  const context = createContext(options, () => {
    if (!known.urls) throw new Error('The device URLs are known only once it listens.');
    return known.urls;
  });
  const createdUsers: string[] = [];
  const wanted = options.users ?? [];
  for (const user of wanted) {
    if (context.users.ensure(user.name, user.password, context.now()).created) createdUsers.push(user.name);
  }
  if (wanted.length === 0 && context.users.count() === 0) {
    context.users.ensure('demo', 'demo', context.now());
    createdUsers.push('demo');
  }
  // Content a crash left unreferenced goes before the first request, so no upload can race the sweep.
  // One read of every referenced name: a query per content file would scan the table each time
  // (blob has no index), minutes for 100,000 files.
  const referenced = new Set(
    context.db.prepare<[], string>('SELECT blob FROM items WHERE blob IS NOT NULL').pluck().all(),
  );
  await context.blobs.sweepOrphans((name) => referenced.has(name));
  // Uploads abandoned while the device was down go too, then any bytes no upload refers to any more.
  await context.uploadSweeper.sweep();
  const unfinished = context.uploads.unfinishedIds();
  await context.blobs.sweepUploadOrphans((id) => unfinished.has(id));
  // What is stored once the sweeps are done: every file's content (items being deleted still hold
  // theirs) and the unfinished uploads' bytes. From here on BlobStore counts each change.
  const stored = context.db
    .prepare<[], number>('SELECT COALESCE(SUM(size), 0) FROM items WHERE blob IS NOT NULL')
    .pluck()
    .get();
  context.storage.start((stored ?? 0) + (await context.blobs.uploadBytes()));
  const app = buildApp(context, options.logLevel, options.faults);
  try {
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? DEFAULT_PORT });
  } catch (error) {
    context.db.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
  const host =
    options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const listenUrl = `http://${hostPart}:${port}`;
  let addresses: RunningDevice['addresses'];
  try {
    addresses = await startAddresses(options, { host, port });
  } catch (error) {
    await app.close();
    context.db.close();
    throw error;
  }
  const urls = deriveUrls(options.publicUrl ?? listenUrl, context.device.id, {
    ...(addresses.home ? { home: hostAndPort(addresses.home) } : {}),
    ...(addresses.relay ? { relay: `http://${hostAndPort(addresses.relay)}` } : {}),
  });
  known.urls = urls;
  // Finish folder deletes a previous run left half done.
  context.deleter.kick();
  context.uploadSweeper.start();
  let closing: Promise<void> | undefined;
  return {
    app,
    context,
    urls,
    listenUrl,
    createdUsers,
    addresses,
    setAddress: async (name, state) => {
      const forwarder = addresses[name];
      if (!forwarder) throw new Error(`The device was started without a ${name} address.`);
      await forwarder.set(state);
    },
    setCapacity: (bytes) => context.storage.setCapacity(bytes),
    close: () => {
      closing ??= (async () => {
        await Promise.all([addresses.home?.stop(), addresses.relay?.stop()]);
        await app.close();
        await context.uploadSweeper.close();
        await context.deleter.close();
        await context.searchIndexer.close();
        context.db.close();
      })();
      return closing;
    },
  };
}

function hostAndPort(forwarder: Forwarder): string {
  return `${forwarder.host.includes(':') ? `[${forwarder.host}]` : forwarder.host}:${forwarder.port}`;
}

/**
 * The home and relay addresses are forwarders inside the device process, in front of its one listener.
 * Why not a child process for the relay: what a client can observe of a relay is its address, its
 * latency, its bandwidth and it going away, and a forwarder here gives all four exactly (the latency
 * and the cap are timed per chunk of bytes on the wire, so a busy device can only add to them, never
 * take away), while the switch stays a plain call that tests await, with no second process to start,
 * find and reap. Both forward bytes, not requests: keep-alive, streaming and a connection cut mid-body
 * behave as on the wire, and the relay's path `/proxy/{deviceId}` is served by the device itself.
 */
async function startAddresses(
  options: DeviceOptions,
  target: { host: string; port: number },
): Promise<RunningDevice['addresses']> {
  const addresses: RunningDevice['addresses'] = {};
  try {
    if (options.home) {
      const { host, port = 0, latencyMs, bytesPerSecond } = options.home;
      const shaped = latencyMs !== undefined || bytesPerSecond !== undefined;
      addresses.home = new Forwarder({
        host,
        port,
        target,
        ...(shaped
          ? {
              shape: {
                latencyMs: latencyMs ?? 0,
                ...(bytesPerSecond === undefined ? {} : { bytesPerSecond }),
              },
            }
          : {}),
      });
      await addresses.home.start();
    }
    if (options.relay) {
      const { host, port = 0, latencyMs = 0, bytesPerSecond } = options.relay;
      addresses.relay = new Forwarder({
        host,
        port,
        target,
        shape: { latencyMs, ...(bytesPerSecond === undefined ? {} : { bytesPerSecond }) },
      });
      await addresses.relay.start();
    }
  } catch (error) {
    await addresses.home?.stop();
    throw error;
  }
  return addresses;
}
