// Numbers, sizes, durations and times in words for people.

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** 1024-based, one decimal under 10 units: "812 bytes", "3.4 MB", "120 GB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}

export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** "a few seconds", "4 min", "1 h 20 min": an estimate, so rounded. */
export function formatDuration(seconds: number): string {
  if (seconds < 10) return 'a few seconds';
  if (seconds < 60) return `${Math.round(seconds / 5) * 5} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

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
