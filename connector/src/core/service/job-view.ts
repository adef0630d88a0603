// A job as the local UI lists it: which voucher or master it was (type, number, date, party, amount),
// how it ended, for a failure what to do about it, and for a job still waiting why it waits, in words
// for the person at the books (the error codes stay for support).
import { findOpenCompany } from '../presence/books-company.js';
import type { StoredJob } from '../state/job-store.js';
import { describeJobSubject, readVoucherFacts, type VoucherFacts } from './job-subject.js';

/** What the connector knows right now that holds jobs back: the books, the companies open, the relay. */
export type JobSituation = Readonly<{
  booksRunning: boolean | null;
  openCompanies: readonly Readonly<{ guid: string; name: string }>[];
  /** The job runner's own words when the books refused its last attempt (a dialog open, say). */
  runnerWaiting: string | null;
  relayOnline: boolean;
}>;

export type JobView = Readonly<{
  jobId: string;
  companyId: number;
  kind: string;
  /** The voucher's type and number or the master's name ("Receipt no. RCT/17"), null when its XML names neither. */
  subject: string | null;
  /** A voucher's type, number, date, party and amount; null for a master. */
  voucher: VoucherFacts | null;
  state: 'waiting' | 'importing' | 'completed' | 'failed';
  delivered: boolean;
  booksVoucherGuid: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  explanation: string;
  /** Why a job not yet done, or a result not yet reported, waits; null when nothing holds it back. */
  waitingReason: string | null;
  receivedAt: string;
  updatedAt: string;
}>;

const ADVICE: Readonly<Record<string, string>> = {
  MASTER_NOT_FOUND: 'A ledger, stock item or other master named in the voucher does not exist in this company. Create it in TallyPrime (exactly as spelt) or correct the name, then send the voucher again.',
  UNBALANCED_ENTRIES: 'The debits and credits of the voucher do not add up. The sending program must correct the amounts.',
  VOUCHER_TYPE_NOT_FOUND: 'The voucher type does not exist in this company. Create it in TallyPrime or use an existing type.',
  VOUCHER_TYPE_MISMATCH: 'The voucher names a voucher type of another kind (a payment type on a receipt, say), which TallyPrime would book as that kind; nothing was imported. The sending program must use a voucher type of the right kind.',
  BILL_NOT_OUTSTANDING: 'The bill the voucher settles is not outstanding for this party. Check the bill reference.',
  GST_VALIDATION_FAILED: 'The GST details were refused. Check that GST is enabled for the company and the GST fields are right.',
  DUPLICATE_VOUCHER_NUMBER: 'A voucher with this number already exists and the voucher type refuses duplicates.',
  MASTER_ALREADY_EXISTS: 'A master with this name already exists.',
  COMPANY_NOT_OPEN: 'The company is not open in TallyPrime. Open it; the sending program can then send the voucher again.',
  BOOKS_NOT_RUNNING: 'TallyPrime was not running.',
  BOOKS_IMPORT_FAILED: 'TallyPrime refused the voucher; the message says why.',
};

/**
 * Why a job waits: for one not done, the books or its company; for a result not reported, the relay.
 * Null when nothing holds it back (a waiting job then just waits for its turn).
 */
export function jobWaitingReason(job: StoredJob, situation: JobSituation | undefined): string | null {
  if (situation === undefined) return null;
  if (job.outcome) return !job.reported && !situation.relayOnline ? 'The relay cannot be reached: the result is kept here and sent when it is back.' : null;
  if (job.state === 'importing') return null;
  if (situation.booksRunning === false) return 'TallyPrime is not running (or its XML server is off). Start it and this job runs.';
  if (situation.booksRunning && findOpenCompany(situation.openCompanies, job.booksCompanyGuid, job.booksCompanyName) === undefined) {
    return `"${job.booksCompanyName}" is not open in TallyPrime. Open it and this job runs.`;
  }
  if (situation.runnerWaiting) return `TallyPrime did not take it yet: ${situation.runnerWaiting}.`;
  return null;
}

/**
 * `xml`: the job's import XML, which says which voucher or master it is (null when not at hand);
 * `situation`: the books, companies and relay now, to say why a job waits.
 */
export function explainJob(job: StoredJob, xml: string | null = null, situation?: JobSituation): JobView {
  const outcome = job.outcome;
  const state = outcome ? outcome.status : job.state === 'importing' ? 'importing' : 'waiting';
  const waitingReason = jobWaitingReason(job, situation);
  let explanation: string;
  if (!outcome) {
    explanation = job.state === 'importing' ? 'Being imported (or checking in the books whether an interrupted import went in).' : (waitingReason ?? 'Waiting for its turn in TallyPrime.');
  } else if (outcome.status === 'completed') {
    explanation = `Booked in TallyPrime${outcome.books_voucher_guid ? ` (GUID ${outcome.books_voucher_guid})` : ''}.`;
  } else {
    explanation = `${outcome.error_message} — ${ADVICE[outcome.error_code] ?? ADVICE.BOOKS_IMPORT_FAILED}`;
  }
  return {
    jobId: job.jobId,
    companyId: job.companyId,
    kind: `${job.jobType} (${job.eventType})`,
    subject: describeJobSubject(job.jobType, xml),
    voucher: readVoucherFacts(job.jobType, xml),
    state,
    delivered: job.reported,
    booksVoucherGuid: outcome?.status === 'completed' ? (outcome.books_voucher_guid ?? null) : null,
    errorCode: outcome?.status === 'failed' ? outcome.error_code : null,
    errorMessage: outcome?.status === 'failed' ? outcome.error_message : null,
    explanation,
    waitingReason,
    receivedAt: job.receivedAt,
    updatedAt: job.updatedAt,
  };
}
