// Proof Key for Code Exchange with the S256 method only (RFC 7636); `plain` would let a stolen code through.
import { createHash, timingSafeEqual } from 'node:crypto';

export const PKCE_METHOD = 'S256';

/** An S256 challenge is the base64url SHA-256 of the verifier: always 43 characters (RFC 7636 §4.2). */
export function isWellFormedChallenge(challenge: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(challenge);
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export function isWellFormedVerifier(verifier: string): boolean {
  return /^[A-Za-z0-9._~-]{43,128}$/.test(verifier);
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
