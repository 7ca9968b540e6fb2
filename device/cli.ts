// The `mch-device` command: runs the local device until SIGINT or SIGTERM.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { randomInt } from 'node:crypto';
import { defaultDataDir } from './data-dir.ts';
import { describeFaultSpec, FaultSpecError, parseFaultSpec, type FaultSpec } from './faults.ts';
import { DEFAULT_UPLOAD_TTL_SECONDS } from './store/upload-sweeper.ts';
import { LinkShapeError, parseLatency, parseRate } from './forwarder.ts';
import { createInterface } from 'node:readline';
import { CapacityError, parseCapacity } from './store/storage-meter.ts';
import {
  DEFAULT_PORT,
  DEFAULT_TOKEN_TTL_SECONDS,
  startDevice,
  type DeviceUser,
  type RunningDevice,
} from './server.ts';

const USAGE = `Usage: mch-device [options]

Runs a complete local device: configuration, identity provider, device API and sharing, on one port.

Options:
  --port N              port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H              address to listen on (default 127.0.0.1)
  --data DIR            data folder (default: ${defaultDataDir()})
  --user NAME:PASSWORD  create this user if missing (repeatable); with no user at all, demo/demo is made
  --public-url URL      base URL to advertise, when the device is reached through a proxy
  --token-ttl SECONDS   access-token lifetime (default ${DEFAULT_TOKEN_TTL_SECONDS})
  --upload-ttl SECONDS  drop an unfinished resumable upload, with its bytes, once it has received
                        nothing for this long (default ${DEFAULT_UPLOAD_TTL_SECONDS}, a day)
  --faults SPEC         inject failures into device-API requests, for client tests, e.g.
                        error=0.05,reset=0.02,lost=0.01,latency=10-200[,scope=all]
                        (error: 503; reset: connection dropped before handling; lost: handled, answer
                        dropped; latency: wait MIN-MAX ms; scope=all: configuration and identity too)
  --seed N              seed of the fault sequence (default: random, printed)
  --home HOST[:PORT]    a home address, e.g. 127.0.0.2, advertised as the device record's
                        internalDNSName (default: the listening address, as localhost)
  --relay HOST[:PORT]   a relay address, e.g. 127.0.0.3, advertised as its proxyURL
                        (HOST:PORT/proxy/<deviceId>); a free port when PORT is left out
  --relay-latency T     latency the relay adds each way, e.g. 40ms or 0.2s (default 0)
  --relay-rate R        bandwidth cap of the relay each way, shared by its connections, e.g. 5MB/s
                        (default: none)
                        With --home or --relay, a line on standard input such as "relay down" or
                        "home up" switches that address off (refused, open connections cut) or on.
  --capacity SIZE       the device's size, e.g. 64MB or 2GB (decimal units): writes past it are
                        refused with 507 INSUFFICIENT_STORAGE, and GET /sdk/v2/device/storage says it
                        (default: the data folder's file system). A line "capacity 1GB" (or
                        "capacity off") on standard input changes it while the device runs.
  --verbose             log every request
  -h, --help            show this help`;

export class UsageError extends Error {}

export interface CliOptions {
  port: number;
  host: string;
  dataDir: string;
  users: DeviceUser[];
  publicUrl?: string;
  tokenTtlSeconds: number;
  uploadTtlSeconds: number;
  faults?: { spec: FaultSpec; seed: number };
  home?: { host: string; port: number };
  relay?: { host: string; port: number; latencyMs: number; bytesPerSecond?: number };
  capacityBytes?: number;
  verbose: boolean;
  help: boolean;
}

function parseInteger(value: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return Number(value);
}

