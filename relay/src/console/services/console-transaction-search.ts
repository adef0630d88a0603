// Transactions searched by voucher number, party, amount and date (read from the summary each write
// keeps as JSON), with the names support needs in the list — company, books company the XML was
// rendered for, the machine it was handed to — and why a waiting one waits. One query per page
// (store/search-console-transactions.ts); this class turns its rows into the console's shape.
import type { Kysely } from 'kysely';
import type { ConsoleTransactionSearchQuery, ConsoleTransactionSummaryOut } from '@ledgerwire/shared';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors/catalogue.js';
import { deriveWaitingReason } from '../../bridge/services/jobs/waiting-reason.js';
import { connectorFacts } from '../../bridge/services/jobs/waiting-reason.js';
import { isPaired } from './console-waiting-reason.js';
import { searchConsoleTransactions, type ConsoleTransactionFilter as Filter } from '../store/search-console-transactions.js';

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
    const rows = await searchConsoleTransactions(this.db, this.capabilities, filter);
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

