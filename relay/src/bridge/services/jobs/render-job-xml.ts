// The one owner of a job's import XML: renderJobXml renders it from the job's fields and document,
// at acceptance (the write services, before the job is queued, so a body the renderer refuses is a
// 422 for the caller rather than a failed job) and again at claim (job-queue.ts, when the company's
// books name changed since). Voucher, master and cancel/delete jobs each go through it; the books-XML
// module in shared does the rendering.
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
import { parseJson } from '../../store/bridge-ids.js';
import { lifecycleActionOf, renderStoredLifecycleXml } from '../writes/voucher-lifecycle-job.js';
import type { TransactionDocumentRow, TransactionRow } from '../../store/jobs/transaction-record.js';

/** What rendering reads: the job's row fields and its submitted document (JSON). */
export type JobXmlSource = Pick<TransactionRow, 'job_type' | 'job_id' | 'target_voucher_guid' | 'payload' | 'master_type'> &
  Pick<TransactionDocumentRow, 'document'>;

/**
 * A job's import XML for the books company `companyName`. `parsedVoucher`: at acceptance the write
 * route's schema has just parsed the voucher document; passing it spares parsing the stored text again.
 */
export function renderJobXml(job: JobXmlSource, companyName: string, parsedVoucher?: VoucherDocumentIn): string {
  if (job.job_type === 'master') {
    return renderMasterImport(job.master_type as MasterType, JSON.parse(job.document) as AnyMasterWriteIn, { companyName });
  }
  // A cancel or delete keeps what finds the voucher in the books, not a voucher document.
  if (lifecycleActionOf(job.payload)) return renderStoredLifecycleXml(job.document, companyName);
  const { voucher_kind: kind, target_job_id: targetJobId } = parseJson<{ voucher_kind?: VoucherKind; target_job_id?: string }>(job.payload, {});
  const options = voucherImportOptions({ jobId: job.job_id, targetVoucherGuid: job.target_voucher_guid, targetJobId, kind }, companyName);
  return parsedVoucher === undefined
    ? renderVoucherImport(JSON.parse(job.document) as VoucherDocumentInput, options)
    : renderParsedVoucherImport(parsedVoucher, options);
}

type VoucherJobFields = Readonly<{ jobId: string; targetVoucherGuid: string | null; targetJobId: string | undefined; kind: VoucherKind | undefined }>;

function voucherImportOptions(job: VoucherJobFields, companyName: string): VoucherImportOptions {
  // An alteration re-sends the voucher under the REMOTEID it was created with: its create job's id.
  return {
    companyName,
    remoteId: job.targetVoucherGuid && job.targetJobId ? job.targetJobId : job.jobId,
    action: job.targetVoucherGuid ? 'Alter' : 'Create',
    ...(job.kind ? { voucherKind: job.kind } : {}),
  };
}
