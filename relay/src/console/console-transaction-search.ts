// Transactions searched by voucher number, party, amount and date (read from the summary each write
// keeps as JSON), with the names support needs in the list — company, books company the XML was
// rendered for, the machine it was handed to — and why a waiting one waits. One query per page: the
// total comes from a window count, the queue position from a correlated count on (company, status, id).
import { sql, type Kysely } from 'kysely';
import type { ConsoleTransactionSearchQuery, ConsoleTransactionSummaryOut } from '@ledgerwire/shared';
import type { DialectCapabilities } from '../db/capabilities.js';
import type { Database } from '../db/schema.js';
import { AppError } from '../errors/catalogue.js';
import { deriveWaitingReason } from '../bridge/jobs/waiting-reason.js';
import { connectorFacts } from '../bridge/jobs/waiting-reason.js';
import { isPaired, PAIRING_AND_PRESENCE_COLUMNS } from './console-waiting-reason.js';
import { containsPattern, jsonField } from './console-sql.js';

type Filter = Partial<Omit<ConsoleTransactionSearchQuery, 'limit' | 'offset'>> & Readonly<{ jobId?: string; limit: number; offset: number }>;

/** Amounts are kept to the paisa; a search for 1250.5 finds 1250.50 whichever way it was stored. */
const HALF_PAISA = 0.005;

function textOf(payload: Record<string, unknown>, key: string): string | null {
  const value = payload[key];
  return typeof value === 'string' ? value : null;
}

export class ConsoleTransactionSearch {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  search(query: ConsoleTransactionSearchQuery): Promise<{ total: number; transactions: ConsoleTransactionSummaryOut[] }> {
    return this.page(query);
  }

  async one(jobId: string): Promise<ConsoleTransactionSummaryOut> {
    const { transactions } = await this.page({ jobId: jobId.toLowerCase(), limit: 1, offset: 0 });
    const found = transactions[0];
    if (!found) throw new AppError('transaction_not_found', { message: `No transaction ${jobId}` });
    return found;
  }

  private async page(filter: Filter): Promise<{ total: number; transactions: ConsoleTransactionSummaryOut[] }> {
    const field = (key: string) => jsonField(this.capabilities, 't.payload', key);
    let query = this.db
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
    const rows = await query.orderBy('t.id', 'desc').limit(filter.limit).offset(filter.offset).execute();
    const total = rows[0] ? Number(rows[0].total) : filter.offset > 0 ? (await this.page({ ...filter, offset: 0, limit: 1 })).total : 0;
    return {
      total,
      transactions: rows.map((row) => {
        const payload = parsePayload(row.payload);
        // A processing job is in the hands of the connector it was leased to, whatever the pairing says now.
        const holder =
          row.status === 'processing' && row.leased_to !== null
            ? connectorFacts({
                machine_name: row.sent_machine,
                online: row.sent_online,
                connected: row.sent_connected,
                books_running: row.sent_books_running,
                open_companies: row.sent_open_companies,
                last_seen_at: row.sent_last_seen_at,
              })
            : connectorFacts(row);
        const amount = payload['amount'];
        return {
          job_id: row.job_id,
          transaction_id: row.client_transaction_id ?? row.job_id,
          application_id: row.application_id,
          company_id: Number(row.company_id),
          company_name: row.company_name,
          job_type: row.job_type,
          event_type: row.event_type,
          status: row.status,
          voucher_type: textOf(payload, 'voucher_type'),
          voucher_number: textOf(payload, 'voucher_number'),
          books_voucher_number: row.status === 'completed' && row.job_type === 'voucher' ? (row.pulled_voucher_number ?? null) : null,
          party: textOf(payload, 'party_ledger'),
          amount: typeof amount === 'number' ? amount : typeof amount === 'string' && amount !== '' && Number.isFinite(Number(amount)) ? Number(amount) : null,
          date: textOf(payload, 'date'),
          master_name: row.job_type === 'master' ? textOf(payload, 'name') : null,
          books_company_name: row.xml_company_name,
          sent_to_books: row.leased_to !== null,
          connector_machine: row.sent_machine,
          error_code: row.error_code,
          error_label: row.error_label,
          retry_count: row.retry_count,
          max_retries: row.max_retries,
          created_at: row.created_at,
          completed_at: row.completed_at,
          waiting_reason: deriveWaitingReason({
            status: row.status,
            paired: isPaired(row),
            books_company_guid: row.books_company_guid,
            books_company_name: row.books_company_name,
            connector: holder,
            jobs_ahead: Number(row.jobs_ahead ?? 0),
          }),
        };
      }),
    };
  }
}

function parsePayload(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

