// The mount process of an on-demand pair: mounts the passthrough of the cache folder, serves it, unmounts.
//
//   node app/mount/mount-process.ts --source C --mount M --socket S [--no-download-json '[...]']
//
// Prints one line on stdout: {"mounted":true} once the mount is up, or {"error":{"code","message"}}
// and exits 1. `MCH_HYDRATION_ANSWER_TIMEOUT_MS` in the environment shortens (for tests) how long an
// open waits for a service that says nothing about its hydration (HYDRATION_ANSWER_TIMEOUT_MS). Unmounts
// and exits 0 on SIGTERM or SIGINT, when stdin ends (the parent died: it spawns this with stdin a pipe
// it keeps open) or when the service's socket closes; exits UNMOUNTED_FROM_OUTSIDE_EXIT when M was
// unmounted by someone else (`fusermount -u M`), so the service knows and mounts again. It never reads M itself:
// the FUSE threads serving M are this process's, so a synchronous access to M here would deadlock.
import { readdir, stat } from 'node:fs/promises';
import { constants } from 'node:os';
import { assertNever, MchError } from '../../common/errors.ts';
import { HYDRATION_ANSWER_TIMEOUT_MS, loadFuseAddon, MOUNT_OPTIONS, type FuseAddon } from './fuse-addon.ts';
import { HydrationClient } from './hydration-client.ts';
import type { FreeRequest, MountToService, ServiceToMount } from './hydration-protocol.ts';
import { parseMountArguments, type MountArguments } from './mount-arguments.ts';
import { MountError, UNMOUNTED_FROM_OUTSIDE_EXIT } from './mount-errors.ts';
import { cleanStaleMount } from './stale-mount.ts';

function say(line: object): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

async function checkFolders(args: MountArguments): Promise<void> {
  const source = await stat(args.source).catch(() => undefined);
  if (source?.isDirectory() !== true) {
    throw new MountError('MOUNT_SOURCE_MISSING', `The cache folder ${args.source} is not a folder.`);
  }
  await cleanStaleMount(args.mountPoint);
  const target = await stat(args.mountPoint).catch(() => undefined);
  if (target?.isDirectory() !== true) {
    throw new MountError(
      'MOUNT_POINT_MISSING',
      `${args.mountPoint} is not a folder: create it (empty) to show the on-demand folder there.`,
    );
  }
  if ((await readdir(args.mountPoint)).length > 0) {
    throw new MountError(
      'MOUNT_POINT_NOT_EMPTY',
      `${args.mountPoint} is not empty: the on-demand folder would hide what is in it. Move its contents away.`,
    );
  }
}

/** Frees on the addon's thread pool and answers; the answer of one free never waits for another's. */
async function free(addon: FuseAddon, request: FreeRequest): Promise<MountToService> {
  const { req } = request;
  try {
    const refusal = await addon.free(request.path, request.size, BigInt(request.mtimeNs));
    return refusal === null ? { type: 'freed', req } : { type: 'free-refused', req, ...refusal };
  } catch (error) {
    return { type: 'free-refused', req, errno: 'EIO', message: (error as Error).message };
  }
}

function answerTimeoutMs(): number {
  const value = Number(process.env['MCH_HYDRATION_ANSWER_TIMEOUT_MS']);
  return Number.isSafeInteger(value) && value > 0 ? value : HYDRATION_ANSWER_TIMEOUT_MS;
}

function deliver(addon: FuseAddon, client: HydrationClient, message: ServiceToMount): void {
  switch (message.type) {
    case 'started':
      addon.hydrationStarted(message.req, message.size);
      return;
    case 'progress':
      addon.hydrationProgress(message.req, message.bytes);
      return;
    case 'done':
      addon.hydrationDone(message.req);
      return;
    case 'failed':
      addon.hydrationFailed(message.req, constants.errno[message.errno]);
      return;
    case 'free':
      void free(addon, message).then((answer) => client.send(answer));
      return;
    default:
      assertNever(message);
  }
}

async function serve(args: MountArguments): Promise<void> {
  await checkFolders(args);
  const addon = loadFuseAddon();
  const missing = addon.fuseUnavailable();
  if (missing !== null) throw new MountError('FUSE_UNAVAILABLE', missing);
  let mounted = false;
  let stopped = false;
  const stop = (reason: string, exitCode = 0): void => {
    if (stopped) return;
    stopped = true;
    if (mounted) {
      const ended = addon.unmount();
      process.stderr.write(
        `mch-mount: unmounted ${args.mountPoint} (${reason})${ended ? '' : '; a program still held a file open'}\n`,
      );
    }
    client.close();
    process.exit(exitCode);
  };
  const client = await HydrationClient.connect(args.socket, {
    onMessage: (message) => deliver(addon, client, message),
    onClose: (error) => stop(error === undefined ? 'the service closed the socket' : error.message, 0),
  });
  try {
    addon.mount({
      source: args.source,
      mountPoint: args.mountPoint,
      options: MOUNT_OPTIONS,
      noDownload: args.noDownload,
      answerTimeoutMs: answerTimeoutMs(),
      onHydrate: (req, path, pid, name) => client.send({ type: 'hydrate', req, path, pid, process: name }),
      onEnded: () => stop('unmounted from outside', UNMOUNTED_FROM_OUTSIDE_EXIT),
    });
  } catch (error) {
    client.close();
    const { code, message } = error as { code?: string; message: string };
    throw new MountError(code === 'FUSE_UNAVAILABLE' ? code : 'MOUNT_FAILED', message, { cause: error });
  }
  mounted = true;
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.stdin.on('end', () => stop('stdin closed'));
  process.stdin.on('error', () => stop('stdin failed'));
  process.stdin.resume();
  say({ mounted: true });
}

async function main(): Promise<void> {
  try {
    await serve(parseMountArguments(process.argv.slice(2)));
  } catch (error) {
    const known = error instanceof MchError;
    say({
      error: {
        code: known ? error.code : 'MOUNT_FAILED',
        message: error instanceof Error ? error.message : String(error),
      },
    });
    process.exit(1);
  }
}

await main();
