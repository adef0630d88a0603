// Whether the connector holds any processing job: one indexed read (transactions_connector), outside
// any transaction, so a hello that holds none (almost every one) opens no transaction for nothing.
// Written as SQL: building it through the query builder cost more than running it.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function connectorHoldsProcessingJobs(db: Kysely<Database>, connectorId: string): Promise<boolean> {
  const { rows } = await sql`select 1 from transactions where connector_id = ${connectorId} and status = 'processing' limit 1`.execute(db);
  return rows.length > 0;
}
