// The tokens of one sign-in, kept as one JSON secret in the secret store under an account per profile and user.
import { z } from 'zod';
import { SignInRequiredError } from './auth-errors.ts';
import type { SecretStore } from './secrets/secret-store-contract.ts';

/** What is kept of a sign-in. The id token is not: nothing reads it after login. */
export interface StoredTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Epoch milliseconds when the access token was received; with `expiresAt` it gives the lifetime. */
  obtainedAt: number;
  scope: string;
}

const storedTokensSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
  expiresAt: z.number(),
  obtainedAt: z.number(),
  scope: z.string(),
});

/**
 * The keychain account of a sign-in: the profile folder and the user id, so two profiles (or two
 * users one after the other) never overwrite each other's tokens.
 */
export function tokenAccount(profileDir: string, userId: string): string {
  return `${userId} ${profileDir}`;
}

export class TokenVault {
  readonly store: SecretStore;
  readonly account: string;

  constructor(store: SecretStore, account: string) {
    this.store = store;
    this.account = account;
  }

  /** The stored tokens, or undefined when there are none (signed out, or deleted from the keychain). */
  async load(): Promise<StoredTokens | undefined> {
    const text = await this.store.get(this.account);
    if (text === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const result = storedTokensSchema.safeParse(parsed);
    if (!result.success) {
      // Never quote the secret itself in the message: it may be a token.
      throw new SignInRequiredError(
        `The stored sign-in in ${this.store.location} is damaged: run \`mch-sync login\` again.`,
      );
    }
    const { refreshToken, ...rest } = result.data;
    return refreshToken === undefined ? rest : { ...rest, refreshToken };
  }

  async save(tokens: StoredTokens): Promise<void> {
    await this.store.set(this.account, JSON.stringify(tokens));
  }

  async delete(): Promise<void> {
    await this.store.delete(this.account);
  }
}
