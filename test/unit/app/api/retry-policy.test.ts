// The retry rules: which requests may be repeated, and how long to wait before the next attempt.
import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  isIdempotent,
  nextDelayMs,
  retryPolicy,
} from '../../../../app/api/http/retry-policy.ts';

describe('isIdempotent', () => {
  it('counts reads, and writes guarded by If-Match, as safe to repeat', () => {
    expect(isIdempotent('GET', {})).toBe(true);
    expect(isIdempotent('HEAD', {})).toBe(true);
    expect(isIdempotent('PUT', { 'If-Match': '"e"' })).toBe(true);
    expect(isIdempotent('PATCH', { 'if-match': '"e"' })).toBe(true);
    expect(isIdempotent('DELETE', { 'if-match': '*' })).toBe(true);
  });

  it('never counts a POST, or an unguarded write', () => {
    expect(isIdempotent('POST', { 'if-match': '"e"' })).toBe(false);
    expect(isIdempotent('PUT', {})).toBe(false);
    expect(isIdempotent('PATCH', { 'if-none-match': '*' })).toBe(false);
    expect(isIdempotent('DELETE', {})).toBe(false);
  });
});

describe('backoff', () => {
  const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });

  it('draws a full-jitter wait below a doubling ceiling, capped', () => {
    expect(backoffDelayMs(policy, 1, () => 0.999)).toBe(99);
    expect(backoffDelayMs(policy, 3, () => 0.999)).toBe(399);
    expect(backoffDelayMs(policy, 10, () => 0.999)).toBe(999);
    expect(backoffDelayMs(policy, 3, () => 0)).toBe(0);
  });

  it('waits at least as long as Retry-After says, unless turned off', () => {
    expect(nextDelayMs(policy, { attempt: 1, elapsedMs: 0, retryAfterMs: 5000 }, () => 0.5)).toBe(5000);
    const ignoring = retryPolicy({ ...policy, honourRetryAfter: false });
    expect(nextDelayMs(ignoring, { attempt: 1, elapsedMs: 0, retryAfterMs: 5000 }, () => 0.5)).toBe(50);
  });

  it('gives up after the last attempt, past the time budget, or for a Retry-After that is too long', () => {
    const bounded = retryPolicy({ maxAttempts: 3, maxElapsedMs: 10_000, maxRetryAfterMs: 30_000 });
    expect(nextDelayMs(bounded, { attempt: 3, elapsedMs: 0 }, () => 0)).toBeUndefined();
    expect(nextDelayMs(bounded, { attempt: 1, elapsedMs: 10_001 }, () => 0)).toBeUndefined();
    expect(nextDelayMs(bounded, { attempt: 1, elapsedMs: 0, retryAfterMs: 60_000 }, () => 0)).toBeUndefined();
    expect(nextDelayMs(bounded, { attempt: 2, elapsedMs: 0 }, () => 0)).toBe(0);
  });
});
