// The nine voucher writes: validate the document for its endpoint's kind (422 when well-formed but
// wrong for the kind, when the books' voucher type is of another kind, or when its debits and credits
// do not net to zero as the books would count them), render the import XML, and queue the job with its
// body's fingerprint (a repeated transaction_id with another body is a 409, see enqueue-job.ts).
// Masters the voucher names are not checked here: a missing one fails the transaction later, as the
// contract says.
import {
  describeVoucherIssues,
  paiseOf,
  VoucherRenderError,
  VOUCHER_WRITE_ENDPOINTS,
  voucherImbalance,
  voucherKindWords,
  voucherEndpointPartsSchemaFor,
  writeTakesKind,
  type AcceptanceOut,
  type VoucherWriteIn,
  type VoucherWritePath,
} from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
// The messaging API's canonical-JSON fingerprint, so both APIs tell a repeat from a reuse the same way.
import { requestFingerprint } from '../../../foundation/request-fingerprint.js';
import type { CompanyRow } from '../../store/companies/company-repository.js';
import { newJobId, systemClock, type Clock } from '../../store/bridge-ids.js';
import { renderJobXml } from '../jobs/render-job-xml.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { freshJobColumns } from './job-row-defaults.js';
import { VoucherTypeKinds } from './voucher-kind-lookup.js';
import { alterationOrigin } from './voucher-target.js';

export type WriteAcceptance = Readonly<{ acceptance: AcceptanceOut; replayed: boolean }>;

/** The caller's body without its write-only fields: what the XML is rendered from. */
function documentOf(body: VoucherWriteIn) {
  const { transaction_id: _own, books_voucher_guid: _target, ...document } = body;
  return document;
}

/** The voucher's total for the summary: the party line, else the sum of debit lines. */
function totalOf(body: VoucherWriteIn): number {
  const party = body.ledger_entries.find((entry) => entry.is_party);
  if (party) return Math.abs(party.amount);
  const paise = body.ledger_entries.filter((entry) => entry.is_debit).reduce((sum, entry) => sum + paiseOf(Math.abs(entry.amount)), 0);
  return paise / 100;
}

/** The XML now, so a document the renderer refuses is a 422 for the caller rather than a failed job. */
function renderOrRefuse(render: () => string): string {
  try {
    return render();
  } catch (error) {
    if (error instanceof VoucherRenderError) throw new AppError('validation_failed', { message: error.message, details: error.issues });
    throw error;
  }
}

export class VoucherWriteService {
  private readonly db: Kysely<Database>;
  private readonly queue: JobQueue;
  private readonly clock: Clock;
  private readonly voucherTypes: VoucherTypeKinds;

  constructor(deps: { db: Kysely<Database>; queue: JobQueue; clock?: Clock; voucherTypes?: VoucherTypeKinds }) {
    this.db = deps.db;
    this.queue = deps.queue;
    this.clock = deps.clock ?? systemClock;
    this.voucherTypes = deps.voucherTypes ?? new VoucherTypeKinds({ db: deps.db });
  }

  /**
   * `input` is a body VoucherWriteIn parsed (the route's schema, a 400 when malformed); what is left to
   * check here is what makes a well-formed body wrong for this endpoint (422), without parsing it again.
   */
  async submit(company: CompanyRow, path: VoucherWritePath, input: VoucherWriteIn): Promise<WriteAcceptance> {
    const checked = voucherEndpointPartsSchemaFor(path).safeParse(input);
    if (!checked.success) {
      throw new AppError('validation_failed', {
        message: `The ${VOUCHER_WRITE_ENDPOINTS[path].label} is not valid`,
        details: describeVoucherIssues(checked.error),
      });
    }
    const body = checked.data;
    const endpoint = VOUCHER_WRITE_ENDPOINTS[path];
    const known = await this.voucherTypes.known(company.id, body.voucher_type);
    if (known && !writeTakesKind(endpoint.voucher_kind, known.kind)) {
      const message = `"${body.voucher_type}" is a ${voucherKindWords(known.kind)} voucher type in the books (it derives from ${known.reservedName}); a ${endpoint.label} needs a voucher type that derives from ${endpoint.reserved_voucher_type}`;
      throw new AppError('validation_failed', { message: `The ${endpoint.label} is not valid`, details: [{ field: 'voucher_type', message }] });
    }
    const kind = known?.kind ?? endpoint.voucher_kind;
    const imbalance = voucherImbalance(body, kind);
    if (imbalance) {
      throw new AppError('unbalanced_entries', {
        message: `The ${endpoint.label}'s ${imbalance.message}: the books refuse a voucher whose debits and credits do not net to zero`,
        details: [{ field: 'ledger_entries', message: imbalance.message }],
      });
    }
    const jobId = newJobId();
    const companyName = company.books_company_name ?? company.name;
    const target = body.books_voucher_guid ?? null;
    const targetJobId = target === null ? null : await alterationOrigin(this.db, company, target, body.transaction_id);
    // One copy of the document for its stored text, its XML and its fingerprint: none of them changes it.
    const parsedDocument = documentOf(body);
    const document = JSON.stringify(parsedDocument);
    const payload = JSON.stringify({
      kind: 'voucher',
      endpoint: path,
      action: target ? 'alter' : 'create',
      voucher_kind: kind,
      voucher_type: body.voucher_type,
      voucher_number: body.voucher_number,
      party_ledger: body.party_ledger,
      date: body.date,
      amount: totalOf(body),
      ...(target ? { books_voucher_guid: target } : {}),
      ...(targetJobId ? { target_job_id: targetJobId } : {}),
    });
    const now = this.clock().toISOString();
    const xml = renderOrRefuse(() =>
      renderJobXml({ job_type: 'voucher', job_id: jobId, target_voucher_guid: target, payload, master_type: null, document }, companyName, parsedDocument),
    );
    const { row, created } = await this.queue.enqueue({
      job_id: jobId,
      company_id: company.id,
      application_id: company.application_id,
      client_transaction_id: body.transaction_id ?? null,
      job_type: 'voucher',
      event_type: `${kind}.${target ? 'alter' : 'create'}`,
      master_type: null,
      payload,
      document,
      xml,
      xml_company_name: companyName,
      target_voucher_guid: target,
      // The validated body (defaults filled in, "118.00" read as 118): a repeat that says the same thing matches.
      request_fingerprint: requestFingerprint({ endpoint: path, books_voucher_guid: target, document: parsedDocument }),
      ...freshJobColumns(now),
    });
    return {
      acceptance: { success: true, transaction_id: row.job_id, job_id: row.job_id, company_id: row.company_id, request_type: 'in' },
      replayed: !created,
    };
  }
}
