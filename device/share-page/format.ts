// Text helpers of the recipient's page: HTML escaping, human-readable sizes and dates.

/** Escapes text for HTML element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const UNITS = ['kB', 'MB', 'GB', 'TB', 'PB'] as const;

/** A size as people read it, in SI units like the file managers of macOS and GNOME: 1.5 MB, 532 kB. */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes;
  let unit: string = 'B';
  for (const next of UNITS) {
    value /= 1000;
    unit = next;
    if (value < 1000) break;
  }
  // One decimal while it says something (1.5 MB), none once the number is large (15 MB).
  const text = value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value).toString();
  return `${text} ${unit}`;
}

// The visitor's time zone is unknown to a page without scripts, so dates are shown in UTC and say so.
const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const CLOCK_FORMAT = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});

/** The day (22 Nov 2026) and the time of day (02:14 UTC), which narrow screens leave out. */
export function formatDate(milliseconds: number): { day: string; clock: string } {
  const date = new Date(milliseconds);
  return { day: DAY_FORMAT.format(date), clock: `${CLOCK_FORMAT.format(date)} UTC` };
}
