// Liveness and readiness probe bodies.
import { z } from 'zod';

export const HealthOut = z.object({ status: z.literal('ok'), service: z.literal('messaging') });
export type HealthOut = z.infer<typeof HealthOut>;

export const ReadinessOut = z.object({
  status: z.enum(['ready', 'unavailable']),
  database: z.enum(['ok', 'unreachable']),
});
export type ReadinessOut = z.infer<typeof ReadinessOut>;
