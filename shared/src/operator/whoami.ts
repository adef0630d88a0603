// GET /admin/v1/whoami: who the operator credential is and which relay answered.
import { z } from 'zod';
import { OperatorRole } from './operator-accounts.js';

export const WhoamiOut = z.object({
  success: z.literal(true),
  operator: z.object({
    kind: z.enum(['bootstrap', 'account']).describe('The bootstrap token (acts as admin) or a named operator account'),
    id: z.string().describe('The account id (opr_…), or "bootstrap"'),
    name: z.string(),
    role: OperatorRole,
    token_source: z.enum(['env', 'data-dir', 'account']).describe('RELAY_ADMIN_TOKEN, the token generated into DATA_DIR, or an account token'),
  }),
  relay: z.object({
    installation_id: z.string(),
    version: z.string(),
    database: z.enum(['sqlite', 'postgres']),
    console_url: z.string(),
  }),
});
export type WhoamiOut = z.infer<typeof WhoamiOut>;
