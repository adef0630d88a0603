// Finds a voucher of a company that a write targets (an alteration, a cancel, a delete), from what the
// service knows of it: the jobs that wrote it and the copy the sync pulled. What the books need to find
// it depends on the write (EVIDENCE.md in shared/src/books-xml): an alteration re-sends the voucher under
// the REMOTEID it was created with (the create job's id); a cancel or delete names its Master ID, voucher
// type and date in the books as they are now.
import { masterIdInBooksGuid } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import { parseJson } from '../../store/bridge-ids.js';
import type { CompanyRow } from '../../store/companies/company-repository.js';
import { clientTransactionIdUsed } from '../../store/writes/client-transaction-id-used.js';
import { findGuidOfCompletedVoucherJob } from '../../store/writes/find-guid-of-completed-voucher-job.js';
import { findPulledVoucherFacts } from '../../store/writes/find-pulled-voucher-facts.js';
import { listCompletedVoucherJobsOfGuid, type VoucherJobFacts } from '../../store/writes/list-completed-voucher-jobs-of-guid.js';
import { pulledVoucherWithGuidExists } from '../../store/writes/pulled-voucher-with-guid-exists.js';
import { voucherJobWithGuidExists } from '../../store/writes/voucher-job-with-guid-exists.js';

export type VoucherTargetFacts = Readonly<{
  guid: string;
  /** The job that booked it: its id is the REMOTEID the books know the voucher by. Null when another hand booked it. */
  originJobId: string | null;
  /** Null when neither a job outcome, the pulled copy nor the GUID's form tells it. */
  masterId: number | null;
  /** ISO date and type the voucher has in the books, as last known. */
  date: string;
  voucherType: string;
  voucherKind: string | null;
  voucherNumber: string | null;
  /** A delete the service ran on it completed: the books no longer have it. */
  deletedThroughApi: boolean;
}>;

type JobFacts = VoucherJobFacts;
type Payload = { action?: unknown; date?: unknown; voucher_type?: unknown; voucher_kind?: unknown; voucher_number?: unknown };

const isoOf = (compact: string) => (/^\d{8}$/.test(compact) ? `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6)}` : compact);
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The voucher `reference` names in the company: its books GUID, or the transaction id (the caller's own,
 * or the job id) of the write that booked it. Undefined when the service knows no such voucher.
 */
export async function findVoucherTarget(db: Kysely<Database>, company: CompanyRow, reference: string): Promise<VoucherTargetFacts | undefined> {
  const guid = (await knownGuid(db, company.id, reference)) ?? (await guidOfTransaction(db, company.id, reference));
  if (guid === undefined) return undefined;
  const [jobs, pulled] = await Promise.all([listCompletedVoucherJobsOfGuid(db, company.id, guid), findPulledVoucherFacts(db, company.id, guid)]);
  const actionOf = (job: JobFacts) => parseJson<Payload>(job.payload, {}).action;
  const origin = jobs.find((job) => actionOf(job) === 'create');
  const writes = jobs.filter((job) => actionOf(job) === 'create' || actionOf(job) === 'alter');
  const lastWrite = writes.at(-1);
  const lastChange = jobs.filter((job) => actionOf(job) !== 'cancel').at(-1);
  const written = lastWrite ? parseJson<Payload>(lastWrite.payload, {}) : undefined;
  // The pulled copy is the books' own view: it wins unless the service wrote the voucher after it was read.
  const pulledIsNewer = pulled !== undefined && pulled.deleted === 0 && (lastWrite?.completed_at ?? '') <= pulled.updated_at;
  const pulledMasterId = pulled ? text(parseJson<Record<string, unknown>>(pulled.data, {})['master_id']) : null;
  const masterId =
    Number(jobs.find((job) => job.books_master_id !== null)?.books_master_id ?? pulledMasterId ?? Number.NaN) ||
    (company.books_company_guid ? masterIdInBooksGuid(company.books_company_guid, guid) : null);
  const date = pulledIsNewer ? isoOf(pulled.voucher_date) : (text(written?.date) ?? (pulled ? isoOf(pulled.voucher_date) : ''));
  const voucherType = pulledIsNewer ? pulled.voucher_type : (text(written?.voucher_type) ?? pulled?.voucher_type ?? '');
  return {
    guid,
    originJobId: origin?.job_id ?? null,
    masterId: masterId !== null && Number.isSafeInteger(masterId) && masterId > 0 ? masterId : null,
    date,
    voucherType,
    voucherKind: text(written?.voucher_kind) ?? pulled?.voucher_kind ?? null,
    voucherNumber: (pulledIsNewer ? pulled.voucher_number : null) ?? text(written?.voucher_number) ?? pulled?.voucher_number ?? null,
    deletedThroughApi: lastChange !== undefined && actionOf(lastChange) === 'delete',
  };
}

/** The reference as a GUID the service has seen for the company: a job outcome or a pulled voucher. */
async function knownGuid(db: Kysely<Database>, companyId: number, reference: string): Promise<string | undefined> {
  const [job, pulled] = await Promise.all([voucherJobWithGuidExists(db, companyId, reference), pulledVoucherWithGuidExists(db, companyId, reference)]);
  return job || pulled ? reference : undefined;
}

/** The GUID a completed voucher job of the company booked, found by its job id or the caller's own id. */
async function guidOfTransaction(db: Kysely<Database>, companyId: number, reference: string): Promise<string | undefined> {
  return findGuidOfCompletedVoucherJob(db, companyId, reference);
}

/**
 * The job whose REMOTEID an alteration of `guid` is sent under (see render-job-xml.ts). Refused when the
 * service cannot alter the voucher in place: it knows no such voucher (422), it deleted it (409: the
 * books would book it again under a new GUID), or another hand booked it (422: no request shape was seen
 * to re-state such a voucher in place; a full-body Alter by Master ID booked a duplicate).
 * Null for a repeat of an earlier write (the caller's transaction_id): that one replays as it was.
 */
export async function alterationOrigin(db: Kysely<Database>, company: CompanyRow, guid: string, transactionId: string | undefined): Promise<string | null> {
  if (transactionId !== undefined) {
    if (await clientTransactionIdUsed(db, company.id, transactionId)) return null;
  }
  const target = await findVoucherTarget(db, company, guid);
  const refuse = (message: string) => new AppError('validation_failed', { message, details: [{ field: 'books_voucher_guid', message }] });
  if (!target || target.guid !== guid) throw refuse('names no voucher of this company: use the books_voucher_guid of a completed write (or of a pulled voucher)');
  if (target.deletedThroughApi) {
    throw new AppError('conflict', {
      message: 'The voucher was deleted through the API; the books would book the alteration as a new voucher. Write a new voucher instead.',
      details: [{ field: 'books_voucher_guid', message: 'deleted through the API' }],
    });
  }
  if (target.originJobId === null) {
    throw refuse(
      'names a voucher that was not booked through this API: TallyPrime offers no request seen to alter such a voucher in place (a full alteration addressed by Master ID booked a duplicate). Cancel or delete it and write a new voucher',
    );
  }
  return target.originJobId;
}
