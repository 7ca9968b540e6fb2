// A bandwidth limit as people write it (`2MB/s`, `500KB/s`, `1.5MiB/s`, `off`), read into bytes per second.
import { MchError } from './errors.ts';

/**
 * The unit table: decimal prefixes are powers of 1000 and binary ones of 1024, whatever the case of
 * the letters (`kb`, `KB` and `kB` are all 1000 bytes). A limit is in bytes: a unit in bits (`Mbit`,
 * `Mbps`) is refused rather than silently read as bytes, eight times too fast.
 */
const UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** Below this a limit would leave a connection silent long enough for the device to drop it. */
export const MIN_RATE_BYTES_PER_SEC = 1000;

/** A limit that is not one: `code` RATE_INVALID; nothing was changed. */
export class RateTextError extends MchError {
  constructor(message: string) {
    super('RATE_INVALID', 'Not a speed', message);
  }
}

/**
 * `2MB/s` → 2,000,000; `off` (or `none`, `0`) → undefined. The `/s` may be left out. A bare number is
 * refused: bytes, kilobytes and bits per second are all common readings of it.
 */
export function parseRate(text: string): number | undefined {
  const trimmed = text.trim();
  const lower = trimmed.toLowerCase();
  if (lower === 'off' || lower === 'none' || lower === '0') return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)\s*(?:\/\s*s)?$/i.exec(trimmed);
  const how = 'write it as 2MB/s, 500KB/s, 1.5MiB/s or off';
  if (match === null) {
    const bare = /^\d+(?:\.\d+)?$/.test(trimmed);
    throw new RateTextError(
      bare
        ? `${JSON.stringify(text)} has no unit: ${how} (KB = 1000 bytes, KiB = 1024).`
        : `${JSON.stringify(text)} is not a speed: ${how}.`,
    );
  }
  const unitText = (match[2] ?? '').toLowerCase();
  const unit = UNITS[unitText];
  if (unit === undefined) {
    const bits = unitText.includes('bit') || unitText.endsWith('ps');
    throw new RateTextError(
      bits
        ? `${JSON.stringify(text)} may be bits: limits are in bytes per second, ${how}.`
        : `${JSON.stringify(text)} has an unknown unit: ${how}.`,
    );
  }
  const bytes = Math.round(Number(match[1]) * unit);
  if (!(bytes >= MIN_RATE_BYTES_PER_SEC)) {
    throw new RateTextError(
      `${JSON.stringify(text)} is below the lowest limit, 1KB/s: give more, or off for no limit.`,
    );
  }
  return bytes;
}

/** The units a limit is written back in, largest first: a field shows it as it was most likely typed. */
const WRITTEN_UNITS: ReadonlyArray<[string, number]> = [
  ['GB', 1000 ** 3],
  ['GiB', 1024 ** 3],
  ['MB', 1000 ** 2],
  ['MiB', 1024 ** 2],
  ['KB', 1000],
  ['KiB', 1024],
];

/**
 * A limit written so that `parseRate` reads back exactly the same bytes (`2MB/s`, `1.5MiB/s`,
 * `1572.865KB/s`: KB is exact for any whole number of bytes): formatSpeed's rounded words would
 * change a limit saved again from a field showing them.
 */
export function rateText(bytesPerSec: number): string {
  const written = WRITTEN_UNITS.map(([name, unit]) => `${Number((bytesPerSec / unit).toFixed(3))}${name}/s`)
    .filter((text) => !text.startsWith('0') && parseRate(text) === bytesPerSec)
    .sort((a, b) => a.length - b.length);
  return written[0] ?? `${bytesPerSec}B/s`;
}
