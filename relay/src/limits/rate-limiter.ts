// Fixed-window rate limits and quotas over the shared counter table. A rule names its limit and
// window; a scope names whose counter it is (e.g. `msg:burst:ten_…`, or a bridge key's id), so any
// service can reuse it. Windows are aligned to the epoch: per-minute windows start on the minute,
// daily windows at 00:00 UTC. A refused request is not counted. Decisions carry the IETF
// RateLimit-* / Retry-After header values.
// With `processLocal` (a database only this process uses, i.e. SQLite), windows shorter than a day
// are counted in memory — the same windows without a database write per request; a restart forgets
// at most a minute — while daily quotas stay in the table. A caller that counts inside a transaction
// does the in-memory count last, after everything that could still fail, so a rollback never
// leaves a count behind.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { RateLimitCounterRepository, type CounterExecutor } from './rate-limit-counter-repository.js';

export type RateLimitRule = Readonly<{
  /** Short name used in the scope key, e.g. `burst`, `daily`. */
  name: string;
  limit: number;
  windowMs: number;
}>;

export type RateLimitDecision = Readonly<{
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the counter starts again. */
  resetSeconds: number;
}>;

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export class RateLimiter {
  private readonly counters: RateLimitCounterRepository;
  private readonly local = new Map<string, { windowStart: number; count: number }>();

  constructor(
    db: Kysely<Database>,
    private readonly now: () => number = Date.now,
    private readonly options: { processLocal?: boolean } = {},
  ) {
    this.counters = new RateLimitCounterRepository(db);
  }

  /**
   * Counts `cost` against the rule for this scope unless that would exceed the limit. Pass the
   * transaction as `executor` to make the count part of it (rolled back with it).
   */
  async consume(scope: string, rule: RateLimitRule, options: { executor?: CounterExecutor; cost?: number } = {}): Promise<RateLimitDecision> {
    const now = this.now();
    const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
    const windowEnd = windowStart + rule.windowMs;
    const resetSeconds = Math.max(1, Math.ceil((windowEnd - now) / 1000));
    const key = `${rule.name}:${scope}`;
    const cost = options.cost ?? 1;
    const count =
      this.options.processLocal && rule.windowMs < DAY_MS
        ? this.incrementLocal(key, windowStart, rule.limit, cost)
        : await this.counters.tryIncrement({ scope: key, windowStart, expiresAt: windowEnd, ceiling: rule.limit, cost }, options.executor);
    if (count === undefined) return { allowed: false, limit: rule.limit, remaining: 0, resetSeconds };
    return { allowed: true, limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetSeconds };
  }

  /** How much of the rule this scope has used in the current window (no change). */
  async used(scope: string, rule: RateLimitRule): Promise<number> {
    const windowStart = Math.floor(this.now() / rule.windowMs) * rule.windowMs;
    const local = this.local.get(`${rule.name}:${scope}`);
    const inMemory = local?.windowStart === windowStart ? local.count : 0;
    return inMemory + (await this.counters.read(`${rule.name}:${scope}`, windowStart));
  }

  async pruneExpired(): Promise<number> {
    const now = this.now();
    // In-memory windows are at most a day long; anything older than that is over.
    for (const [key, entry] of this.local) if (entry.windowStart + DAY_MS < now) this.local.delete(key);
    return this.counters.pruneExpired(now);
  }

  private incrementLocal(key: string, windowStart: number, ceiling: number, cost: number): number | undefined {
    const entry = this.local.get(key);
    const current = entry?.windowStart === windowStart ? entry.count : 0;
    if (current + cost > ceiling) return undefined;
    this.local.set(key, { windowStart, count: current + cost });
    return current + cost;
  }
}

/** The response headers for a decision: RateLimit-* always, Retry-After when refused. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.resetSeconds);
  return headers;
}
