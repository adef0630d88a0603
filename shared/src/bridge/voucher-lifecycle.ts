// Cancelling and deleting a voucher in the books through the API (POST /api/v1/vouchers/{voucher}/cancel
// and …/delete): QuickBooks Web Connector integrators' void and delete. Asynchronous like every write:
// the answer is the acceptance, the outcome is read from the transaction.
import { z } from 'zod';
import { CallerTransactionId } from './transactions.js';

export const VOUCHER_LIFECYCLE_ACTIONS = ['cancel', 'delete'] as const;
export type VoucherLifecycleAction = (typeof VOUCHER_LIFECYCLE_ACTIONS)[number];

export const VoucherLifecycleParams = z.object({
  voucher: z
    .string()
    .min(1)
    .max(200)
    .describe(
      'The voucher: its books_voucher_guid, or the transaction_id (your own, or the job id) of the write that booked it',
    ),
});
export type VoucherLifecycleParams = z.infer<typeof VoucherLifecycleParams>;

export const VoucherCancelIn = z
  .object({
    transaction_id: CallerTransactionId.optional(),
    narration: z
      .string()
      .min(1, 'must not be empty')
      .max(2000)
      .optional()
      .describe('Narration the cancelled voucher keeps (the books strip its entries and keep the voucher, marked cancelled)'),
  })
  .strict()
  .meta({ id: 'VoucherCancelIn', examples: [{ transaction_id: 'inv-1042-void', narration: 'Voided: order cancelled by the customer' }] });
export type VoucherCancelIn = z.infer<typeof VoucherCancelIn>;

export const VoucherDeleteIn = z
  .object({ transaction_id: CallerTransactionId.optional() })
  .strict()
  .meta({ id: 'VoucherDeleteIn', examples: [{ transaction_id: 'inv-1042-delete' }] });
export type VoucherDeleteIn = z.infer<typeof VoucherDeleteIn>;
