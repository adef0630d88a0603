// A per-provider circuit breaker (per relay process): after `threshold` consecutive transient
// failures the provider is skipped for `openMs`, so failover goes straight to the next provider
// instead of waiting on a dead one for every message. After the pause one message tries it again
// (half-open); a success closes the circuit, a failure opens it for another pause.
export type BreakerState = Readonly<{ failures: number; openUntil: number }>;

export class CircuitBreakers {
  private readonly states = new Map<string, { failures: number; openUntil: number }>();

  constructor(
    private readonly now: () => number,
    private readonly threshold = 5,
    private readonly openMs = 30_000,
  ) {}

  isOpen(provider: string): boolean {
    return (this.states.get(provider)?.openUntil ?? 0) > this.now();
  }

  /** When the earliest open circuit among these closes again (ms epoch), or undefined if none is open. */
  reopensAt(providers: readonly string[]): number | undefined {
    const times = providers.map((p) => this.states.get(p)?.openUntil ?? 0).filter((t) => t > this.now());
    return times.length === 0 ? undefined : Math.min(...times);
  }

  success(provider: string): void {
    this.states.set(provider, { failures: 0, openUntil: 0 });
  }

  failure(provider: string): void {
    const state = this.states.get(provider) ?? { failures: 0, openUntil: 0 };
    state.failures += 1;
    if (state.failures >= this.threshold) state.openUntil = this.now() + this.openMs;
    this.states.set(provider, state);
  }

  snapshot(): Record<string, BreakerState> {
    return Object.fromEntries([...this.states].map(([name, state]) => [name, { ...state }]));
  }
}

/** Retry delay after the n-th failed attempt: 5 s doubling to at most 30 min, with ±20 % jitter. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30 * 60_000, 5_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
