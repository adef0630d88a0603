// Liveness and readiness probe bodies.
import { z } from 'zod';

export const HealthOut = z.object({ status: z.literal('ok'), service: z.literal('messaging') });
export type HealthOut = z.infer<typeof HealthOut>;

/** One background loop of the relay as /readyz and the console report it (relay/src/background/loop-health.ts). */
export const LoopHealthOut = z.object({
  name: z.string(),
  /** False when this relay runs no background work (RELAY_WORKERS=0) or is stopping. */
  running: z.boolean(),
  interval_ms: z.number().int(),
  /** When its last pass ended, worked or failed. */
  last_pass_at: z.string().nullable(),
  /** The last failed pass's message (kept after later passes work; consecutive_failures is then 0). */
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  consecutive_failures: z.number().int(),
  /** How long the oldest row it should already have worked has waited (0: none; null: the loop keeps no queue, or the database did not answer). */
  oldest_due_lag_ms: z.number().int().nullable(),
  /** No pass ended for 5 of its intervals (at least a minute) beyond the wait it scheduled itself. */
  stuck: z.boolean(),
});
export type LoopHealthOut = z.infer<typeof LoopHealthOut>;

export const ReadinessOut = z.object({
  status: z.enum(['ready', 'unavailable']),
  database: z.enum(['ok', 'unreachable']),
  loops: z.array(LoopHealthOut),
});
export type ReadinessOut = z.infer<typeof ReadinessOut>;
