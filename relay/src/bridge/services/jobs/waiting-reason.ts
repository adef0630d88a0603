// Why a queued or processing transaction has not finished: the `waiting_reason` of the transaction
// record (API, console, connector page). Derived from what the relay knows now — the company's pairing,
// the presence of the connector that serves it (or holds the job), the books state and open companies
// that connector last reported, and the company's earlier unfinished jobs (one company's jobs go to the
// books in order). Two parts, so every reader says the same thing:
//   - `deriveWaitingReason(facts)`: pure, the decision and the words;
//   - `waitingReasonsOf(db, rows)`: the facts for a whole page of rows in one query, then the decision;
//   - `companyQueueWaitingReasons(db, companyIds)`: why each company's queue waits (its oldest job's reason).
// The console may call any of them (the operator views of TransactionService already carry the result).
import { booksCompanyOpen, connectionGuidance, onTheWayGuidance, type WaitingReasonOut } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { parseOpenCompanies } from '../../store/connectors/connector-repository.js';
import type { TransactionRow } from '../../store/jobs/transaction-record.js';
import { listOldestUnfinishedJobIds } from '../../store/jobs/list-oldest-unfinished-job-ids.js';
import { listWaitingFacts } from '../../store/jobs/list-waiting-facts.js';

/** The connector that would import the job (the company's, or for a processing job the one holding it). */
export type WaitingConnectorFacts = Readonly<{
  machine_name: string;
  /** A socket of its current session is open and its online state is published. */
  online: boolean;
  books_running: boolean;
  open_companies: readonly { guid: string; name: string }[];
  last_seen_at: string | null;
}>;

/** A connector row's presence columns, as a query that joins the connector selects them. */
export type ConnectorPresenceColumns = Readonly<{
  machine_name: string | null;
  online: number | null;
  connected: number | null;
  books_running: number | null;
  open_companies: string | null;
  last_seen_at: string | null;
}>;

/** The connector's facts from its row, or undefined when the join found no connector. */
export function connectorFacts(row: ConnectorPresenceColumns): WaitingConnectorFacts | undefined {
  if (row.machine_name === null) return undefined;
  return {
    machine_name: row.machine_name,
    online: Number(row.online) === 1 && Number(row.connected) === 1,
    books_running: Number(row.books_running) === 1,
    open_companies: parseOpenCompanies(row.open_companies ?? '[]'),
    last_seen_at: row.last_seen_at,
  };
}

export type WaitingFacts = Readonly<{
  status: TransactionRow['status'];
  /** The company is paired: it has a connector and a books company. */
  paired: boolean;
  books_company_guid: string | null;
  books_company_name: string | null;
  /** Undefined when the company has no connector (or it no longer exists). */
  connector: WaitingConnectorFacts | undefined;
  /** Queued or processing jobs of the same company accepted before this one. */
  jobs_ahead: number;
}>;

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What blocks the company's connector and books, if anything (the same for queued and processing jobs). */
function blockedBy(facts: WaitingFacts, connector: WaitingConnectorFacts): WaitingReasonOut | null {
  const machine = `"${connector.machine_name}"`;
  if (!connector.online) {
    const seen = connector.last_seen_at === null ? '' : ` (last seen ${connector.last_seen_at})`;
    return {
      code: 'connector_offline',
      message: `The connector on ${machine} is offline${seen}: the job goes to the books when the connector is running and connected again`,
      ...connectionGuidance('connector_offline', { machine: connector.machine_name }),
    };
  }
  if (!connector.books_running) {
    return {
      code: 'books_not_running',
      message: `The connector on ${machine} is online but the books are not running there: start TallyPrime on that machine`,
      ...connectionGuidance('books_not_running', { machine: connector.machine_name }),
    };
  }
  if (facts.books_company_guid !== null && !booksCompanyOpen(connector.open_companies, facts.books_company_guid)) {
    const name = facts.books_company_name === null ? 'the paired books company' : `"${facts.books_company_name}"`;
    return {
      code: 'company_not_open',
      message: `The books are running on ${machine} but ${name} is not open in them: open that company in TallyPrime`,
      ...connectionGuidance('company_not_open', { machine: connector.machine_name, books_company_name: facts.books_company_name }),
    };
  }
  return null;
}

