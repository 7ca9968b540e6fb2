// Refresh tokens, stored only as SHA-256 hashes; they do not expire and last until revoked (as Auth0's).
import type { Db } from '../db/database.ts';
import { hashSecret, newSecret } from './secrets.ts';

export interface RefreshGrant {
  userId: string;
  clientId: string;
  scope: string;
}

interface RefreshTokenRow {
  user_id: string;
  client_id: string;
  scope: string;
}

export class RefreshTokenStore {
  readonly #db: Db;
  readonly #now: () => number;

  constructor(db: Db, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  issue(grant: RefreshGrant): string {
    const token = newSecret();
    this.#db
      .prepare(
        `INSERT INTO refresh_tokens (token_hash, user_id, client_id, scope, created_on)
         VALUES (?, ?, ?, ?, ?)`,
      )
      .run(hashSecret(token), grant.userId, grant.clientId, grant.scope, this.#now());
    return token;
  }

  /** The grant of a token that exists and is not revoked, else undefined. */
  find(token: string): RefreshGrant | undefined {
    const row = this.#db
      .prepare<[string], RefreshTokenRow>(
        'SELECT user_id, client_id, scope FROM refresh_tokens WHERE token_hash = ? AND revoked_on IS NULL',
      )
      .get(hashSecret(token));
    return row && { userId: row.user_id, clientId: row.client_id, scope: row.scope };
  }

  /** Revokes the token if it was issued to `clientId`; unknown tokens are no error (RFC 7009 §2.2). */
  revoke(token: string, clientId: string): void {
    this.#db
      .prepare(
        'UPDATE refresh_tokens SET revoked_on = ? WHERE token_hash = ? AND client_id = ? AND revoked_on IS NULL',
      )
      .run(this.#now(), hashSecret(token), clientId);
  }
}
