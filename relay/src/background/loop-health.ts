// What a background loop reports about itself, and when it counts as stuck. A loop is stuck when it
// runs (started, not stopped) and no pass has ended for longer than the wait it scheduled itself (its
// interval, or its back-off after failures) plus STUCK_INTERVALS of its interval, and never less than
// STUCK_FLOOR_MS: a pass that hangs (a database or provider call that never returns) stops the loop
// without an error, and only this notices. A pass that fails still ends: that loop is failing, not
// stuck, and says so in lastError. /readyz answers 503 while any loop is stuck (probe-routes.ts).

/** How many of its own intervals a loop may be late beyond the wait it scheduled. */
export const STUCK_INTERVALS = 5;
/** However short its interval, a loop is stuck only after this long without a pass: a slow pass of a big batch is not a hang. */
export const STUCK_FLOOR_MS = 60_000;

export type LoopHealth = Readonly<{
  name: string;
  running: boolean;
  intervalMs: number;
  /** When the last pass ended (ISO 8601), whether it worked or failed. */
  lastPassAt: string | null;
  /** The last failed pass's message; it stays after later passes work (consecutiveFailures is then 0). */
  lastError: string | null;
  lastErrorAt: string | null;
  consecutiveFailures: number;
  stuck: boolean;
}>;

export type LoopReport = LoopHealth &
  Readonly<{
    /** How long the oldest row this loop should already have worked has been due (0: none due; null: the loop has no queue). */
    oldestDueLagMs: number | null;
  }>;

export function isStuck(state: { running: boolean; intervalMs: number; nextDelayMs: number; since: number | null; now: number }): boolean {
  if (!state.running || state.since === null) return false;
  const allowed = state.nextDelayMs + Math.max(STUCK_INTERVALS * state.intervalMs, STUCK_FLOOR_MS);
  return state.now - state.since > allowed;
}
