// Bodies of the console's accounting-bridge queries (/admin/v1/console/…): companies as support sees
// them (names, not ids; the connector's last report; the queue and why it waits) and transactions
// searched by voucher number, party, amount and date.
import { z } from 'zod';
import { TransactionStatus, WaitingReasonOut } from '../bridge/transactions.js';
import { IsoDate } from '../bridge/wire-text.js';

export const ConsoleCompanySearchQuery = z.object({
  application_id: z.string().min(1).max(100).optional(),
  q: z.string().trim().min(1).max(200).optional().describe('Part of the company’s, its customer’s or its books company’s name, any case'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ConsoleCompanySearchQuery = z.infer<typeof ConsoleCompanySearchQuery>;

export const ConsoleCompanyOverviewOut = z.object({
  company_id: z.number().int(),
  name: z.string(),
  application_id: z.string(),
  application_name: z.string().nullable(),
  customer_id: z.string().nullable(),
  customer_name: z.string().nullable(),
  paired: z.boolean(),
  connector_id: z.string().nullable(),
  connector_machine: z.string().nullable(),
  connector_online: z.boolean(),
  connector_last_seen_at: z.string().nullable().describe('When the paired connector last reported'),
  books_running: z.boolean(),
  books_company_guid: z.string().nullable(),
  books_company_name: z.string().nullable(),
  company_open: z.boolean().describe('The paired books company is open in the books now'),
  jobs_queued: z.number().int(),
  jobs_processing: z.number().int(),
  jobs_failed: z.number().int(),
  oldest_queued_at: z.string().nullable(),
  /** What blocks every queued write of the company, or how many the books are importing; null when nothing waits. */
  waiting_reason: WaitingReasonOut.nullable(),
});
export type ConsoleCompanyOverviewOut = z.infer<typeof ConsoleCompanyOverviewOut>;

export const ConsoleCompanySearchOut = z.object({ success: z.literal(true), total: z.number().int(), companies: z.array(ConsoleCompanyOverviewOut) });
export type ConsoleCompanySearchOut = z.infer<typeof ConsoleCompanySearchOut>;

export const ConsoleCompanyOverviewEnvelopeOut = z.object({ success: z.literal(true), company: ConsoleCompanyOverviewOut });
export type ConsoleCompanyOverviewEnvelopeOut = z.infer<typeof ConsoleCompanyOverviewEnvelopeOut>;

/** An amount as typed in a search box: up to 2 decimal places, no sign. */
const SearchAmount = z
  .string()
  .trim()
  .regex(/^\d{1,13}(\.\d{1,2})?$/, 'must be an amount such as 1250 or 1250.50')
  .describe('The voucher’s amount (the party’s amount, else the debit total), exactly');

export const ConsoleTransactionSearchQuery = z
  .object({
    application_id: z.string().min(1).max(100).optional(),
    company_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    status: TransactionStatus.optional(),
    voucher_number: z.string().trim().min(1).max(200).optional().describe('Part of the voucher number, any case'),
    party: z.string().trim().min(1).max(400).optional().describe('Part of the party ledger’s name, any case'),
    amount: SearchAmount.optional(),
    date_from: IsoDate.optional().describe('Voucher date on or after, YYYY-MM-DD'),
    date_to: IsoDate.optional().describe('Voucher date on or before, YYYY-MM-DD'),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((q) => q.date_from === undefined || q.date_to === undefined || q.date_from <= q.date_to, {
    message: 'must not be after date_to',
    path: ['date_from'],
  });
export type ConsoleTransactionSearchQuery = z.infer<typeof ConsoleTransactionSearchQuery>;

export const ConsoleTransactionSummaryOut = z.object({
  job_id: z.string(),
  transaction_id: z.string(),
  application_id: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  job_type: z.enum(['voucher', 'master']),
  event_type: z.string(),
  status: TransactionStatus,
  voucher_type: z.string().nullable(),
  voucher_number: z.string().nullable().describe('The voucher number the write sent'),
  books_voucher_number: z
    .string()
    .nullable()
    .describe('The number the books hold for the booked voucher, once a sync read it back: under automatic numbering the books assign their own'),
  party: z.string().nullable(),
  amount: z.number().nullable(),
  date: z.string().nullable(),
  master_name: z.string().nullable(),
  books_company_name: z.string().nullable().describe('The books company the XML was rendered for'),
  sent_to_books: z.boolean().describe('The XML was handed to a connector at least once'),
  connector_machine: z.string().nullable().describe('The machine the write was last handed to'),
  error_code: z.string().nullable(),
  error_label: z.string().nullable(),
  retry_count: z.number().int(),
  max_retries: z.number().int(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  waiting_reason: WaitingReasonOut.nullable(),
});
export type ConsoleTransactionSummaryOut = z.infer<typeof ConsoleTransactionSummaryOut>;

export const ConsoleTransactionSearchOut = z.object({ success: z.literal(true), total: z.number().int(), transactions: z.array(ConsoleTransactionSummaryOut) });
export type ConsoleTransactionSearchOut = z.infer<typeof ConsoleTransactionSearchOut>;

export const ConsoleTransactionSummaryEnvelopeOut = z.object({ success: z.literal(true), transaction: ConsoleTransactionSummaryOut });
export type ConsoleTransactionSummaryEnvelopeOut = z.infer<typeof ConsoleTransactionSummaryEnvelopeOut>;
