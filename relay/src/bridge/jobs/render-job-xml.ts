// The import XML of a job, rendered by the books-XML module in shared: at acceptance (so support can
// read it) and again at delivery when the company's books name changed since.
import {
  renderMasterImport,
  renderParsedVoucherImport,
  renderVoucherImport,
  type AnyMasterWriteIn,
  type MasterType,
  type VoucherDocumentIn,
  type VoucherDocumentInput,
  type VoucherImportOptions,
  type VoucherKind,
} from '@ledgerwire/shared';
import { parseJson } from '../bridge-ids.js';
import { lifecycleActionOf, renderStoredLifecycleXml } from '../writes/voucher-lifecycle-job.js';
import type { TransactionDocumentRow, TransactionRow } from './transaction-record.js';

/** What rendering reads: the job's row fields and its submitted document. */
type RenderSource<K extends keyof TransactionRow> = Pick<TransactionRow, K> & Pick<TransactionDocumentRow, 'document'>;

export function renderVoucherJobXml(row: RenderSource<'job_id' | 'target_voucher_guid' | 'payload'>, companyName: string): string {
  const document = JSON.parse(row.document) as VoucherDocumentInput;
  const { voucher_kind: kind, target_job_id: targetJobId } = parseJson<{ voucher_kind?: VoucherKind; target_job_id?: string }>(row.payload, {});
  return renderVoucherImport(document, voucherImportOptions({ jobId: row.job_id, targetVoucherGuid: row.target_voucher_guid, targetJobId, kind }, companyName));
}

type VoucherJobFields = Readonly<{ jobId: string; targetVoucherGuid: string | null; targetJobId: string | undefined; kind: VoucherKind | undefined }>;

/**
 * At acceptance: the XML renderVoucherJobXml renders from the stored job, from the document the
 * write route's schema has just parsed (so the renderer does not parse it a third time).
 */
export function renderAcceptedVoucherXml(document: VoucherDocumentIn, job: VoucherJobFields, companyName: string): string {
  return renderParsedVoucherImport(document, voucherImportOptions(job, companyName));
}

function voucherImportOptions(job: VoucherJobFields, companyName: string): VoucherImportOptions {
  // An alteration re-sends the voucher under the REMOTEID it was created with: its create job's id.
  return {
    companyName,
    remoteId: job.targetVoucherGuid && job.targetJobId ? job.targetJobId : job.jobId,
    action: job.targetVoucherGuid ? 'Alter' : 'Create',
    ...(job.kind ? { voucherKind: job.kind } : {}),
  };
}

export function renderMasterJobXml(row: RenderSource<'master_type'>, companyName: string): string {
  const document = JSON.parse(row.document) as AnyMasterWriteIn;
  return renderMasterImport(row.master_type as MasterType, document, { companyName });
}

/** Either kind of job. */
export function renderJobXml(row: RenderSource<'job_type' | 'job_id' | 'target_voucher_guid' | 'payload' | 'master_type'>, companyName: string): string {
  if (row.job_type === 'master') return renderMasterJobXml(row, companyName);
  // A cancel or delete keeps what finds the voucher in the books, not a voucher document.
  return lifecycleActionOf(row.payload) ? renderStoredLifecycleXml(row.document, companyName) : renderVoucherJobXml(row, companyName);
}
