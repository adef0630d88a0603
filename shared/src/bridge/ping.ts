// GET /api/v1/ping: the credential authenticates; says which key and application it is.
import { z } from 'zod';

export const PingOut = z.object({
  success: z.literal(true),
  key_id: z.string(),
  application_id: z.string(),
  environment: z.enum(['test', 'live']),
  capabilities: z.array(z.string()),
});
export type PingOut = z.infer<typeof PingOut>;
