// One page of transactions as support searches them, in one query: the filters read the summary each
// write keeps as JSON, the total comes from a window count, the queue position from a correlated count
// on (company, status, id), and the joins bring the names support needs instead of ids.
import { sql, type Kysely } from 'kysely';
import type { ConsoleTransactionSearchQuery } from '@ledgerwire/shared';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database } from '../../db/schema.js';
import { PAIRING_AND_PRESENCE_COLUMNS } from './pairing-and-presence-columns.js';
import { containsPattern, jsonField } from './console-sql.js';

export type ConsoleTransactionFilter = Partial<Omit<ConsoleTransactionSearchQuery, 'limit' | 'offset'>> &
  Readonly<{ jobId?: string; limit: number; offset: number }>;

/** Amounts are kept to the paisa; a search for 1250.5 finds 1250.50 whichever way it was stored. */
const HALF_PAISA = 0.005;

export async function searchConsoleTransactions(db: Kysely<Database>, capabilities: DialectCapabilities, filter: ConsoleTransactionFilter) {
  const field = (key: string) => jsonField(capabilities, 't.payload', key);
  let query = db
    .selectFrom('transactions as t')
    .innerJoin('companies as c', 'c.id', 't.company_id')
    .leftJoin('transaction_documents as d', 'd.transaction_id', 't.id')
    .leftJoin('connectors as sent', 'sent.id', 't.connector_id')
    .leftJoin('connectors as k', 'k.id', 'c.connector_id')
    // The books' own number for a booked voucher (unique per company and GUID): renumbered ones differ.
    .leftJoin('pulled_vouchers as pv', (join) => join.onRef('pv.company_id', '=', 't.company_id').onRef('pv.books_voucher_guid', '=', 't.books_voucher_guid'))
    .select([
      't.job_id',
      't.client_transaction_id',
      't.application_id',
      't.company_id',
      'c.name as company_name',
      't.job_type',
      't.event_type',
      't.status',
      't.payload',
      'pv.voucher_number as pulled_voucher_number',
      'd.xml_company_name',
      't.connector_id as leased_to',
      'sent.machine_name as sent_machine',
      'sent.online as sent_online',
      'sent.connected as sent_connected',
      'sent.books_running as sent_books_running',
      'sent.open_companies as sent_open_companies',
      'sent.last_seen_at as sent_last_seen_at',
      't.error_code',
      't.error_label',
      't.retry_count',
      't.max_retries',
      't.created_at',
      't.completed_at',
      ...PAIRING_AND_PRESENCE_COLUMNS,
      sql<number | string | null>`(case when t.status = 'queued' then (select count(*) from transactions e where e.company_id = t.company_id and e.status in ('queued', 'processing') and e.id < t.id) end)`.as('jobs_ahead'),
      sql<number | string>`count(*) over ()`.as('total'),
    ]);
  if (filter.jobId !== undefined) query = query.where('t.job_id', '=', filter.jobId);
  if (filter.application_id !== undefined) query = query.where('t.application_id', '=', filter.application_id);
  if (filter.company_id !== undefined) query = query.where('t.company_id', '=', filter.company_id);
  if (filter.status !== undefined) query = query.where('t.status', '=', filter.status);
  if (filter.voucher_number !== undefined) {
    // The number sent or the books' own: support is often handed the one printed on the invoice.
    const pattern = containsPattern(filter.voucher_number);
    query = query.where(sql<boolean>`(lower(${field('voucher_number')}) like ${pattern} escape '\\' or lower(pv.voucher_number) like ${pattern} escape '\\')`);
  }
  if (filter.party !== undefined) query = query.where(sql<boolean>`lower(${field('party_ledger')}) like ${containsPattern(filter.party)} escape '\\'`);
  if (filter.amount !== undefined) {
    const amount = Number(filter.amount);
    query = query.where(sql<boolean>`cast(${field('amount')} as numeric) between ${amount - HALF_PAISA} and ${amount + HALF_PAISA}`);
  }
  if (filter.date_from !== undefined) query = query.where(sql<boolean>`${field('date')} >= ${filter.date_from}`);
  if (filter.date_to !== undefined) query = query.where(sql<boolean>`${field('date')} <= ${filter.date_to}`);
  return query.orderBy('t.id', 'desc').limit(filter.limit).offset(filter.offset).execute();
}
