// Everything that decides why each of these transactions waits, in one query for a whole page: its
// company's pairing, the connector that would import it (for a processing job the one holding it,
// whatever the pairing says now) and how many of the company's unfinished jobs are ahead of it.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionsTable } from '../../../db/bridge-tables.js';

export type WaitingFactsRow = {
  id: number;
  company_id: number;
  status: TransactionsTable['status'];
  company_connector_id: string | null;
  books_company_guid: string | null;
  books_company_name: string | null;
  machine_name: string | null;
  online: number | null;
  connected: number | null;
  books_running: number | null;
  open_companies: string | null;
  last_seen_at: string | null;
  jobs_ahead: number | string | bigint;
};

/** The count of earlier jobs uses the (company_id, status, id) index. */
export async function listWaitingFacts(db: Kysely<Database>, ids: readonly number[]): Promise<WaitingFactsRow[]> {
  const { rows } = await sql<WaitingFactsRow>`
    select t.id, t.company_id, t.status, c.connector_id as company_connector_id, c.books_company_guid, c.books_company_name,
      k.machine_name, k.online, k.connected, k.books_running, k.open_companies, k.last_seen_at,
      (select count(*) from transactions a
        where a.company_id = t.company_id and a.status in ('queued', 'processing') and a.id < t.id) as jobs_ahead
    from transactions t
    inner join companies c on c.id = t.company_id
    left join connectors k on k.id = (case when t.status = 'processing' and t.connector_id is not null then t.connector_id else c.connector_id end)
    where t.id in (${sql.join(ids)})`.execute(db);
  return rows;
}
