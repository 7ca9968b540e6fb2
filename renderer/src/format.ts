// Counts, dates, times and names in words for people (sizes, speeds and durations: common/units.ts).

export function formatCount(count: number, one: string, many: string): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

// The same time style as dateTime's, so "today 9:08 AM" and "Nov 23, 2026, 9:50 AM" read alike.
const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** "today 14:05" or "12 Mar 2026, 14:05": absolute, so it needs no clock ticking to stay right. */
export function formatWhen(ms: number): string {
  const at = new Date(ms);
  return sameDay(at, new Date()) ? `today ${time.format(at)}` : dateTime.format(at);
}

export function formatDate(ms: number): string {
  return date.format(new Date(ms));
}

/** For `<time datetime>`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** The last part of a path, for titles ("/home/ann/MyCloud" → "MyCloud"). */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  return parts.at(-1) ?? path;
}
