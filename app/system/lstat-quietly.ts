// One lstat of a path in the synced folder for the watchers, bigint like the scanner's, undefined when it is gone or unreadable.
import { lstatSync, type BigIntStats } from 'node:fs';

/** The item at `path` as it is now (not followed if a link), or undefined when there is none to read. */
export function lstatQuietly(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    // Unreadable now: the next scan reports it with its reason.
    return undefined;
  }
}
