// The OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on Linux) through @napi-rs/keyring.
import { randomBytes } from 'node:crypto';
import { AsyncEntry } from '@napi-rs/keyring';
import { formatDuration } from '../../../common/units.ts';
import { SecretStoreError } from '../auth-errors.ts';
import type { SecretStore } from './secret-store-contract.ts';

/** The keychain's service name; the account names the profile and the user (see `tokenAccount`). */
export const KEYCHAIN_SERVICE = 'mch-sync';

/** The keytar shape (service, account, password), which @napi-rs/keyring's `keytar.js` also offers. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/**
 * The system keychain with the keytar API. Not `@napi-rs/keyring/keytar.js` itself, because that
 * cannot pass entry options: on Linux its default falls back to the kernel keyring when no Secret
 * Service runs, and the kernel's session keyring is emptied at logout, so tokens would vanish
 * between sessions after a probe that succeeded. Pinned to the Secret Service, a missing one fails
 * the probe and the file store (which persists) is used instead.
 */
export function systemKeychain(): KeytarApi {
  const entry = (service: string, account: string): AsyncEntry =>
    new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  return {
    getPassword: (service, account) => entry(service, account).getPassword(),
    setPassword: (service, account, password) => entry(service, account).setPassword(password),
    deletePassword: (service, account) => entry(service, account).deletePassword(),
  };
}

export type ProbeResult = { ok: true } | { ok: false; reason: string };

/**
 * Whether the keychain works: a set, get and delete of a throwaway entry. The time limit is for a
 * Secret Service that never answers; a locked keychain asking for its password gets the full time.
 */
export async function probeKeychain(keychain: KeytarApi, timeoutMs = 15_000): Promise<ProbeResult> {
  const account = `probe-${randomBytes(8).toString('hex')}`;
  const value = randomBytes(16).toString('hex');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ProbeResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `no answer within ${formatDuration(timeoutMs / 1000)}` }),
      timeoutMs,
    );
  });
  const roundTrip = async (): Promise<ProbeResult> => {
    try {
      await keychain.setPassword(KEYCHAIN_SERVICE, account, value);
      const read = await keychain.getPassword(KEYCHAIN_SERVICE, account);
      await keychain.deletePassword(KEYCHAIN_SERVICE, account);
      return read === value ? { ok: true } : { ok: false, reason: 'it did not return what was stored' };
    } catch (error) {
      return { ok: false, reason: describeKeychainError(error) };
    }
  };
  try {
    return await Promise.race([roundTrip(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function describeKeychainError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly location = `the system keychain (service ${KEYCHAIN_SERVICE})`;
  readonly #keychain: KeytarApi;
  /** Whether the keychain was just probed; if not, a failure means one that worked at login is down now. */
  readonly #probed: boolean;

  constructor(keychain: KeytarApi, probed: boolean) {
    this.#keychain = keychain;
    this.#probed = probed;
  }

  async get(account: string): Promise<string | undefined> {
    return (await this.#call(() => this.#keychain.getPassword(KEYCHAIN_SERVICE, account))) ?? undefined;
  }

  async set(account: string, secret: string): Promise<void> {
    await this.#call(() => this.#keychain.setPassword(KEYCHAIN_SERVICE, account, secret));
  }

  async delete(account: string): Promise<void> {
    await this.#call(() => this.#keychain.deletePassword(KEYCHAIN_SERVICE, account));
  }

  async #call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      const when = this.#probed ? 'does not work' : "holds this profile's tokens but cannot be reached now";
      throw new SecretStoreError(
        'SECRET_STORE_UNAVAILABLE',
        `The system keychain ${when} (${describeKeychainError(error)}): start or unlock it (on Linux: a ` +
          'Secret Service such as gnome-keyring on the session D-Bus) and try again, or run `mch-sync login` ' +
          'again to keep the tokens in a file instead.',
        { cause: error },
      );
    }
  }
}
