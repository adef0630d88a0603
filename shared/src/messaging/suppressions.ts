// A tenant's suppression list: GET /api/suppressions and DELETE /api/suppressions/{email}.
import { z } from 'zod';

/** Why an address is suppressed: what its provider reported. */
export const SUPPRESSION_REASONS = ['hard_bounce', 'spam_report', 'unsubscribe'] as const;
export const SuppressionReason = z.enum(SUPPRESSION_REASONS);
export type SuppressionReason = z.infer<typeof SuppressionReason>;

export const SuppressionOut = z
  .object({
    email: z.string().describe('Lowercased address'),
    reason: SuppressionReason,
    created_at: z.string(),
  })
  .meta({ id: 'SuppressionOut' });
export type SuppressionOut = z.infer<typeof SuppressionOut>;

export const SuppressionListOut = z.object({ suppressions: z.array(SuppressionOut) }).meta({ id: 'SuppressionListOut' });
export type SuppressionListOut = z.infer<typeof SuppressionListOut>;

export const SuppressionDeleteOut = z
  .object({ email: z.string(), status: z.literal('removed').describe('Sends to it reach a provider again') })
  .meta({ id: 'SuppressionDeleteOut' });
export type SuppressionDeleteOut = z.infer<typeof SuppressionDeleteOut>;
