// Cancelling and deleting a voucher in the books (POST /api/v1/vouchers/{voucher}/cancel | /delete):
// asynchronous like every write. The voucher is found among the company's completed writes and pulled
// vouchers (voucher-target.ts); the job renders the cancel or delete TallyPrime was seen to honour (by
// Master ID, voucher type and date) and becomes a job of the company, read back at /transactions/{job}.
// A voucher the books no longer have fails the transaction with VOUCHER_NOT_FOUND, as the books say so.
import type { VoucherCancelIn, VoucherDeleteIn, VoucherLifecycleAction } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import { requestFingerprint } from '../../../foundation/request-fingerprint.js';
import { newJobId, systemClock, type Clock } from '../../store/bridge-ids.js';
import type { CompanyRow } from '../../store/companies/company-repository.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { freshJobColumns } from './job-row-defaults.js';
import { renderJobXml } from '../jobs/render-job-xml.js';
import type { VoucherLifecycleDocument } from './voucher-lifecycle-job.js';
import { findVoucherTarget } from './voucher-target.js';
import type { WriteAcceptance } from './voucher-write-service.js';

export class VoucherLifecycleService {
  private readonly db: Kysely<Database>;
  private readonly queue: JobQueue;
  private readonly clock: Clock;

  constructor(deps: { db: Kysely<Database>; queue: JobQueue; clock?: Clock }) {
    this.db = deps.db;
    this.queue = deps.queue;
    this.clock = deps.clock ?? systemClock;
  }

  async submit(company: CompanyRow, action: VoucherLifecycleAction, voucher: string, body: VoucherCancelIn | VoucherDeleteIn): Promise<WriteAcceptance> {
    const target = await findVoucherTarget(this.db, company, voucher);
    if (!target) {
      throw new AppError('voucher_not_found', {
        details: [{ field: 'voucher', message: 'neither a books_voucher_guid nor the transaction_id of a completed voucher write of this company' }],
      });
    }
    if (target.masterId === null || target.date === '' || target.voucherType === '') {
      // Only a voucher the books have not been read for and whose write did not report its Master ID.
      throw new AppError('conflict', {
        message: 'The service does not know where the books keep this voucher yet (its Master ID, date and type): retry after the next sync',
      });
    }
    const narration = 'narration' in body ? body.narration : undefined;
    const document: VoucherLifecycleDocument = {
      action,
      master_id: target.masterId,
      date: target.date,
      voucher_type: target.voucherType,
      ...(narration === undefined ? {} : { narration }),
    };
    const companyName = company.books_company_name ?? company.name;
    const kind = target.voucherKind ?? 'voucher';
    const jobId = newJobId();
    const now = this.clock().toISOString();
    const payload = JSON.stringify({
      kind: 'voucher',
      action,
      voucher_kind: target.voucherKind,
      voucher_type: target.voucherType,
      voucher_number: target.voucherNumber,
      date: target.date,
      books_voucher_guid: target.guid,
      ...(target.originJobId ? { target_job_id: target.originJobId } : {}),
    });
    const storedDocument = JSON.stringify(document);
    const { row, created } = await this.queue.enqueue({
      job_id: jobId,
      company_id: company.id,
      application_id: company.application_id,
      client_transaction_id: body.transaction_id ?? null,
      job_type: 'voucher',
      event_type: `${kind}.${action}`,
      master_type: null,
      payload,
      document: storedDocument,
      xml: renderJobXml({ job_type: 'voucher', job_id: jobId, target_voucher_guid: target.guid, payload, master_type: null, document: storedDocument }, companyName),
      xml_company_name: companyName,
      target_voucher_guid: target.guid,
      request_fingerprint: requestFingerprint({ action, books_voucher_guid: target.guid, narration: narration ?? null }),
      ...freshJobColumns(now),
    });
    return {
      acceptance: { success: true, transaction_id: row.job_id, job_id: row.job_id, company_id: row.company_id, request_type: 'in' },
      replayed: !created,
    };
  }
}
