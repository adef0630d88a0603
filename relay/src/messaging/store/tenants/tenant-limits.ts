// The messaging contract's default limits, merged with a tenant's overrides, and the rate-limit
// rules they become.
import type { TenantLimitsIn, TenantLimitsOut } from '@ledgerwire/shared';
import { DAY_MS, MINUTE_MS, type RateLimitRule } from '../../../limits/rate-limiter.js';

export const DEFAULT_TENANT_LIMITS: TenantLimitsOut = Object.freeze({
  burst_per_minute: 100,
  sustained_per_minute: 20,
  daily_quota: 100,
  events_per_minute: 100,
  webhooks_per_minute: 300,
});

export type LimitOverrides = Partial<Record<keyof TenantLimitsOut, number>>;

/** Applies a PATCH to stored overrides: a number sets, null removes, absent keeps. */
export function mergeOverrides(stored: LimitOverrides, patch: TenantLimitsIn | undefined): LimitOverrides {
  const next: LimitOverrides = { ...stored };
  for (const [key, value] of Object.entries(patch ?? {}) as [keyof TenantLimitsOut, number | null | undefined][]) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  return next;
}

export function effectiveLimits(overrides: LimitOverrides): TenantLimitsOut {
  return { ...DEFAULT_TENANT_LIMITS, ...overrides };
}

export type LimitRules = Readonly<Record<'burst' | 'sustained' | 'daily' | 'events' | 'webhooks', RateLimitRule>>;

/** Rules by limits object: an authenticated tenant (and so its limits) is shared for the auth cache's TTL. */
const rulesByLimits = new WeakMap<TenantLimitsOut, LimitRules>();

export function limitRules(limits: TenantLimitsOut): LimitRules {
  let rules = rulesByLimits.get(limits);
  if (!rules) {
    rules = rulesFor(limits);
    rulesByLimits.set(limits, rules);
  }
  return rules;
}

function rulesFor(limits: TenantLimitsOut): LimitRules {
  return {
    burst: { name: 'msg-burst', limit: limits.burst_per_minute, windowMs: MINUTE_MS },
    sustained: { name: 'msg-sustained', limit: limits.sustained_per_minute, windowMs: MINUTE_MS },
    daily: { name: 'msg-daily', limit: limits.daily_quota, windowMs: DAY_MS },
    events: { name: 'msg-events', limit: limits.events_per_minute, windowMs: MINUTE_MS },
    webhooks: { name: 'msg-webhooks', limit: limits.webhooks_per_minute, windowMs: MINUTE_MS },
  };
}
