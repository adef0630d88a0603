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

/** The relay said it is going away (1001) or restarting (1012): it is back in seconds, not minutes. */
const RESTART_CLOSE_CODES = new Set([1001, 1012]);
/** After such a close, retries stay within this ceiling for this many attempts (about a minute). */
const RESTART_CAP_MS = 2_000;
const RESTART_ATTEMPTS = 40;

export type ReconnectPolicy = Readonly<{
  /** The delay before the next attempt after a connection closed with `code` (1006 when it never opened). */
  delayAfterClose(code: number): number;
  /** A session was established: start again from the shortest delays. */
  connected(): void;
}>;

/**
 * Full-jitter exponential backoff, except after a relay restart: a relay that closes sessions because it
 * is stopping (a deploy) is listening again within seconds, so every connector retries within a two-second
 * ceiling — spread at random over it, so they do not all arrive in one instant — instead of climbing to
 * half a minute while the relay waits for them.
 */
export function reconnectPolicy(baseMs: number, capMs: number, random: () => number = Math.random): ReconnectPolicy {
  const normal = fullJitterBackoff(baseMs, capMs, random);
  const restart = fullJitterBackoff(baseMs, Math.min(capMs, RESTART_CAP_MS), random);
  let restarting = false;
  return {
    delayAfterClose(code) {
      if (RESTART_CLOSE_CODES.has(code)) {
        restarting = true;
        restart.reset();
      }
      if (restarting && restart.attempts < RESTART_ATTEMPTS) return restart.next();
      restarting = false;
      return normal.next();
    },
    connected() {
      restarting = false;
      normal.reset();
      restart.reset();
    },
  };
}
