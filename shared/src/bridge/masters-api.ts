// /api/v1/masters/{type}: creation jobs. The body of each type is the books-XML module's write schema
// (masterWriteSchemaFor) plus the caller's own optional transaction id.
import { z } from 'zod';
import { CallerTransactionId, TransactionRecordOut, TransactionStatus } from './transactions.js';

export const MasterWriteExtrasIn = z.object({ transaction_id: CallerTransactionId.optional() });

export const MasterJobListQuery = z.object({
  company_id: z.string().optional(),
  status: TransactionStatus.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const MasterJobListOut = z.object({
  success: z.literal(true),
  master_type: z.string(),
  company_id: z.number().int(),
  total: z.number().int(),
  count: z.number().int(),
  transactions: z.array(TransactionRecordOut),
});
