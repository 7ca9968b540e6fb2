// Fresh identifiers and entity tags for the device's records.
import { randomBytes } from 'node:crypto';

/** An opaque item or permission id: 96 random bits, URL-safe. */
export function newId(): string {
  return randomBytes(12).toString('base64url');
}

/** A quoted entity tag, as in the JSON `eTag` field and the `ETag` header. */
export function newEtag(): string {
  return `"${randomBytes(9).toString('base64url')}"`;
}
