// /api/v1/companies bodies. `company_id` is the service's own integer id, never the books' GUID.
import { z } from 'zod';
import { CONNECTION_PROBLEMS, FixBy } from './end-user-guidance.js';

export const CompanyIn = z
  .object({
    name: z.string().trim().min(1).max(200),
    customer_id: z.string().min(1).optional().describe('Attach to this customer at once'),
  })
  .strict();
export type CompanyIn = z.infer<typeof CompanyIn>;

export const CompanyOut = z.object({
  company_id: z.number().int(),
  name: z.string(),
  customer_id: z.string().nullable(),
  paired: z.boolean(),
  connector_id: z.string().nullable(),
  books_company_guid: z.string().nullable(),
  books_company_name: z.string().nullable(),
  pull_masters: z.boolean(),
  reports: z.object({ stock: z.boolean(), gst: z.boolean() }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CompanyOut = z.infer<typeof CompanyOut>;

export const CompanyCreatedOut = z.object({ success: z.literal(true), company_id: z.number().int(), company: CompanyOut });
export const CompanyResultOut = z.object({ success: z.literal(true), company: CompanyOut });
export const CompanyListOut = z.object({ success: z.literal(true), companies: z.array(CompanyOut) });

export const CompanyAttachIn = z.object({ customer_id: z.string().min(1) }).strict();
export type CompanyAttachIn = z.infer<typeof CompanyAttachIn>;

export const CompanyHealthOut = z.object({
  success: z.literal(true),
  company_id: z.number().int(),
  paired: z.boolean(),
  connector: z.object({
    id: z.string().nullable(),
    online: z.boolean(),
    machine: z.string().nullable(),
    version: z.string().nullable(),
    last_seen_at: z.string().nullable(),
  }),
  books: z.object({
    running: z.boolean(),
    company_open: z.boolean().describe('This company is open in the books'),
    last_checked_at: z.string().nullable(),
  }),
  attention: z
    .enum(CONNECTION_PROBLEMS)
    .nullable()
    .describe('What stops writes reaching the books now (the waiting_reason codes of the same names); null when nothing does'),
  user_message: z.string().nullable().describe('With attention: a sentence to show your end user as it stands, naming the PC or the company to look at'),
  fix_by: FixBy.nullable().describe('With attention: who can fix it'),
});
export type CompanyHealthOut = z.infer<typeof CompanyHealthOut>;
