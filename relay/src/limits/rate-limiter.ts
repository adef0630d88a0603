// Fixed-window rate limits and quotas over the shared counter table. A rule names its limit and
// window; a scope names whose counter it is (e.g. `msg:burst:ten_…`, or a bridge key's id), so any
// service can reuse it. Windows are aligned to the epoch: per-minute windows start on the minute,
// daily windows at 00:00 UTC. A refused request is not counted. Decisions carry the IETF
// RateLimit-* / Retry-After header values.
// With `processLocal` (a database only this process uses, i.e. SQLite), windows shorter than a day
// are counted in memory — the same windows without a database write per request; a restart forgets
// at most a minute — while daily quotas stay in the table. A caller that counts inside a transaction
// does the in-memory count last, after everything that could still fail, so a rollback never
// leaves a count behind — or, counting a batch (consumeUpTo), undoes it with undoLocal when the
// transaction fails.
// With `shortWindowsWithoutFlushWait` (PostgreSQL), a count of a window shorter than a day made on its
// own (no caller's transaction) commits without waiting for the WAL flush: on the request path that
// wait was most of a count's time, and a database crash forgets at most the last fraction of a second
// of counts — less than a SQLite relay's restart forgets. Daily quotas always wait for it.
import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../db/capabilities.js';
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

/** What consumeUpTo counted: up to `wanted` units, fewer when the limit leaves less room. */
export type RateLimitGrant = Readonly<{
  key: string;
  windowStart: number;
  granted: number;
  /** Counted in this process's memory, which a transaction's rollback does not undo (see undoLocal). */
  local: boolean;
  /** The decision for every unit beyond `granted`: refused, with the window's header values. */
  refusal: RateLimitDecision;
}>;

type Window = Readonly<{ key: string; windowStart: number; windowEnd: number; resetSeconds: number; local: boolean }>;

/** How often a batch's count is retried after another process took the room it had read. */
const MAX_GRANT_ATTEMPTS = 8;

export type RateLimiterOptions = Readonly<{ processLocal?: boolean; shortWindowsWithoutFlushWait?: boolean }>;