/** The reason for one transaction, or null when it is not waiting (finished, or about to be handed out). */
export function deriveWaitingReason(facts: WaitingFacts): WaitingReasonOut | null {
  if (facts.status !== 'queued' && facts.status !== 'processing') return null;
  if (facts.status === 'queued' && (!facts.paired || facts.connector === undefined)) {
    return {
      code: 'company_disconnected',
      message: 'The company is not paired with a books company through a connector: pair it, and its queued jobs go to the books in order',
      ...connectionGuidance('company_disconnected'),
    };
  }
  const blocked = facts.connector === undefined ? null : blockedBy(facts, facts.connector);
  if (blocked) return blocked;
  if (facts.status === 'processing') {
    return { code: 'importing', message: 'The connector has the job and is importing it into the books', ...onTheWayGuidance(0) };
  }
  if (facts.jobs_ahead > 0) {
    return {
      code: 'behind_earlier_jobs',
      message: `${plural(facts.jobs_ahead, 'earlier job of this company goes', 'earlier jobs of this company go')} to the books first: one company's jobs are imported in the order they were accepted`,
      jobs_ahead: facts.jobs_ahead,
      ...onTheWayGuidance(facts.jobs_ahead),
    };
  }
  return null;
}

/** The facts of these transactions in one query, and the reason each gives (by its status as read now). */
async function reasonsByTransactionId(db: Kysely<Database>, ids: readonly number[]): Promise<{ id: number; company_id: number; reason: WaitingReasonOut | null }[]> {
  if (ids.length === 0) return [];
  const facts = await listWaitingFacts(db, ids);
  return facts.map((row) => ({
    id: row.id,
    company_id: row.company_id,
    reason: deriveWaitingReason({
      status: row.status,
      paired: row.company_connector_id !== null && row.books_company_guid !== null,
      books_company_guid: row.books_company_guid,
      books_company_name: row.books_company_name,
      connector: connectorFacts(row),
      jobs_ahead: Number(row.jobs_ahead),
    }),
  }));
}

/**
 * The waiting reason of each row, by row id: null for finished rows. One query for the whole page
 * (none when nothing on it is waiting); the count of earlier jobs uses the (company_id, status, id) index.
 */
export async function waitingReasonsOf(
  db: Kysely<Database>,
  rows: readonly Pick<TransactionRow, 'id' | 'status'>[],
): Promise<Map<number, WaitingReasonOut | null>> {
  const reasons = new Map<number, WaitingReasonOut | null>(rows.map((row) => [row.id, null]));
  const waiting = rows.filter((row) => row.status === 'queued' || row.status === 'processing').map((row) => row.id);
  for (const { id, reason } of await reasonsByTransactionId(db, waiting)) reasons.set(id, reason);
  return reasons;
}

/**
 * Why each company's queue waits: the waiting reason of its oldest unfinished job (null for a company
 * with nothing queued or processing, or whose next job is about to go). For company lists and pages:
 * two queries for any number of companies.
 */
export async function companyQueueWaitingReasons(db: Kysely<Database>, companyIds: readonly number[]): Promise<Map<number, WaitingReasonOut | null>> {
  const reasons = new Map<number, WaitingReasonOut | null>(companyIds.map((id) => [id, null]));
  if (companyIds.length === 0) return reasons;
  const oldest = await listOldestUnfinishedJobIds(db, companyIds);
  for (const { company_id, reason } of await reasonsByTransactionId(db, oldest)) reasons.set(company_id, reason);
  return reasons;
}
