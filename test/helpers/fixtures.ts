// Shared vitest fixtures: a local device and a profile signed in to it per file; a temporary folder and sync pairs per test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from 'vitest';
import { startTestDevice, type TestDevice, type TestDeviceOptions } from './device.ts';
import { signedInProfile, type SignedInProfile } from './signed-in-profile.ts';
import { LivePair, type LivePairOptions } from './live-pair.ts';
import { SyncPair, type PairOptions } from './sync-pair.ts';

/** Makes a SyncPair against the file's device; the fixture closes every pair it made after the test. */
export type NewPair = (options?: PairOptions) => SyncPair;

/** Makes a LivePair (a pair and its live service) against the file's device; each is closed after the test. */
export type NewLivePair = (options?: LivePairOptions) => LivePair;

/** Fixtures set up once per test file, on first use, and torn down after the file's last test. */
export interface FileFixtures {
  /** How the file's device is started; a file changes it with `test.override({ deviceOptions: … })`. */
  deviceOptions: TestDeviceOptions;
  /** The real local device on a free loopback port, with a temporary data folder. */
  device: TestDevice;
  /** `alice` signed in to `device` through the real `mch-sync login`, in a temporary HOME. */
  profile: SignedInProfile;
}

/** Fixtures set up for each test that uses them, and torn down after it. */
export interface TestFixtures {
  /** A new empty folder under the system's temporary folder, removed after the test. */
  tempDir: string;
  /** A new SyncPair (local folder, index, engine) against `device`; every pair is closed after the test. */
  newPair: NewPair;
  /** A new LivePair against `device`; every live pair is closed after the test. */
  newLivePair: NewLivePair;
}

export const test = base
  .extend('deviceOptions', { scope: 'file' }, {} as FileFixtures['deviceOptions'])
  .extend(
    'device',
    { scope: 'file' },
    async ({ deviceOptions }, { onCleanup }): Promise<FileFixtures['device']> => {
      const device = await startTestDevice(deviceOptions);
      onCleanup(() => device.stop());
      return device;
    },
  )
  .extend(
    'profile',
    { scope: 'file' },
    async ({ device }, { onCleanup }): Promise<FileFixtures['profile']> => {
      const profile = await signedInProfile(device, 'mch-test-profile-');
      onCleanup(() => profile.remove());
      return profile;
    },
  )
  // eslint-disable-next-line no-empty-pattern -- vitest reads what a fixture needs from this pattern
  .extend('tempDir', ({}, { onCleanup }): TestFixtures['tempDir'] => {
    const dir = mkdtempSync(join(tmpdir(), 'mch-test-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  })
  .extend('newPair', ({ device }, { onCleanup }): TestFixtures['newPair'] => {
    const pairs: SyncPair[] = [];
    onCleanup(() => {
      for (const pair of pairs.splice(0)) pair.close();
    });
    return (options) => {
      const pair = new SyncPair(device, options);
      pairs.push(pair);
      return pair;
    };
  })
  .extend('newLivePair', ({ device }, { onCleanup }): TestFixtures['newLivePair'] => {
    const pairs: LivePair[] = [];
    onCleanup(async () => {
      for (const pair of pairs.splice(0)) await pair.close();
    });
    return (options) => {
      const pair = new LivePair(device, options);
      pairs.push(pair);
      return pair;
    };
  });

/** The same test API under the name most files use. */
export const it = test;