export function parseCliArgs(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        user: { type: 'string', multiple: true },
        'public-url': { type: 'string' },
        'token-ttl': { type: 'string' },
        'upload-ttl': { type: 'string' },
        faults: { type: 'string' },
        seed: { type: 'string' },
        home: { type: 'string' },
        relay: { type: 'string' },
        'relay-latency': { type: 'string' },
        'relay-rate': { type: 'string' },
        capacity: { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  const users = (values.user ?? []).map((spec) => {
    const colon = spec.indexOf(':');
    if (colon <= 0 || colon === spec.length - 1) {
      throw new UsageError(`--user takes NAME:PASSWORD, got "${spec}".`);
    }
    return { name: spec.slice(0, colon), password: spec.slice(colon + 1) };
  });
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(publicUrl);
    } catch {
      throw new UsageError(`--public-url must be an absolute URL, got "${publicUrl}".`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError('--public-url must be an http or https URL.');
    }
  }
  let faults: CliOptions['faults'];
  if (values.faults !== undefined) {
    try {
      const spec = parseFaultSpec(values.faults);
      const seed =
        values.seed === undefined
          ? randomInt(0, 2 ** 31)
          : parseInteger(values.seed, '--seed', 0, 2 ** 32 - 1);
      faults = { spec, seed };
    } catch (error) {
      if (error instanceof FaultSpecError) throw new UsageError(`--faults: ${error.message}`);
      throw error;
    }
  } else if (values.seed !== undefined) {
    throw new UsageError('--seed goes with --faults.');
  }
  const home = values.home === undefined ? undefined : parseAddress(values.home, '--home');
  const relayAddress = values.relay === undefined ? undefined : parseAddress(values.relay, '--relay');
  if (!relayAddress && (values['relay-latency'] !== undefined || values['relay-rate'] !== undefined)) {
    throw new UsageError('--relay-latency and --relay-rate go with --relay.');
  }
  let relay: CliOptions['relay'];
  if (relayAddress) {
    const latency = values['relay-latency'];
    const rate = values['relay-rate'];
    relay = {
      ...relayAddress,
      latencyMs: latency === undefined ? 0 : withFlag('--relay-latency', () => parseLatency(latency)),
      ...(rate === undefined ? {} : { bytesPerSecond: withFlag('--relay-rate', () => parseRate(rate)) }),
    };
  }
  const capacity = values.capacity;
  const capacityBytes =
    capacity === undefined ? undefined : withFlag('--capacity', () => parseCapacity(capacity));
  return {
    ...(capacityBytes === undefined ? {} : { capacityBytes }),
    ...(faults === undefined ? {} : { faults }),
    ...(home === undefined ? {} : { home }),
    ...(relay === undefined ? {} : { relay }),
    port: values.port === undefined ? DEFAULT_PORT : parseInteger(values.port, '--port', 0, 65535),
    host: values.host ?? '127.0.0.1',
    dataDir: resolve(values.data ?? defaultDataDir()),
    users,
    ...(publicUrl === undefined ? {} : { publicUrl }),
    tokenTtlSeconds:
      values['token-ttl'] === undefined
        ? DEFAULT_TOKEN_TTL_SECONDS
        : parseInteger(values['token-ttl'], '--token-ttl', 1, 10 * 365 * 86_400),
    uploadTtlSeconds:
      values['upload-ttl'] === undefined
        ? DEFAULT_UPLOAD_TTL_SECONDS
        : parseInteger(values['upload-ttl'], '--upload-ttl', 1, 10 * 365 * 86_400),
    verbose: values.verbose ?? false,
    help: values.help ?? false,
  };
}

function withFlag<T>(flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof LinkShapeError || error instanceof CapacityError)
      throw new UsageError(`${flag} ${error.message}`);
    throw error;
  }
}

/** `127.0.0.2` or `127.0.0.2:4781` (port 0, a free one, when left out); an IPv6 host goes in brackets. */
function parseAddress(text: string, flag: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+))(?::(\d+))?$/.exec(text);
  const host = match?.[1] ?? match?.[2];
  if (!match || host === undefined) {
    throw new UsageError(`${flag} takes HOST or HOST:PORT, e.g. 127.0.0.2 or 127.0.0.2:4781, got "${text}".`);
  }
  return { host, port: match[3] === undefined ? 0 : parseInteger(match[3], `${flag}'s port`, 0, 65535) };
}

