// Issue 26's second process on a synced folder: another profile or a symlinked path, in this process or a real `mch-sync run`, must be refused while the first syncs it.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { lockSyncedFolder, type SyncedFolderLock } from '../../../app/profile/folder-lock.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { runMchSync } from '../../helpers/mch-sync.ts';
import { signedInProfile, type SignedInProfile } from '../../helpers/signed-in-profile.ts';
import type { Violation } from './invariants.ts';
import type { SecondPlan } from './soak-plans.ts';

/** Two profiles signed in to the device, for every seed of a run whose second process is a child. */
const profilesOf = new WeakMap<TestDevice, Promise<[SignedInProfile, SignedInProfile]>>();

function signedInProfiles(device: TestDevice): Promise<[SignedInProfile, SignedInProfile]> {
  let profiles = profilesOf.get(device);
  if (profiles === undefined) {
    profiles = Promise.all([
      signedInProfile(device, 'mch-soak-first-'),
      signedInProfile(device, 'mch-soak-second-'),
    ]);
    profilesOf.set(device, profiles);
  }
  return profiles;
}

/** Removes the profiles signed in to `device` for second processes (before the device stops). */
export async function removeSignedInProfiles(device: TestDevice): Promise<void> {
  const profiles = profilesOf.get(device);
  profilesOf.delete(device);
  for (const profile of (await profiles?.catch(() => undefined)) ?? []) profile.remove();
}

export class SecondProcess {
  readonly plan: SecondPlan;
  readonly violations: Violation[] = [];
  /** Whether the second process has tried (the pass may end before its request `at`). */
  tried = false;
  readonly #root: string;
  readonly #link: string;
  readonly #remoteFolder: string;
  readonly #device: TestDevice;
  /** The profiles of the first process and of another: plain folders, or signed in for a child. */
  #profiles: [string, string] | undefined;
  /** The environments of the signed-in profiles (HOME, the secret store), for a child. */
  #envs: [NodeJS.ProcessEnv, NodeJS.ProcessEnv] | undefined;

  constructor(plan: SecondPlan, work: string, root: string, remoteFolder: string, device: TestDevice) {
    this.plan = plan;
    this.#root = root;
    this.#link = join(work, 'link-to-local');
    this.#remoteFolder = remoteFolder;
    this.#device = device;
    symlinkSync(root, this.#link);
  }

  /** Before the first process starts: the profiles (a child needs them signed in). */
  async prepare(work: string): Promise<void> {
    if (this.plan.child) {
      const [first, second] = await signedInProfiles(this.#device);
      this.#profiles = [first.profile, second.profile];
      this.#envs = [first.env, second.env];
      return;
    }
    const profiles: [string, string] = [join(work, 'profile-first'), join(work, 'profile-second')];
    for (const profile of profiles) mkdirSync(profile, { recursive: true });
    this.#profiles = profiles;
  }

  /** The first process's locks, taken as `mch-sync run` takes them before its passes. */
  lockFirst(): SyncedFolderLock {
    return lockSyncedFolder(this.#first, this.#root);
  }

  get #first(): string {
    return this.#profiles?.[0] ?? '';
  }

  /** The second process's profile and path for the folder. */
  get #way(): { profile: string; path: string } {
    const other = this.plan.via === 'symlink' ? this.#first : (this.#profiles?.[1] ?? '');
    return { profile: other, path: this.plan.via === 'profile' ? this.#root : this.#link };
  }

  /** The try, while the first process holds the folder: refused as FOLDER_BUSY, nothing done. */
  async attempt(): Promise<void> {
    if (this.tried) return;
    this.tried = true;
    const { profile, path } = this.#way;
    const how = `${this.plan.child ? 'mch-sync run' : 'a second engine'} with ${profile === this.#first ? 'the same profile' : 'another profile'} through ${path === this.#root ? 'the same path' : 'a symlink'}`;
    if (!this.plan.child) {
      try {
        const lock = lockSyncedFolder(profile, path);
        lock.release();
        this.violations.push({
          code: 'second-process',
          message: `${how} took the folder's locks while the first held them`,
        });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code !== 'FOLDER_BUSY')
          this.violations.push({
            code: 'second-process',
            message: `${how} was refused as ${String(code)}, not FOLDER_BUSY`,
          });
      }
      return;
    }
    const args = [
      '--profile',
      profile,
      'run',
      '--folder',
      path,
      '--remote-folder',
      this.#remoteFolder,
      '--once',
    ];
    const env = this.#envs?.[profile === this.#first ? 0 : 1];
    const run = await runMchSync(args, { ...(env === undefined ? {} : { env }), timeoutMs: 30_000 });
    const said = `${run.stdout}\n${run.stderr}`;
    // The refusal names the run that holds the folder (FolderLockError FOLDER_BUSY's message).
    if (run.code === 0 || !/FOLDER_BUSY|busy|Another mch-sync run/i.test(said)) {
      this.violations.push({
        code: 'second-process',
        message: `${how} exited ${String(run.code)} without saying the folder is busy: ${said.trim().split('\n').slice(0, 3).join(' / ')}`,
      });
    }
  }

  remove(): void {
    rmSync(this.#link, { force: true });
  }
}
