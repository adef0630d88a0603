// Jobs as the relay hands them over, rendered with the shared voucher and master renderers against the
// emulator's demo company, so runner tests exercise the same XML the relay sends.
import { randomUUID } from 'node:crypto';
import { renderMasterImport, renderVoucherImport, renderVoucherRemovalImport, type AssignedJob } from '@ledgerwire/shared';

export function journalDocument(number: string, ledger = 'Office Rent', amount = 1000) {
  return {
    voucher_number: number,
    voucher_type: 'Journal',
    party_ledger: 'HDFC Bank',
    date: '2026-04-15',
    narration: `test ${number}`,
    ledger_entries: [
      { ledger_name: ledger, amount, is_debit: true },
      { ledger_name: 'HDFC Bank', amount, is_debit: false },
    ],
  };
}

/** A ledger create (or, with `action`, alteration or deletion) job for the company. */
export function ledgerJob(company: { guid: string; name: string }, name: string, options: { parent?: string; action?: 'Create' | 'Alter' | 'Delete' } = {}): AssignedJob {
  const jobId = randomUUID();
  const xml = renderMasterImport('ledger', { name, parent: options.parent ?? 'Sundry Debtors' }, { companyName: company.name, action: options.action ?? 'Create' });
  return { ...jobFields(company, jobId, 1), job_type: 'master', event_type: `ledger.${(options.action ?? 'Create').toLowerCase()}`, xml, books_voucher_guid: null };
}

function jobFields(company: { guid: string; name: string }, jobId: string, attempt: number) {
  return {
    job_id: jobId,
    company_id: 1,
    books_company_guid: company.guid,
    books_company_name: company.name,
    remote_id: jobId,
    attempt,
    lease_expires_at: new Date(Date.now() + 600_000).toISOString(),
  };
}

/**
 * A job that alters, deletes or cancels the voucher with this GUID (the transaction's target), in the
 * shapes the relay renders: an alteration under the REMOTEID the voucher was created with (`createdAs`,
 * its create job's id), a cancel or delete by Master ID, voucher type and date.
 */
export function voucherActionJob(
  company: { guid: string; name: string },
  document: ReturnType<typeof journalDocument>,
  action: 'Alter' | 'Delete' | 'Cancel',
  targetGuid: string,
  createdAs = '',
): AssignedJob {
  const jobId = randomUUID();
  const masterId = parseInt(targetGuid.slice(-8), 16);
  const xml =
    action === 'Alter'
      ? renderVoucherImport(document, { companyName: company.name, action, remoteId: createdAs, voucherKind: 'journal' })
      : renderVoucherRemovalImport({ companyName: company.name, action, masterId, date: document.date, voucherTypeName: document.voucher_type, narration: document.narration });
  return { ...jobFields(company, jobId, 1), job_type: 'voucher', event_type: `voucher.${action.toLowerCase()}`, xml, books_voucher_guid: targetGuid };
}

export function voucherJob(company: { guid: string; name: string }, document: ReturnType<typeof journalDocument>, attempt = 1): AssignedJob {
  const jobId = randomUUID();
  return {
    ...jobFields(company, jobId, attempt),
    job_type: 'voucher',
    event_type: 'voucher.create',
    xml: renderVoucherImport(document, { companyName: company.name, remoteId: jobId, voucherKind: 'journal' }),
    books_voucher_guid: null,
  };
}