/** Starts the device from parsed options and prints where it can be reached. */
export async function runDevice(options: CliOptions, print: (line: string) => void): Promise<RunningDevice> {
  const device = await startDevice({
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    users: options.users,
    tokenTtlSeconds: options.tokenTtlSeconds,
    uploadTtlSeconds: options.uploadTtlSeconds,
    logLevel: options.verbose ? 'info' : 'error',
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.home === undefined ? {} : { home: options.home }),
    ...(options.relay === undefined ? {} : { relay: options.relay }),
    ...(options.capacityBytes === undefined ? {} : { capacityBytes: options.capacityBytes }),
  });
  print(`mch-device: local device ${device.context.device.id} ready`);
  print(`data folder: ${options.dataDir}`);
  for (const name of device.createdUsers) {
    print(
      name === 'demo' && options.users.length === 0
        ? 'created user demo (password demo)'
        : `created user ${name}`,
    );
  }
  print(`listening on: ${device.listenUrl}`);
  if (options.faults) {
    print(`faults: ${describeFaultSpec(options.faults.spec)} --seed ${options.faults.seed}`);
  }
  if (device.addresses.home) print(`home address: ${device.urls.network.internalURL}`);
  if (device.addresses.relay) {
    const { latencyMs, bytesPerSecond } = options.relay ?? { latencyMs: 0 };
    const rate = bytesPerSecond === undefined ? 'no cap' : `${bytesPerSecond} B/s`;
    print(`relay address: ${device.urls.network.proxyURL} (latency ${latencyMs} ms, ${rate})`);
  }
  if (options.capacityBytes !== undefined) print(`capacity: ${options.capacityBytes} bytes`);
  print(`device api: ${device.urls.base}/sdk/v2`);
  print(`config url: ${device.urls.config}`);
  return device;
}

function describeStartError(error: unknown, options: CliOptions): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return `Port ${options.port} on ${options.host} is in use: stop what uses it or pick another with --port.`;
  if (code === 'EACCES')
    return `Not allowed to listen on ${options.host}:${options.port}: pick a port above 1023 with --port.`;
  if (code === 'EADDRNOTAVAIL') return `${options.host} is not an address of this machine: fix --host.`;
  return `The device could not start: ${(error as Error).message}`;
}

export async function main(argv: string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`mch-device: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  let device: RunningDevice;
  try {
    device = await runDevice(options, (line) => console.log(line));
  } catch (error) {
    console.error(`mch-device: ${describeStartError(error, options)}`);
    return 1;
  }
  console.log('Press Ctrl+C to stop.');
  const control = listenForSwitches(device, options);
  await new Promise<void>((resolveStop) => {
    const stop = (signal: string): void => {
      console.log(`mch-device: ${signal} received, stopping`);
      resolveStop();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  control?.close();
  await device.close();
  console.log('mch-device: stopped');
  return 0;
}

/** Reads "home down", "relay up", "capacity 1GB"... from standard input, when the device has such switches. */
function listenForSwitches(device: RunningDevice, options: CliOptions): { close(): void } | undefined {
  const addresses = device.addresses.home !== undefined || device.addresses.relay !== undefined;
  if (!addresses && options.capacityBytes === undefined) return undefined;
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const capacity = /^\s*capacity\s+(\S+)\s*$/.exec(line);
    if (capacity) {
      switchCapacity(device, capacity[1] as string);
      return;
    }
    const match = /^\s*(home|relay)\s+(up|down)\s*$/.exec(line);
    if (!match) {
      if (line.trim() !== '')
        console.error(
          `mch-device: say "home up", "home down", "relay up", "relay down" or "capacity SIZE" (or "capacity off").`,
        );
      return;
    }
    const name = match[1] as 'home' | 'relay';
    const state = match[2] as 'up' | 'down';
    device.setAddress(name, state).then(
      () => console.log(`mch-device: ${name} address ${state}`),
      (error: unknown) => console.error(`mch-device: ${name} ${state} failed: ${(error as Error).message}`),
    );
  });
  return lines;
}

function switchCapacity(device: RunningDevice, text: string): void {
  try {
    const bytes = text === 'off' ? undefined : parseCapacity(text);
    device.setCapacity(bytes);
    console.log(`mch-device: capacity ${bytes === undefined ? 'off' : `${bytes} bytes`}`);
  } catch (error) {
    if (!(error instanceof CapacityError)) throw error;
    console.error(`mch-device: capacity ${error.message}`);
  }
}
