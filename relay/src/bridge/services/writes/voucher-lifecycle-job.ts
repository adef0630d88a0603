// The document a cancel or delete job keeps (what the books need to find the voucher) and how its
// import XML reads; jobs/render-job-xml.ts's renderJobXml, the one owner of a job's XML, calls it.
import { renderVoucherRemovalImport, type VoucherLifecycleAction } from '@ledgerwire/shared';
import { parseJson } from '../../store/bridge-ids.js';

export type VoucherLifecycleDocument = Readonly<{
  action: VoucherLifecycleAction;
  master_id: number;
  /** ISO date the voucher has in the books. */
  date: string;
  voucher_type: string;
  narration?: string | undefined;
}>;

/** The lifecycle action a job's payload records, or undefined for any other job. */
export function lifecycleActionOf(payload: string): VoucherLifecycleAction | undefined {
  const action = parseJson<{ action?: unknown }>(payload, {}).action;
  return action === 'cancel' || action === 'delete' ? action : undefined;
}

function renderVoucherLifecycleXml(document: VoucherLifecycleDocument, companyName: string): string {
  return renderVoucherRemovalImport({
    companyName,
    action: document.action === 'cancel' ? 'Cancel' : 'Delete',
    masterId: document.master_id,
    date: document.date,
    voucherTypeName: document.voucher_type,
    narration: document.narration,
  });
}

/** From a stored job document (JSON). */
export function renderStoredLifecycleXml(document: string, companyName: string): string {
  return renderVoucherLifecycleXml(JSON.parse(document) as VoucherLifecycleDocument, companyName);
}
