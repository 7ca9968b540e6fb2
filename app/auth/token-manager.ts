// Gives requests a valid access token: refreshes a little before expiry or after a 401, one refresh at a time.
import { MchError } from '../../common/errors.ts';
import type { TokenSet } from '../api/cloud/identity-client.ts';
import type { AccessTokenProvider } from '../api/http/transport.ts';
import { SignInRequiredError } from './auth-errors.ts';
import type { StoredTokens, TokenVault } from './token-vault.ts';

/** The part of the identity client the manager uses. */
export interface TokenRefresher {
  refresh(request: { refreshToken: string; scope?: string }): Promise<TokenSet>;
}

export interface TokenManagerOptions {
  identity: TokenRefresher;
  vault: TokenVault;
  now?: () => number;
  /** What people should do when only a new sign-in helps; ends the SIGN_IN_REQUIRED message. */
  signInAdvice?: string;
  /** Told when a refreshed token could not be saved (it is still used for this run). */
  warn?: (message: string) => void;
}

/** Refresh this long before expiry at most; short-lived tokens (tests) refresh at 90 % of their life. */
const MAX_REFRESH_MARGIN_MS = 60_000;

/** The stored form of a fresh token answer; a refresh answer without a refresh token keeps the old one. */
export function storedTokensFrom(tokens: TokenSet, now: number, previous?: StoredTokens): StoredTokens {
  const refreshToken = tokens.refreshToken ?? previous?.refreshToken;
  return {
    accessToken: tokens.accessToken,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    expiresAt: tokens.expiresAt,
    obtainedAt: now,
    scope: tokens.scope,
  };
}

export class TokenManager implements AccessTokenProvider {
  readonly #identity: TokenRefresher;
  readonly #vault: TokenVault;
  readonly #now: () => number;
  readonly #advice: string;
  readonly #warn: (message: string) => void;
  #tokens: StoredTokens | undefined;
  /** The refresh in flight; every caller that needs one while it runs waits for this same one. */
  #refreshing: Promise<StoredTokens> | undefined;

  constructor(options: TokenManagerOptions) {
    this.#identity = options.identity;
    this.#vault = options.vault;
    this.#now = options.now ?? Date.now;
    this.#advice = options.signInAdvice ?? 'run `mch-sync login`';
    this.#warn = options.warn ?? (() => undefined);
  }

  async accessToken(): Promise<string> {
    const tokens = await this.#current();
    if (!this.#isDue(tokens)) return tokens.accessToken;
    return (await this.#refresh(tokens.accessToken)).accessToken;
  }

  async refreshAfterUnauthorized(rejected: string): Promise<string> {
    const tokens = await this.#current();
    // Another caller refreshed since this one took its token: that newer one has not been refused.
    if (tokens.accessToken !== rejected) return tokens.accessToken;
    return (await this.#refresh(rejected)).accessToken;
  }

  /** The current tokens (refreshed first if due), for showing when the sign-in expires. */
  async tokens(): Promise<Readonly<StoredTokens>> {
    await this.accessToken();
    return this.#current();
  }

  #isDue(tokens: StoredTokens): boolean {
    const lifetime = Math.max(0, tokens.expiresAt - tokens.obtainedAt);
    const margin = Math.min(MAX_REFRESH_MARGIN_MS, lifetime / 10);
    return this.#now() >= tokens.expiresAt - margin;
  }

  async #current(): Promise<StoredTokens> {
    if (this.#tokens) return this.#tokens;
    const loaded = await this.#vault.load();
    if (!loaded) {
      throw new SignInRequiredError(
        `No sign-in is stored in ${this.#vault.store.location}: ${this.#advice}.`,
      );
    }
    this.#tokens = loaded;
    return loaded;
  }

  #refresh(stale: string): Promise<StoredTokens> {
    this.#refreshing ??= this.#doRefresh(stale).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #doRefresh(stale: string): Promise<StoredTokens> {
    // Another process using this profile (the tray app and the CLI) may have refreshed already.
    const stored = (await this.#vault.load()) ?? this.#tokens;
    if (!stored) throw new SignInRequiredError(`The sign-in was removed: ${this.#advice}.`);
    if (stored.accessToken !== stale && !this.#isDue(stored)) {
      this.#tokens = stored;
      return stored;
    }
    if (stored.refreshToken === undefined) {
      throw new SignInRequiredError(
        `The sign-in has expired and was made without a refresh token, so it cannot be renewed: ${this.#advice}.`,
      );
    }
    let answer: TokenSet;
    try {
      answer = await this.#identity.refresh({ refreshToken: stored.refreshToken });
    } catch (error) {
      if (
        error instanceof MchError &&
        (error.code === 'AUTH_REQUIRED' || error.code === 'AUTH_INVALID_CREDENTIALS')
      ) {
        throw new SignInRequiredError(
          `The sign-in is no longer valid (it was signed out elsewhere or revoked): ${this.#advice}.`,
          { cause: error },
        );
      }
      throw error;
    }
    const next = storedTokensFrom(answer, this.#now(), stored);
    this.#tokens = next;
    try {
      await this.#vault.save(next);
    } catch (error) {
      this.#warn(
        `The renewed sign-in could not be saved (${(error as Error).message}); it is used until mch-sync stops.`,
      );
    }
    return next;
  }
}
