// Transactions (jobs): the acceptance answer of every asynchronous write, the status record, and
// the list bodies. The caller's own id travels in the optional body field `transaction_id`.
import { z } from 'zod';
import { FixBy } from './end-user-guidance.js';

export const TRANSACTION_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export const TransactionStatus = z.enum(TRANSACTION_STATUSES);
export type TransactionStatus = z.infer<typeof TransactionStatus>;

/** Optional fields every write body may carry besides its document. */
export const CallerTransactionId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^\S(.*\S)?$/, 'must not start or end with whitespace')
  .describe('Your own id for this write; a repeat for the same company returns the first acceptance');

export const AcceptanceOut = z.object({
  success: z.literal(true),
  transaction_id: z.string().describe('The job identifier (the contract names it transaction_id): read the outcome at GET /api/v1/transactions/{transaction_id}'),
  job_id: z
    .string()
    .describe('The same job identifier under its own name: the relay made it, so it is never the transaction_id you sent in the body'),
  company_id: z.number().int(),
  request_type: z.literal('in'),
});
export type AcceptanceOut = z.infer<typeof AcceptanceOut>;

export const WAITING_REASON_CODES = [
  'company_disconnected',
  'connector_offline',
  'books_not_running',
  'company_not_open',
  'behind_earlier_jobs',
  'importing',
] as const;
export const WaitingReasonCode = z.enum(WAITING_REASON_CODES);
export type WaitingReasonCode = z.infer<typeof WaitingReasonCode>;

export const WaitingReasonOut = z
  .object({
    code: WaitingReasonCode,
    message: z.string().describe('What the transaction waits for and what would move it, in words'),
    jobs_ahead: z.number().int().min(1).optional().describe('With behind_earlier_jobs: earlier jobs of the company still to finish'),
    user_message: z.string().describe('A sentence to show your end user as it stands: what to do at TallyPrime or the PC it runs on, if anything'),
    fix_by: FixBy,
  })
  .meta({ id: 'WaitingReasonOut' });
export type WaitingReasonOut = z.infer<typeof WaitingReasonOut>;

export const TransactionRecordOut = z.object({
  job_id: z.string(),
  transaction_id: z.string().describe("Your own id when you sent one, else the job id"),
  service_company_id: z.number().int(),
  job_type: z.enum(['voucher', 'master']),
  event_type: z.string(),
  status: TransactionStatus,
  retry_count: z.number().int(),
  max_retries: z.number().int(),
  books_voucher_guid: z.string().nullable(),
  books_master_id: z.string().nullable(),
  books_alter_id: z.string().nullable(),
  books_voucher_number: z
    .string()
    .nullable()
    .optional()
    .describe(
      'The voucher number the books hold, once a sync has read the voucher back: under automatic numbering the books discard the voucher_number sent and assign their own',
    ),
  error_code: z.string().nullable(),
  error_label: z.string().nullable(),
  error_message: z.string().nullable(),
  user_message: z
    .string()
    .nullable()
    .describe('On a failed transaction: a sentence to show your end user as it stands, naming what to fix in TallyPrime (the ledger, the voucher type, the closed company, the PC); null otherwise'),
  fix_by: FixBy.nullable().describe('On a failed transaction: who can fix it; null otherwise'),
  payload: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
  waiting_reason: WaitingReasonOut.nullable().describe(
    'Why a queued or processing transaction has not finished yet; null when it is not waiting (and on completed or failed ones)',
  ),
});
export type TransactionRecordOut = z.infer<typeof TransactionRecordOut>;

export const TransactionOut = z.object({ success: z.literal(true), transaction: TransactionRecordOut });
export type TransactionOut = z.infer<typeof TransactionOut>;

export const TransactionListQuery = z.object({
  company_id: z.string().optional(),
  status: TransactionStatus.optional(),
  job_type: z.enum(['voucher', 'master']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const TransactionListOut = z.object({
  success: z.literal(true),
  company_id: z.number().int(),
  total: z.number().int(),
  count: z.number().int(),
  transactions: z.array(TransactionRecordOut),
});
export type TransactionListOut = z.infer<typeof TransactionListOut>;

export const ConnectorJobsOut = z.object({
  success: z.literal(true),
  connector: z.object({
    id: z.string(),
    machine_name: z.string(),
    online: z.boolean(),
    books_running: z.boolean(),
    last_seen_at: z.string().nullable(),
  }),
  count: z.number().int(),
  jobs: z.array(TransactionRecordOut),
});
export type ConnectorJobsOut = z.infer<typeof ConnectorJobsOut>;

/**
 * `data` of the transaction.completed and transaction.failed webhooks: the transaction as
 * GET /api/v1/transactions/{job} shows it (no waiting_reason: it has finished), plus company_id.
 */
export const TransactionEventData = TransactionRecordOut.omit({ waiting_reason: true }).extend({
  company_id: z.number().int().describe('The company the write went to (the same as service_company_id)'),
});
export type TransactionEventData = z.infer<typeof TransactionEventData>;

export const TRANSACTION_EVENT_TYPES = ['transaction.completed', 'transaction.failed'] as const;

/** The body of a transaction.completed or transaction.failed webhook request. */
export const TransactionEventOut = z.object({
  event_id: z.string().describe('evt_…, also the webhook-id header: deduplicate on it'),
  type: z.enum(TRANSACTION_EVENT_TYPES),
  created_at: z.string().describe('When the outcome was recorded (ISO 8601)'),
  data: TransactionEventData,
});
export type TransactionEventOut = z.infer<typeof TransactionEventOut>;
