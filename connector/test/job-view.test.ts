// How the local page explains a job: a failure's message, then what to do about it for its code.
import { describe, expect, it } from 'vitest';
import { explainJob } from '../src/core/service/job-view.js';
import type { StoredJob } from '../src/core/state/job-store.js';

const job: StoredJob = {
  seq: 1, jobId: 'job-1', companyId: 1, booksCompanyGuid: 'guid', booksCompanyName: 'Ledgerwire Demo Traders', jobType: 'voucher',
  eventType: 'receipt.create', remoteId: 'job-1', booksVoucherGuid: null, attempt: 1, state: 'settled', outcome: null,
  reported: true, receivedAt: '2026-11-25T10:00:00.000Z', updatedAt: '2026-11-25T10:00:01.000Z',
};

describe('job explanations', () => {
  it('a voucher type of another kind: nothing was imported, and the sender must change the type', () => {
    const message = 'The voucher type "Payment" derives from Payment in the books: it would be booked as a payment, not a receipt. Use a voucher type of the receipt kind. Nothing was imported.';
    const view = explainJob({ ...job, outcome: { status: 'failed', error_code: 'VOUCHER_TYPE_MISMATCH', error_label: 'Voucher type of another kind', error_message: message } });
    expect(view).toMatchObject({ state: 'failed', errorCode: 'VOUCHER_TYPE_MISMATCH' });
    expect(view.explanation).toBe(`${message} — The voucher names a voucher type of another kind (a payment type on a receipt, say), which TallyPrime would book as that kind; nothing was imported. The sending program must use a voucher type of the right kind.`);
  });

  it('a code without advice of its own gets the general one', () => {
    const view = explainJob({ ...job, outcome: { status: 'failed', error_code: 'SOMETHING_NEW', error_label: 'x', error_message: 'The books said no.' } as never });
    expect(view.explanation).toBe('The books said no. — TallyPrime refused the voucher; the message says why.');
  });
});
