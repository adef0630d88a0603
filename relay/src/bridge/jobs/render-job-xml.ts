// The import XML of a job, rendered by the books-XML module in shared: at acceptance (so support can
// read it) and again at delivery when the company's books name changed since.
import { renderMasterImport, renderVoucherImport, type AnyMasterWriteIn, type MasterType, type VoucherDocumentInput, type VoucherKind } from '@ledgerwire/shared';
import { parseJson } from '../bridge-ids.js';
import type { TransactionRow } from './transaction-record.js';

export function renderVoucherJobXml(row: Pick<TransactionRow, 'document' | 'job_id' | 'target_voucher_guid' | 'payload'>, companyName: string): string {
  const document = JSON.parse(row.document) as VoucherDocumentInput;
  const kind = parseJson<{ voucher_kind?: VoucherKind }>(row.payload, {}).voucher_kind;
  return renderVoucherImport(document, {
    companyName,
    remoteId: row.job_id,
    action: row.target_voucher_guid ? 'Alter' : 'Create',
    ...(row.target_voucher_guid ? { alterGuid: row.target_voucher_guid } : {}),
    ...(kind ? { voucherKind: kind } : {}),
  });
}

export function renderMasterJobXml(row: Pick<TransactionRow, 'document' | 'master_type'>, companyName: string): string {
  const document = JSON.parse(row.document) as AnyMasterWriteIn;
  return renderMasterImport(row.master_type as MasterType, document, { companyName });
}

/** Either kind of job. */
export function renderJobXml(row: TransactionRow, companyName: string): string {
  return row.job_type === 'master' ? renderMasterJobXml(row, companyName) : renderVoucherJobXml(row, companyName);
}
