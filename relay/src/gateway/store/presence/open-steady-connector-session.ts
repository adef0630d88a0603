// A hello from a connector already online with its books as they were (a reconnect, a relay restart):
// one statement, nothing to publish. Every hello runs it (ten thousand at once after a relay restart),
// so it is built once (reusable-query.ts): prepare once per store, then call the answer per hello.
import type { Kysely } from 'kysely';
import { ReusableQuery } from '../../../db/reusable-query.js';
import type { Database } from '../../../db/schema.js';
import { openedColumns, type SessionOpening } from './opened-session-columns.js';

/** The statement's values; the constants travel as values too (a reusable query takes no constants). */
type SteadyOpeningValues = Readonly<{
  connectorId: string;
  sessionId: string;
  version: string;
  booksProduct: string | null;
  openCompanies: string;
  now: string;
  connected: number;
  disconnectedAt: null;
  online: number;
  booksRunning: number;
}>;

export type OpenSteadyConnectorSession = (connectorId: string, sessionId: string, input: SessionOpening & { booksRunning: boolean }) => Promise<boolean>;

/** False when the connector was not online with its books so; nothing is written then. */
export function prepareOpenSteadyConnectorSession(db: Kysely<Database>): OpenSteadyConnectorSession {
  const query = new ReusableQuery<SteadyOpeningValues, never>((values) =>
    db
      .updateTable('connectors')
      .set({
        connected: values.connected,
        session_id: values.sessionId,
        version: values.version,
        books_product: values.booksProduct,
        open_companies: values.openCompanies,
        last_seen_at: values.now,
        disconnected_at: values.disconnectedAt,
        updated_at: values.now,
      })
      .where('id', '=', values.connectorId)
      .where('online', '=', values.online)
      .where('books_running', '=', values.booksRunning),
  );
  return async (connectorId, sessionId, input) => {
    const opened = openedColumns(sessionId, input);
    const result = await query.execute(db, {
      connectorId,
      sessionId,
      version: opened.version,
      booksProduct: opened.books_product,
      openCompanies: opened.open_companies,
      now: input.now,
      connected: opened.connected,
      disconnectedAt: opened.disconnected_at,
      online: 1,
      booksRunning: input.booksRunning ? 1 : 0,
    });
    return Number(result.numAffectedRows ?? 0) === 1;
  };
}
