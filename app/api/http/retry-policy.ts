// When and how long to wait before sending a request again: idempotent requests only, full-jitter backoff.
import type { HttpMethod } from './url-safety.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included; 1 turns retries off. */
  maxAttempts: number;
  /** The first backoff ceiling; it doubles with every attempt. */
  baseDelayMs: number;
  /** No single wait is longer than this. */
  maxDelayMs: number;
  /** No retry starts once this long has passed since the first attempt. */
  maxElapsedMs: number;
  /** A `Retry-After` longer than this is not waited for: the error goes to the caller instead. */
  maxRetryAfterMs: number;
  /** Wait at least as long as a `Retry-After` says (tests turn it off to keep their waits tiny). */
  honourRetryAfter: boolean;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
  maxElapsedMs: 60_000,
  maxRetryAfterMs: 60_000,
  honourRetryAfter: true,
};

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...overrides };
}

/**
 * Whether sending the request twice has the same effect as sending it once. Writes count only when
 * guarded by If-Match: a second attempt of a write that did happen then fails with 412 instead of
 * applying twice.
 */
export function isIdempotent(method: HttpMethod, headers: Readonly<Record<string, string>>): boolean {
  if (method === 'GET' || method === 'HEAD') return true;
  if (method === 'POST') return false;
  return Object.keys(headers).some((name) => name.toLowerCase() === 'if-match');
}

/** Full jitter (AWS architecture blog): a uniform wait between 0 and the exponential ceiling. */
export function backoffDelayMs(policy: RetryPolicy, retryNumber: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retryNumber - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next attempt, or undefined to give up: attempts or time are used up, or the
 * service asked (Retry-After) for a longer pause than the policy allows.
 */
export function nextDelayMs(
  policy: RetryPolicy,
  state: { attempt: number; elapsedMs: number; retryAfterMs?: number | undefined },
  random: () => number,
): number | undefined {
  if (state.attempt >= policy.maxAttempts) return undefined;
  const retryAfter = policy.honourRetryAfter ? (state.retryAfterMs ?? 0) : 0;
  if (retryAfter > policy.maxRetryAfterMs) return undefined;
  const delay = Math.max(backoffDelayMs(policy, state.attempt, random), retryAfter);
  if (state.elapsedMs + delay > policy.maxElapsedMs) return undefined;
  return delay;
}
