// ISO 8601 times on the wire: written in UTC with milliseconds, read with or without fractions.
import { badRequest } from '../http/errors.ts';

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/;

export function formatTime(milliseconds: number): string {
  return new Date(milliseconds).toISOString();
}

/** Milliseconds since the epoch of an ISO 8601 time with a zone; a 400 for anything else. */
export function parseTime(value: unknown, field: string): number {
  if (typeof value !== 'string') throw badRequest('INVALID_TIME', `${field} must be an ISO 8601 string.`);
  const match = ISO_UTC.exec(value.trim());
  if (!match) {
    throw badRequest(
      'INVALID_TIME',
      `${field} must be an ISO 8601 time with a zone, like 2026-11-22T01:02:03.456Z.`,
    );
  }
  // Sub-millisecond digits are cut, not rounded, so a time read back never lies in the future.
  const fraction = (match[7] ?? '').slice(0, 3).padEnd(3, '0');
  const zone = match[8] === 'Z' ? 'Z' : (match[8] ?? 'Z');
  const normalized = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}.${fraction}${zone}`;
  const milliseconds = Date.parse(normalized);
  // Date.parse rolls 2026-02-30 over into March instead of failing, so the fields are checked too.
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const valid =
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59;
  if (!valid || Number.isNaN(milliseconds)) {
    throw badRequest('INVALID_TIME', `${field} is not a real date and time: ${value}.`);
  }
  return milliseconds;
}
