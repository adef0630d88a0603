// Counts concurrent requests of one scope against a rule with one counter write: the requests that
// wait when the event loop comes round (read in the same turn, or while the scope's last count was
// being written) are counted together, one conditional upsert of cost n instead of n upserts — on
// PostgreSQL n round trips and n commits become one, and a scope has one count in flight at a time
// (a second would only wait for the first one's row lock). The answers are those counting them one at
// a time, in arrival order, would give: each allowed request gets its own RateLimit-Remaining. When
// the window has no room for all of them, each is counted on its own, so the first ones still get the
// room that is left and a refused request is not counted.
import type { RateLimitDecision, RateLimiter, RateLimitRule } from './rate-limiter.js';

type Waiting = Readonly<{ resolve: (decision: RateLimitDecision) => void; reject: (error: unknown) => void }>;
type Group = { scope: string; rule: RateLimitRule; waiting: Waiting[] };

export class GroupedRateCount {
  /** Requests waiting to be counted, by scope and rule. */
  private groups = new Map<string, Group>();
  /** Scopes and rules with a count being written. */
  private readonly counting = new Set<string>();
  private flushScheduled = false;

  constructor(private readonly limiter: RateLimiter) {}

  consume(scope: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    return new Promise((resolve, reject) => {
      const key = `${rule.name}\u0000${rule.limit}\u0000${rule.windowMs}\u0000${scope}`;
      let group = this.groups.get(key);
      if (!group) {
        group = { scope, rule, waiting: [] };
        this.groups.set(key, group);
      }
      group.waiting.push({ resolve, reject });
      if (!this.counting.has(key)) this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // setImmediate, not a microtask: the requests already read in this turn join the group first.
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    for (const [key, group] of this.groups) {
      if (this.counting.has(key)) continue; // counted once the count in flight is written
      this.groups.delete(key);
      this.counting.add(key);
      void this.count(group).finally(() => {
        this.counting.delete(key);
        if (this.groups.has(key)) this.scheduleFlush();
      });
    }
  }

  /** Settles every request of the group; never rejects. */
  private async count({ scope, rule, waiting }: Group): Promise<void> {
    try {
      if (waiting.length > 1) {
        const together = await this.limiter.consume(scope, rule, { cost: waiting.length });
        if (together.allowed) {
          // The i-th request of n brought the count to (count − n + 1 + i).
          waiting.forEach((request, index) => request.resolve({ ...together, remaining: together.remaining + waiting.length - 1 - index }));
          return;
        }
      }
      for (const request of waiting) request.resolve(await this.limiter.consume(scope, rule));
    } catch (error) {
      for (const request of waiting) request.reject(error);
    }
  }
}
