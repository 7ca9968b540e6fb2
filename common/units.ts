// Sizes, speeds and durations in words: the one convention of the window, the tray and `mch-sync`.

/*
 * Sizes are in powers of 1000 (SI: 1 kB = 1000 B), as GNOME Files, macOS Finder and the device's share
 * page show them, so a file reads the same here as beside it in the file manager (Windows Explorer
 * divides by 1024 and says KB: it is the one that differs). One transfer must read the same in every
 * place that shows it, so nothing else in the project turns bytes or seconds into words.
 */
const UNITS = ['kB', 'MB', 'GB', 'TB'] as const;

/**
 * `812 B`, `1.5 kB`, `12 MB`, `2.1 GB`: one decimal under 10 units, whole units from 10 on. A value that
 * rounds to 1000 of a unit is shown in the next one ("1.0 MB", not "1000 kB").
 */
export function formatBytes(bytes: number): string {
  if (Math.round(bytes) < 1000) return `${Math.round(bytes)} B`;
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  // 9.96 would print as "10.0" with one decimal: from there on it is a whole number.
  return `${value < 9.95 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}

/** `5.5 MB/s`, `812 B/s`: a measured speed, so whole bytes. */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}

/**
 * A length of time: `0.5 s`, `15 s`, `4 min`, `1 h`, `1 h 20 min`. Seconds keep two decimals under 10
 * (a test's timeout of 50 ms is "0.05 s", not "0 s"); from a minute on, whole minutes.
 */
export function formatDuration(seconds: number): string {
  const shown = Number(seconds.toFixed(seconds < 10 ? 2 : 0));
  if (shown < 60) return `${shown} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/**
 * The time a transfer has left: an estimate, so rounded further than `formatDuration`: "a few seconds"
 * under 10 s, then to 5 s ("25 s"), then as `formatDuration` ("4 min", "1 h 20 min").
 */
export function formatTimeLeft(seconds: number): string {
  if (seconds < 10) return 'a few seconds';
  return formatDuration(seconds < 60 ? Math.round(seconds / 5) * 5 : seconds);
}
