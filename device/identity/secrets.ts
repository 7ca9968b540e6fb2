// Random one-time secrets (codes, refresh tokens) and the hashes under which the device stores them.
import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: unguessable, and safe in a URL query without escaping. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

// A plain SHA-256 is enough: the secrets are random 256-bit values, so there is nothing to brute-force,
// and a leaked database then holds nothing that can be presented to the device.
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
