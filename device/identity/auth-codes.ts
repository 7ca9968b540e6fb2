// One-time authorization codes of the code + PKCE flow, stored only as hashes (RFC 6749 §4.1.2).
import type { Db } from '../db/database.ts';
import { hashSecret, newSecret } from './secrets.ts';

// RFC 6749 §4.1.2 recommends at most ten minutes; the browser hands the code over within seconds.
export const CODE_LIFETIME_MS = 60_000;

/** What a code was issued for; the token request must match all of it. */
export interface CodeGrant {
  userId: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string;
}

interface AuthCodeRow {
  code_hash: string;
  user_id: string;
  client_id: string;
  redirect_uri: string;
  scope: string;
  code_challenge: string;
  expires_at: number;
}

export class AuthCodeStore {
  readonly #db: Db;
  readonly #now: () => number;

  constructor(db: Db, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** A new code for `grant`; it works once, within CODE_LIFETIME_MS. */
  create(grant: CodeGrant): string {
    const code = newSecret();
    const now = this.#now();
    this.#db.transaction(() => {
      // Expired codes are swept here, so the table stays as small as the sign-ins of the last minute.
      this.#db.prepare('DELETE FROM auth_codes WHERE expires_at <= ?').run(now);
      this.#db
        .prepare(
          `INSERT INTO auth_codes (code_hash, user_id, client_id, redirect_uri, scope, code_challenge, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          hashSecret(code),
          grant.userId,
          grant.clientId,
          grant.redirectUri,
          grant.scope,
          grant.codeChallenge,
          now + CODE_LIFETIME_MS,
        );
    })();
    return code;
  }

  /**
   * The grant of a live code, or undefined. The code is used up by being presented at all, even if the
   * rest of the token request then fails: a code is never worth a second try (RFC 6749 §4.1.2).
   */
  consume(code: string): CodeGrant | undefined {
    const row = this.#db
      .prepare<[string], AuthCodeRow>('DELETE FROM auth_codes WHERE code_hash = ? RETURNING *')
      .get(hashSecret(code));
    if (!row || row.expires_at <= this.#now()) return undefined;
    return {
      userId: row.user_id,
      clientId: row.client_id,
      redirectUri: row.redirect_uri,
      scope: row.scope,
      codeChallenge: row.code_challenge,
    };
  }
}
