// When a failed webhook delivery is tried again: Svix's schedule (immediately, then 5 s, 5 min, 30 min,
// 2 h, 5 h, 10 h, 10 h: eight attempts over about 27.5 hours), each delay with ±10 % jitter so that a
// receiver coming back from an outage is not hit by every queued delivery in the same second.

/** Delay before attempt n+1 after attempt n failed, for n = 1…7. */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const JITTER = 0.1;
/** A receiver's Retry-After is honoured up to this long. */
const MAX_RETRY_AFTER_MS = 36_000_000;

/**
 * When the next attempt is due after `attemptsMade` failed ones, or null when the schedule is spent.
 * `random` is in [0, 1); `retryAfterMs` (from a 429/503) can only push the attempt later.
 */
export function nextAttemptAt(
  attemptsMade: number,
  now: Date,
  random: () => number,
  retryAfterMs?: number,
): Date | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  const delay = Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
  return new Date(now.getTime() + delay);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}
