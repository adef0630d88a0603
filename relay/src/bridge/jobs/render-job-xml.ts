// The import XML of a job, rendered by the books-XML module in shared: at acceptance (so support can
// read it) and again at delivery when the company's books name changed since.
import { renderMasterImport, renderVoucherImport, type AnyMasterWriteIn, type MasterType, type VoucherDocumentInput, type VoucherKind } from '@ledgerwire/shared';
import { parseJson } from '../bridge-ids.js';
import type { TransactionDocumentRow, TransactionRow } from './transaction-record.js';

/** What rendering reads: the job's row fields and its submitted document. */
type RenderSource<K extends keyof TransactionRow> = Pick<TransactionRow, K> & Pick<TransactionDocumentRow, 'document'>;

export function renderVoucherJobXml(row: RenderSource<'job_id' | 'target_voucher_guid' | 'payload'>, companyName: string): string {
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

export function renderMasterJobXml(row: RenderSource<'master_type'>, companyName: string): string {
  const document = JSON.parse(row.document) as AnyMasterWriteIn;
  return renderMasterImport(row.master_type as MasterType, document, { companyName });
}

/** Either kind of job. */
export function renderJobXml(row: RenderSource<'job_type' | 'job_id' | 'target_voucher_guid' | 'payload' | 'master_type'>, companyName: string): string {
  return row.job_type === 'master' ? renderMasterJobXml(row, companyName) : renderVoucherJobXml(row, companyName);
}
