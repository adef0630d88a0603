// GET /admin/v1/whoami: who the operator credential is and which relay answered.
import { z } from 'zod';

export const WhoamiOut = z.object({
  success: z.literal(true),
  operator: z.object({
    role: z.literal('operator'),
    token_source: z.enum(['env', 'data-dir']).describe('RELAY_ADMIN_TOKEN, or the token generated into DATA_DIR'),
  }),
  relay: z.object({
    installation_id: z.string(),
    version: z.string(),
    database: z.enum(['sqlite', 'postgres']),
    console_url: z.string(),
  }),
});
export type WhoamiOut = z.infer<typeof WhoamiOut>;
