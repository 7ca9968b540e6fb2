// Fresh identifiers and entity tags for the device's records.
import { randomFillSync } from 'node:crypto';

/**
 * Random bytes are drawn 4 KiB at a time and handed out in slices: a create or a delete takes several
 * ids and tags, and a call into the random source for each cost more than the rest of making them.
 * The bytes are as random as before; each is used once.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomText(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const text = pool.toString('base64url', used, used + bytes);
  used += bytes;
  return text;
}

/** An opaque item or permission id: 96 random bits, URL-safe. */
export function newId(): string {
  return randomText(12);
}

/** A quoted entity tag, as in the JSON `eTag` field and the `ETag` header. */
export function newEtag(): string {
  return `"${randomText(9)}"`;
}
