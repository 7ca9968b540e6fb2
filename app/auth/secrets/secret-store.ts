// Where tokens are kept: the OS keychain when one works, else a private file in the profile (with a warning).
import type { SecretStoreKind } from '../../profile/settings.ts';
import type { SecretStore } from './secret-store-contract.ts';
import { SecretStoreError } from '../auth-errors.ts';
import { FileSecretStore } from './file-secret-store.ts';
import { KeychainSecretStore, probeKeychain, systemKeychain, type KeytarApi } from './keychain-store.ts';

export type { SecretStore } from './secret-store-contract.ts';

/** The variable that forces one store: `file` or `keychain`. */
export const SECRET_STORE_VARIABLE = 'MCH_SECRET_STORE';

export interface OpenSecretStoreOptions {
  profileDir: string;
  /**
   * The store recorded in the profile at login. When given it is the only place looked at, so a
   * keychain that is down for a moment fails clearly instead of falling back to an empty file.
   */
  recorded?: SecretStoreKind | undefined;
  env?: NodeJS.ProcessEnv;
  /** The keychain to use; the system's by default (tests pass an in-memory one). */
  keychain?: KeytarApi;
  /** Receives the warnings meant for people (the CLI prints them on stderr). */
  warn: (message: string) => void;
  probeTimeoutMs?: number;
}

/** Reads `MCH_SECRET_STORE`; unset or empty means "choose". */
export function forcedSecretStore(env: NodeJS.ProcessEnv): SecretStoreKind | undefined {
  const value = env[SECRET_STORE_VARIABLE];
  if (value === undefined || value === '') return undefined;
  if (value === 'file' || value === 'keychain') return value;
  throw new SecretStoreError(
    'SECRET_STORE_UNAVAILABLE',
    `${SECRET_STORE_VARIABLE} is "${value}": set it to "keychain" or "file", or unset it to let mch-sync choose.`,
  );
}

/**
 * The store for this run. With `recorded` (every run after login) that store, as is. Without (login):
 * the forced one, else the keychain when a set/get/delete round trip works, else the file.
 */
export async function openSecretStore(options: OpenSecretStoreOptions): Promise<SecretStore> {
  const env = options.env ?? process.env;
  const forced = forcedSecretStore(env);
  const keychain = (): KeychainSecretStore =>
    new KeychainSecretStore(options.keychain ?? systemKeychain(), options.recorded === undefined);
  const file = (): Promise<FileSecretStore> => FileSecretStore.open(options.profileDir, options.warn);

  if (options.recorded !== undefined) {
    if (forced !== undefined && forced !== options.recorded) {
      options.warn(
        `${SECRET_STORE_VARIABLE}=${forced} is ignored: this profile keeps its tokens in the ${options.recorded === 'keychain' ? 'system keychain' : 'secrets file'}. ` +
          'To move them, run `mch-sync logout` and then `mch-sync login` again with the variable set.',
      );
    }
    return options.recorded === 'keychain' ? keychain() : file();
  }

  if (forced === 'file') {
    const store = await file();
    options.warn(
      `tokens will be kept in ${store.location} because ${SECRET_STORE_VARIABLE}=file: the file is readable ` +
        'only by you (mode 0600) but not encrypted, so anyone with your account or a copy of the file can use ' +
        `your sign-in. Unset ${SECRET_STORE_VARIABLE} to use the system keychain.`,
    );
    return store;
  }
  const probe = await probeKeychain(options.keychain ?? systemKeychain(), options.probeTimeoutMs);
  if (probe.ok) return keychain();
  if (forced === 'keychain') {
    throw new SecretStoreError(
      'SECRET_STORE_UNAVAILABLE',
      `The system keychain does not work here (${probe.reason}), and ${SECRET_STORE_VARIABLE}=keychain asks for it: ` +
        `start or unlock it (on Linux: a Secret Service such as gnome-keyring on the session D-Bus), or unset ${SECRET_STORE_VARIABLE} to fall back to a file.`,
    );
  }
  const store = await file();
  options.warn(
    `no system keychain works here (${probe.reason}), so tokens will be kept in ${store.location}: ` +
      'readable only by you (mode 0600) but not encrypted. To use a keychain instead, start one (on Linux: ' +
      'gnome-keyring or another Secret Service on the session D-Bus) and sign in again.',
  );
  return store;
}
