// /api/v1/customers bodies. A customer is one end-user business; its token is the connector's
// enrolment secret and is shown only when created or rotated.
import { z } from 'zod';

export const CustomerIn = z
  .object({
    name: z.string().trim().min(1).max(200),
    external_id: z.string().trim().min(1).max(200).optional().describe("The caller's own id for this business"),
  })
  .strict();
export type CustomerIn = z.infer<typeof CustomerIn>;

export const CustomerOut = z.object({
  id: z.string(),
  name: z.string(),
  external_id: z.string().nullable(),
  created_at: z.string(),
});
export type CustomerOut = z.infer<typeof CustomerOut>;

export const CustomerWithTokenOut = CustomerOut.extend({
  token: z.string().describe('Enrolment secret for the connector; shown only here'),
});

export const CustomerCreatedOut = z.object({ success: z.literal(true), customer: CustomerWithTokenOut });
export type CustomerCreatedOut = z.infer<typeof CustomerCreatedOut>;

export const CustomerListOut = z.object({ success: z.literal(true), customers: z.array(CustomerOut) });
export type CustomerListOut = z.infer<typeof CustomerListOut>;
