// What every secret store offers (the keychain, the 0600 file): a leaf, so the stores and their opener import one way.
import type { SecretStoreKind } from '../../profile/settings.ts';

export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** For people: "the system keychain (service mch-sync)" or the secrets file's path. */
  readonly location: string;
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  /** Removes the secret; nothing to remove is not an error. */
  delete(account: string): Promise<void>;
}
