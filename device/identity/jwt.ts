// Compact HS256 JSON Web Tokens, signed with a key kept in the data folder so tokens survive a restart.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
/** Tokens verified lately, kept by their text: a client sends the same one with every request. */
const VERIFIED_CACHE_SIZE = 256;

/** Reads the signing key from `dataDir`, creating it (mode 0600) on first start. */
export function loadSigningKey(dataDir: string): Buffer {
  const path = join(dataDir, 'signing-key');
  if (!existsSync(path)) {
    writeFileSync(path, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(path, 0o600);
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length < 32)
    throw new Error(`The signing key in ${path} is too short; delete it to make a new one.`);
  return key;
}

export class JwtSigner {
  readonly #key: Buffer;
  /**
   * Valid tokens checked lately and their claims (frozen). A token's text fixes its signature check and
   * its claims, so a second check of the same text can only give the same answer; expiry stays the
   * caller's check, made every time.
   */
  readonly #verified = new Map<string, Readonly<Record<string, unknown>>>();

  constructor(key: Buffer) {
    this.#key = key;
  }

  sign(claims: Record<string, unknown>): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${HEADER}.${payload}.${this.#mac(`${HEADER}.${payload}`)}`;
  }

  /** The claims of a well-formed token with a valid signature, else null. Expiry is the caller's check. */
  verify(token: string): Readonly<Record<string, unknown>> | null {
    const known = this.#verified.get(token);
    if (known) return known;
    const claims = this.#check(token);
    if (claims) {
      if (this.#verified.size >= VERIFIED_CACHE_SIZE) this.#verified.clear();
      this.#verified.set(token, Object.freeze(claims));
    }
    return claims;
  }

  #check(token: string): Record<string, unknown> | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [header, payload, signature] = parts as [string, string, string];
    if (header !== HEADER) return null;
    const expected = Buffer.from(this.#mac(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
        ? (claims as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }

  #mac(input: string): string {
    return createHmac('sha256', this.#key).update(input).digest('base64url');
  }
}
