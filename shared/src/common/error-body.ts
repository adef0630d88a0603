// Error bodies, one per API family (see relay/src/errors/error-handler.ts for where each applies).
import { z } from 'zod';

/** Bridge and operator APIs: the synchronous error envelope. */
export const ErrorEnvelopeOut = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().describe('Stable, snake_case machine-readable code'),
      message: z.string(),
      details: z.array(z.object({ field: z.string().optional(), message: z.string() })),
    }),
  })
  .meta({ id: 'ErrorEnvelopeOut' });
export type ErrorEnvelopeOut = z.infer<typeof ErrorEnvelopeOut>;

/** Messaging API: `{"error": "..."}`. */
export const MessagingErrorOut = z.object({ error: z.string() }).meta({ id: 'MessagingErrorOut' });
export type MessagingErrorOut = z.infer<typeof MessagingErrorOut>;

/** Messaging API validation failure (status 422), the framework-default shape the contract names. */
export const MessagingValidationErrorOut = z
  .object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())) })
  .meta({ id: 'MessagingValidationErrorOut' });
export type MessagingValidationErrorOut = z.infer<typeof MessagingValidationErrorOut>;
