// Master creation (nine types): the body is validated by the route's schema for its type, rendered
// to the import XML and queued like a voucher, with its fingerprint (a repeated transaction_id with
// another body is a 409, see enqueue-job.ts); the job's outcome carries books_master_id.
import { MasterRenderError, type AcceptanceOut, type AnyMasterWriteIn, type MasterType } from '@ledgerwire/shared';
import { AppError } from '../../../errors/catalogue.js';
// The messaging API's canonical-JSON fingerprint, so both APIs tell a repeat from a reuse the same way.
import { requestFingerprint } from '../../../foundation/request-fingerprint.js';
import type { CompanyRow } from '../../store/companies/company-repository.js';
import { newJobId, systemClock, type Clock } from '../../store/bridge-ids.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { renderJobXml, type JobXmlSource } from '../jobs/render-job-xml.js';
import { freshJobColumns } from './job-row-defaults.js';
import type { WriteAcceptance } from './voucher-write-service.js';

/** The XML now, so a body the renderer refuses is a 422 for the caller rather than a failed job. */
function renderOrRefuse(job: JobXmlSource, companyName: string): string {
  try {
    return renderJobXml(job, companyName);
  } catch (error) {
    if (error instanceof MasterRenderError) throw new AppError('validation_failed', { message: error.message, details: error.issues });
    throw error;
  }
}

export class MasterWriteService {
  private readonly queue: JobQueue;
  private readonly clock: Clock;

  constructor(deps: { queue: JobQueue; clock?: Clock }) {
    this.queue = deps.queue;
    this.clock = deps.clock ?? systemClock;
  }

  async submit(company: CompanyRow, type: MasterType, body: AnyMasterWriteIn, ownTransactionId: string | undefined): Promise<WriteAcceptance & { acceptance: AcceptanceOut }> {
    const jobId = newJobId();
    const companyName = company.books_company_name ?? company.name;
    const document = JSON.stringify(body);
    const now = this.clock().toISOString();
    const payload = JSON.stringify({ kind: 'master', master_type: type, name: body.name });
    const { row, created } = await this.queue.enqueue({
      job_id: jobId,
      company_id: company.id,
      application_id: company.application_id,
      client_transaction_id: ownTransactionId ?? null,
      job_type: 'master',
      event_type: `${type}.create`,
      master_type: type,
      payload,
      document,
      xml: renderOrRefuse({ job_type: 'master', job_id: jobId, target_voucher_guid: null, payload, master_type: type, document }, companyName),
      xml_company_name: companyName,
      target_voucher_guid: null,
      request_fingerprint: requestFingerprint({ master_type: type, document: body }),
      ...freshJobColumns(now),
    });
    return {
      acceptance: { success: true, transaction_id: row.job_id, job_id: row.job_id, company_id: row.company_id, request_type: 'in' },
      replayed: !created,
    };
  }
}
