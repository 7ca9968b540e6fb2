// Starts the real local device on a free loopback port with a temporary data folder, for tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevice, type DeviceOptions, type RunningDevice } from '../../device/server.ts';
import { issueAccessToken } from '../../device/identity/tokens.ts';
import { DESKTOP_CLIENT_ID } from '../../common/wire/identity.ts';

export const FULL_SCOPE = 'openid email profile offline_access nas_read_write';

export interface TestDevice {
  running: RunningDevice;
  dataDir: string;
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  /** base + /sdk */
  sdk: string;
  /** An access token minted with the device's real signing key, without the sign-in flow. */
  tokenFor(userName?: string, scope?: string): string;
  /** fetch against the device with the user's bearer token; `path` is relative to `base`. */
  fetchAs(userName: string, path: string, init?: RequestInit): Promise<Response>;
  /**
   * With `home`/`relay` options, takes that address down (refused, open connections cut) or brings it
   * back on the same port.
   */
  setAddress(name: 'home' | 'relay', state: 'up' | 'down'): Promise<void>;
  /** A new capacity in bytes (`capacityBytes` option; undefined: the file system's), e.g. to free space. */
  setCapacity(bytes: number | undefined): void;
  /** Stops the server; with `keepData`, leaves the data folder for a restart. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export type TestDeviceOptions = Partial<DeviceOptions>;

export async function startTestDevice(options: TestDeviceOptions = {}): Promise<TestDevice> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'mch-device-test-'));
  const running = await startDevice({
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    users: [
      { name: 'alice', password: 'alice-password' },
      { name: 'bob', password: 'bob-password' },
    ],
    ...options,
    dataDir,
  });
  const base = running.urls.base;
  const tokenFor = (userName = 'alice', scope = FULL_SCOPE): string => {
    const user = running.context.users.byName(userName);
    if (!user) throw new Error(`no test user ${userName}`);
    return issueAccessToken(running.context.signer, {
      issuer: running.urls.identity,
      clientId: DESKTOP_CLIENT_ID,
      userId: user.id,
      scope,
      ttlSeconds: 3600,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
  };
  return {
    running,
    dataDir,
    base,
    sdk: `${base}/sdk`,
    tokenFor,
    fetchAs: (userName, path, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${tokenFor(userName)}`);
      return fetch(`${base}${path}`, { ...init, headers });
    },
    setAddress: (name, state) => running.setAddress(name, state),
    setCapacity: (bytes) => running.setCapacity(bytes),
    stop: async ({ keepData = false } = {}) => {
      await running.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` against a fresh device and always stops it and removes its data folder. */
export async function withDevice<T>(
  fn: (device: TestDevice) => Promise<T>,
  options?: TestDeviceOptions,
): Promise<T> {
  const device = await startTestDevice(options);
  try {
    return await fn(device);
  } finally {
    await device.stop();
  }
}