/** How the relay counts on its database: short windows in memory on one process's, without the flush wait where the dialect can. */
export function rateLimiterOptionsFor(capabilities: DialectCapabilities): RateLimiterOptions {
  return { processLocal: !capabilities.sharedAcrossProcesses, shortWindowsWithoutFlushWait: capabilities.commitsWithoutFlushWait };
}

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export class RateLimiter {
  private readonly counters: RateLimitCounterRepository;
  private readonly local = new Map<string, { windowStart: number; count: number }>();

  constructor(
    db: Kysely<Database>,
    private readonly now: () => number = Date.now,
    private readonly options: RateLimiterOptions = {},
  ) {
    this.counters = new RateLimitCounterRepository(db);
  }

  /**
   * Whether windows shorter than a day are counted in the shared table (a write per count) rather
   * than in this process's memory: then concurrent requests are worth counting together
   * (grouped-rate-count.ts).
   */
  get countsShortWindowsInTable(): boolean {
    return this.options.processLocal !== true;
  }

  /**
   * Counts `cost` against the rule for this scope unless that would exceed the limit. Pass the
   * transaction as `executor` to make the count part of it (rolled back with it).
   */
  async consume(scope: string, rule: RateLimitRule, options: { executor?: CounterExecutor; cost?: number } = {}): Promise<RateLimitDecision> {
    const window = this.window(scope, rule);
    const cost = options.cost ?? 1;
    const increment = { scope: window.key, windowStart: window.windowStart, expiresAt: window.windowEnd, ceiling: rule.limit, cost };
    const count = window.local
      ? this.incrementLocal(window.key, window.windowStart, rule.limit, cost)
      : options.executor === undefined && this.options.shortWindowsWithoutFlushWait === true && rule.windowMs < DAY_MS
        ? await this.counters.tryIncrementWithoutFlushWait(increment)
        : await this.counters.tryIncrement(increment, options.executor);
    if (count === undefined) return { allowed: false, limit: rule.limit, remaining: 0, resetSeconds: window.resetSeconds };
    return { allowed: true, limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetSeconds: window.resetSeconds };
  }

  /**
   * Counts as many of `wanted` units as the limit has room for (all, some or none) — a batch of
   * requests counted at once, the first `granted` of them allowed. Pass the transaction as
   * `executor`; if it fails, call undoLocal with the grant.
   */
  async consumeUpTo(scope: string, rule: RateLimitRule, wanted: number, options: { executor?: CounterExecutor } = {}): Promise<RateLimitGrant> {
    const window = this.window(scope, rule);
    const granted =
      wanted <= 0
        ? 0
        : window.local
          ? this.grantLocal(window, rule.limit, wanted)
          : await this.grantFromTable(window, rule.limit, wanted, options.executor);
    return {
      key: window.key,
      windowStart: window.windowStart,
      granted,
      local: window.local,
      refusal: { allowed: false, limit: rule.limit, remaining: 0, resetSeconds: window.resetSeconds },
    };
  }

  /**
   * Counts `wanted` units against both rules, all of them or none: in one statement when both are
   * counted in the table (one round trip instead of two, and on PostgreSQL the two row locks taken
   * together, so a transaction holds them for a shorter time). Answers the two grants, or undefined
   * when either rule lacks the room, when either is counted in memory, or for nothing wanted —
   * nothing is counted then, and consumeUpTo gives the exact answer. Pass the transaction as
   * `executor`.
   */
  async consumeTogether(
    scope: string,
    rules: readonly [RateLimitRule, RateLimitRule],
    wanted: number,
    options: { executor?: CounterExecutor } = {},
  ): Promise<[RateLimitGrant, RateLimitGrant] | undefined> {
    const windows = [this.window(scope, rules[0]), this.window(scope, rules[1])] as const;
    if (wanted <= 0 || windows[0].local || windows[1].local || windows[0].key === windows[1].key) return undefined;
    if (wanted > rules[0].limit || wanted > rules[1].limit) return undefined;
    const increments = windows.map((window, index) => ({
      scope: window.key,
      windowStart: window.windowStart,
      expiresAt: window.windowEnd,
      ceiling: rules[index]!.limit,
      cost: wanted,
    }));
    const counted = await this.counters.tryIncrementPair(increments[0]!, increments[1]!, options.executor);
    if (counted.size < 2) {
      // One rule had room and was counted: take that back, in the same transaction.
      for (const window of windows) if (counted.has(window.key)) await this.counters.decrement(window.key, window.windowStart, wanted, options.executor);
      return undefined;
    }
    const grant = (window: Window, rule: RateLimitRule): RateLimitGrant => ({
      key: window.key,
      windowStart: window.windowStart,
      granted: wanted,
      local: false,
      refusal: { allowed: false, limit: rule.limit, remaining: 0, resetSeconds: window.resetSeconds },
    });
    return [grant(windows[0], rules[0]), grant(windows[1], rules[1])];
  }

  /**
   * Returns `amount` of a grant (units its batch did not use after all), inside the same transaction;
   * answers the grant that remains, the one to undo should the transaction fail.
   */
  async giveBack(grant: RateLimitGrant, amount: number, options: { executor?: CounterExecutor } = {}): Promise<RateLimitGrant> {
    const returned = Math.min(Math.max(0, amount), grant.granted);
    if (returned === 0) return grant;
    if (grant.local) this.decrementLocal(grant.key, grant.windowStart, returned);
    else await this.counters.decrement(grant.key, grant.windowStart, returned, options.executor);
    return { ...grant, granted: grant.granted - returned };
  }

  /** Undoes the in-memory part of grants whose transaction failed (table counts roll back with it). */
  undoLocal(grants: readonly RateLimitGrant[]): void {
    for (const grant of grants) if (grant.local) this.decrementLocal(grant.key, grant.windowStart, grant.granted);
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

  private window(scope: string, rule: RateLimitRule): Window {
    const now = this.now();
    const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
    const windowEnd = windowStart + rule.windowMs;
    return {
      key: `${rule.name}:${scope}`,
      windowStart,
      windowEnd,
      resetSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
      local: this.options.processLocal === true && rule.windowMs < DAY_MS,
    };
  }

  private grantLocal(window: Window, ceiling: number, wanted: number): number {
    const entry = this.local.get(window.key);
    const current = entry?.windowStart === window.windowStart ? entry.count : 0;
    const granted = Math.min(wanted, Math.max(0, ceiling - current));
    if (granted > 0) this.local.set(window.key, { windowStart: window.windowStart, count: current + granted });
    return granted;
  }

  /**
   * Tries the whole batch first (one upsert); when refused, reads the count and asks for what is left.
   * Each further refusal means another process committed more in between, so this ends; the attempt
   * cap only guards against a misbehaving database.
   */
  private async grantFromTable(window: Window, ceiling: number, wanted: number, executor: CounterExecutor | undefined): Promise<number> {
    let cost = wanted;
    for (let attempt = 0; attempt < MAX_GRANT_ATTEMPTS && cost > 0; attempt++) {
      const increment = { scope: window.key, windowStart: window.windowStart, expiresAt: window.windowEnd, ceiling, cost };
      if ((await this.counters.tryIncrement(increment, executor)) !== undefined) return cost;
      cost = Math.min(wanted, ceiling - (await this.counters.read(window.key, window.windowStart, executor)));
    }
    return 0;
  }

  private decrementLocal(key: string, windowStart: number, amount: number): void {
    const entry = this.local.get(key);
    if (entry?.windowStart === windowStart) entry.count = Math.max(0, entry.count - amount);
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
