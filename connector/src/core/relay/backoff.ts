// Reconnect delays: exponential with full jitter (a random delay between 0 and min(cap, base·2^n)),
// so connectors that lost the relay together do not all come back in the same instant.
export type Backoff = Readonly<{ next(): number; reset(): void; readonly attempts: number }>;

export function fullJitterBackoff(baseMs: number, capMs: number, random: () => number = Math.random): Backoff {
  let attempts = 0;
  return {
    next() {
      const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempts, 30));
      attempts += 1;
      return Math.floor(random() * ceiling);
    },
    reset() {
      attempts = 0;
    },
    get attempts() {
      return attempts;
    },
  };
}
