// /api/v1/pulled-vouchers bodies. Results sit under `invoices` (list) and `invoice` (detail) for every
// voucher kind — historical names the contract keeps. Pulled dates are compact `YYYYMMDD`.
import { z } from 'zod';
import { IsoDate } from './wire-text.js';

export const PULLED_VOUCHER_STATUSES = ['pending', 'acknowledged'] as const;

const QUERY_DATE_FORM = /^(\d{4}-\d{2}-\d{2}|\d{8})$/;

/** A query date in either accepted form, written `YYYY-MM-DD` (the form IsoDate checks). */
function isoForm(value: string): string {
  return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : value;
}

/**
 * A date filter: `YYYY-MM-DD` or the compact `YYYYMMDD` pulled dates are shown in, and a day that exists
 * by the same rule writes use (IsoDate), so 2026-02-30 is refused rather than compared as text.
 */
const QueryDate = z
  .string()
  .regex(QUERY_DATE_FORM, { message: 'must be a date, YYYY-MM-DD (or YYYYMMDD)', abort: true })
  .superRefine((value, ctx) => {
    const checked = IsoDate.safeParse(isoForm(value));
    if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
  })
  .describe('Inclusive');

/** start_date after end_date selects nothing by construction: refused, so a swapped pair is noticed. */
function checkDateRange(query: { start_date?: string | undefined; end_date?: string | undefined }, ctx: z.RefinementCtx): void {
  const { start_date: start, end_date: end } = query;
  if (start === undefined || end === undefined) return;
  if (isoForm(start) > isoForm(end)) ctx.addIssue({ code: 'custom', path: ['start_date'], message: `must not be after end_date (${start} is after ${end})` });
}

export const PulledVoucherListQuery = z.object({
  company_id: z.string().optional().describe('Required (or the X-Service-Company header)'),
  voucher_kind: z.string().min(1).optional().describe('Normalised kind, e.g. sales, purchase, receipt'),
  voucher_type: z.string().min(1).optional().describe('Exact voucher type name'),
  status: z.enum(PULLED_VOUCHER_STATUSES).optional(),
  start_date: QueryDate.optional(),
  end_date: QueryDate.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
}).superRefine(checkDateRange);
export type PulledVoucherListQuery = z.infer<typeof PulledVoucherListQuery>;

export const PulledVoucherOut = z
  .looseObject({
    transaction_id: z.string().describe('External key of the pulled voucher'),
    books_voucher_guid: z.string(),
    books_master_id: z.string().nullable(),
    books_alter_id: z.string(),
    voucher_kind: z.string(),
    voucher_type: z.string(),
    voucher_number: z.string().nullable(),
    voucher_date: z.string().describe('YYYYMMDD'),
    party_ledger: z.string().nullable(),
    status: z.enum(PULLED_VOUCHER_STATUSES),
    bill_allocations: z.array(z.record(z.string(), z.unknown())),
    ledger_entries: z.array(z.record(z.string(), z.unknown())),
    inventory_entries: z.array(z.record(z.string(), z.unknown())),
    source_job_id: z.string().nullable().describe('The job that wrote this voucher, when it came through this service'),
    acknowledged_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'PulledVoucherOut' });
export type PulledVoucherOut = z.infer<typeof PulledVoucherOut>;

export const PulledVoucherListOut = z.object({
  success: z.literal(true),
  company_id: z.number().int(),
  total: z.number().int(),
  count: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  invoices: z.array(PulledVoucherOut),
});
export type PulledVoucherListOut = z.infer<typeof PulledVoucherListOut>;

export const PulledVoucherDetailOut = z.object({ success: z.literal(true), invoice: PulledVoucherOut });
export type PulledVoucherDetailOut = z.infer<typeof PulledVoucherDetailOut>;

export const PulledVoucherAckIn = z
  .object({
    company_id: z.number().int().positive().max(2_147_483_647),
    transaction_ids: z.array(z.string().min(1).max(100)).min(1).max(1000),
  })
  .strict();
export type PulledVoucherAckIn = z.infer<typeof PulledVoucherAckIn>;

export const PulledVoucherAckOut = z.object({
  success: z.literal(true),
  company_id: z.number().int(),
  acknowledged: z.number().int().describe('Vouchers that left the pending queue with this call'),
  already_acknowledged: z.number().int(),
  not_found: z.array(z.string()),
});
export type PulledVoucherAckOut = z.infer<typeof PulledVoucherAckOut>;

export const SyncStatisticsQuery = z.object({
  company_id: z.string().optional(),
  start_date: QueryDate.optional(),
  end_date: QueryDate.optional(),
}).superRefine(checkDateRange);

export const ReportEntryOut = z.object({
  key: z.string(),
  label: z.string(),
  enabled: z.boolean(),
  capability: z.string(),
  status: z.enum(['available', 'pending', 'disabled']).describe('pending: enabled, no snapshot yet'),
  rows: z.number().int(),
  last_updated_at: z.string().nullable(),
});
export type ReportEntryOut = z.infer<typeof ReportEntryOut>;

export const SyncStatisticsOut = z.object({
  success: z.literal(true),
  company_id: z.number().int(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  vouchers: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    acknowledged: z.number().int(),
    by_kind: z.record(z.string(), z.number().int()),
    last_synced_at: z.string().nullable(),
  }),
  masters: z.object({ total: z.number().int(), by_type: z.record(z.string(), z.number().int()) }),
  reports: z.array(ReportEntryOut),
});
export type SyncStatisticsOut = z.infer<typeof SyncStatisticsOut>;
