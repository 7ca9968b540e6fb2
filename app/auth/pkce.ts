// PKCE (RFC 7636, S256) and the `state` value of an authorization request.
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  /** 64 characters of base64url: within RFC 7636's 43 to 128 of the unreserved set. */
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** A fresh verifier (384 random bits) and its S256 challenge. */
export function createPkcePair(): PkcePair {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier), method: 'S256' };
}

/** BASE64URL(SHA256(ASCII(verifier))), without padding (RFC 7636 §4.2). */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** An unguessable value tying the browser's answer to the request this process made (RFC 6749 §10.12). */
export function createState(): string {
  return randomBytes(32).toString('base64url');
}
