// The profile's settings.json: where to connect and who is signed in; never a token (those are in the secret store).
import { join } from 'node:path';
import { z } from 'zod';
import { ProfileError } from './profile-errors.ts';
import { readOptionalFile, restrictFileMode, writePrivateFileAtomic } from './private-file.ts';

export const SETTINGS_FILE = 'settings.json';

export type SecretStoreKind = 'keychain' | 'file';

export interface SignedInUser {
  /** The token's `sub`, e.g. `auth0|0123456789abcdef01234567`. */
  id: string;
  name: string;
  email?: string;
}

export interface ChosenDevice {
  id: string;
  name: string;
  /** The device base URL that answered last (device-api.md §1); absent when none did. */
  url?: string;
  /** Every address the device record gave, best first (home, then the relay), so a run can switch between them. */
  addresses?: DeviceAddressRecord[];
}

export interface DeviceAddressRecord {
  via: 'home' | 'relay';
  url: string;
}

export interface ProfileSettings {
  /** The configuration service given at login; kept after logout so the next login may leave it out. */
  configUrl?: string;
  /** Present while signed in. */
  user?: SignedInUser;
  /** Where this sign-in's tokens are, fixed at login so a later run never looks in the wrong place. */
  secretStore?: SecretStoreKind;
  device?: ChosenDevice;
  /** Upload and download limits of every pair of the profile together; absent: no limit (`mch-sync limits`). */
  limits?: BandwidthLimitSettings;
  /** A proxy set by hand (`mch-sync proxy --set`); it wins over the environment's and the system's. */
  proxy?: ManualProxySetting;
}

/** The manual proxy: where it is and who to be; its password is in the secret store, never here. */
export interface ManualProxySetting {
  /** `http://host:port`, without credentials. */
  url: string;
  user?: string;
  /** Where the password is kept, when there is one (chosen when it was set, like the tokens' store). */
  passwordStore?: SecretStoreKind;
}

/** Bytes per second; a direction without a number has no limit. */
export interface BandwidthLimitSettings {
  upBytesPerSec?: number;
  downBytesPerSec?: number;
}

// Loose objects: later parts of the client add their own keys, and a rewrite must not drop them.
const settingsSchema = z.looseObject({
  version: z.literal(1),
  configUrl: z.string().optional(),
  user: z.object({ id: z.string(), name: z.string(), email: z.string().optional() }).optional(),
  secretStore: z.enum(['keychain', 'file']).optional(),
  device: z
    .object({
      id: z.string(),
      name: z.string(),
      url: z.string().optional(),
      addresses: z.array(z.object({ via: z.enum(['home', 'relay']), url: z.string() })).optional(),
    })
    .optional(),
  limits: z
    .object({
      upBytesPerSec: z.number().int().positive().optional(),
      downBytesPerSec: z.number().int().positive().optional(),
    })
    .optional(),
  proxy: z
    .object({
      url: z.string(),
      user: z.string().optional(),
      passwordStore: z.enum(['keychain', 'file']).optional(),
    })
    .optional(),
});
type StoredSettings = z.infer<typeof settingsSchema>;

/** Reads and writes one profile's settings; construct it once per profile folder. */
export class SettingsFile {
  readonly profileDir: string;
  readonly path: string;

  constructor(profileDir: string) {
    this.profileDir = profileDir;
    this.path = join(profileDir, SETTINGS_FILE);
  }

  /** The settings, or empty ones when the profile is new. */
  async read(): Promise<ProfileSettings> {
    return toSettings(await this.readStored());
  }

  /** Applies `change` to the current settings and writes the result atomically (mode 0600). */
  async update(change: (current: ProfileSettings) => ProfileSettings): Promise<ProfileSettings> {
    const stored = await this.readStored();
    const next = change(toSettings(stored));
    const { configUrl, user, secretStore, device } = next;
    // Known keys are replaced as a whole (undefined removes them); unknown keys are carried over.
    const written: StoredSettings = { ...stored, version: 1, configUrl, user, secretStore, device };
    written.limits = next.limits;
    written.proxy = next.proxy;
    await writePrivateFileAtomic(this.path, `${JSON.stringify(written, null, 2)}\n`);
    return next;
  }

  private async readStored(): Promise<StoredSettings> {
    let text: string | undefined;
    try {
      text = await readOptionalFile(this.path);
      if (text !== undefined) await restrictFileMode(this.path);
    } catch (error) {
      throw new ProfileError(
        `Cannot read ${this.path} (${(error as Error).message}): check the folder's permissions or pick another with --profile.`,
        { cause: error },
      );
    }
    if (text === undefined) return { version: 1 };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw this.invalid('it is not JSON', error);
    }
    const result = settingsSchema.safeParse(parsed);
    if (!result.success) throw this.invalid(z.prettifyError(result.error).replace(/\n/g, ' '), result.error);
    return result.data;
  }

  private invalid(reason: string, cause: unknown): ProfileError {
    return new ProfileError(
      `${this.path} is not valid (${reason}): fix it, or delete it and run \`mch-sync login\` again.`,
      { cause },
    );
  }
}

function toSettings(stored: StoredSettings): ProfileSettings {
  const settings: ProfileSettings = {};
  if (stored.configUrl !== undefined) settings.configUrl = stored.configUrl;
  if (stored.user !== undefined) {
    const { id, name, email } = stored.user;
    settings.user = email === undefined ? { id, name } : { id, name, email };
  }
  if (stored.secretStore !== undefined) settings.secretStore = stored.secretStore;
  if (stored.device !== undefined) {
    const { id, name, url, addresses } = stored.device;
    settings.device = { id, name };
    if (url !== undefined) settings.device.url = url;
    if (addresses !== undefined) settings.device.addresses = addresses;
  }
  if (stored.limits !== undefined) {
    const { upBytesPerSec: up, downBytesPerSec: down } = stored.limits;
    settings.limits = {};
    if (up !== undefined) settings.limits.upBytesPerSec = up;
    if (down !== undefined) settings.limits.downBytesPerSec = down;
  }
  if (stored.proxy !== undefined) {
    const { url, user, passwordStore } = stored.proxy;
    settings.proxy = { url };
    if (user !== undefined) settings.proxy.user = user;
    if (passwordStore !== undefined) settings.proxy.passwordStore = passwordStore;
  }
  return settings;
}
