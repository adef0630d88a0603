// Presence rows of the connectors, shared by every relay process: which session owns a connector,
// whether a socket is open, and the state last published as a webhook. Each transition that publishes
// an event is a conditional update, so when two processes race exactly one of them publishes it.
import type { ExpressionBuilder, Kysely } from 'kysely';
import { ReusableQuery } from '../../db/reusable-query.js';
import type { Database } from '../../db/schema.js';

export type OpenCompany = Readonly<{ guid: string; name: string }>;

export type SessionOpening = Readonly<{ version: string; booksProduct: string | null; openCompanies: readonly OpenCompany[]; now: string }>;

function openedColumns(sessionId: string, input: SessionOpening) {
  return {
    connected: 1,
    session_id: sessionId,
    version: input.version,
    books_product: input.booksProduct,
    open_companies: JSON.stringify(input.openCompanies),
    last_seen_at: input.now,
    disconnected_at: null,
    updated_at: input.now,
  };
}

/** openSteadySession's values; the constants travel as values too (a reusable query takes no constants). */
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

export class ConnectorPresenceStore {
  private readonly db: Kysely<Database>;
  /** Every hello runs it (ten thousand at once after a relay restart): built once (reusable-query.ts). */
  private readonly steadyOpening: ReusableQuery<SteadyOpeningValues, never>;

  constructor(deps: { db: Kysely<Database> }) {
    this.db = deps.db;
    this.steadyOpening = new ReusableQuery<SteadyOpeningValues, never>((values) =>
      deps.db
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
  }

  /** A session said hello: it owns the connector from now on. */
  async openSession(connectorId: string, sessionId: string, input: SessionOpening): Promise<void> {
    await this.db.updateTable('connectors').set(openedColumns(sessionId, input)).where('id', '=', connectorId).execute();
  }

  /**
   * openSession for a connector that is online already with its books as `booksRunning` says (a
   * reconnect, a relay restart): then nothing is to be published, and this one statement does the work of
   * openSession, markOnline and setBooksRunning. False when the connector was not so; nothing is written.
   */
  async openSteadySession(connectorId: string, sessionId: string, input: SessionOpening & { booksRunning: boolean }): Promise<boolean> {
    const opened = openedColumns(sessionId, input);
    const result = await this.steadyOpening.execute(this.db, {
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
  }

  /** True when this call turned the connector online (so the caller publishes connector.online). */
  async markOnline(connectorId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('connectors')
      .set({ online: 1, updated_at: now })
      .where('id', '=', connectorId)
      .where('online', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** True when the books state changed by this call (so the caller publishes books.started/stopped). */
  async setBooksRunning(connectorId: string, running: boolean, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('connectors')
      .set({ books_running: running ? 1 : 0, updated_at: now })
      .where('id', '=', connectorId)
      .where('books_running', '=', running ? 0 : 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async updateBooksDetails(connectorId: string, input: { booksProduct: string | null; openCompanies: readonly OpenCompany[]; now: string }): Promise<void> {
    await this.db
      .updateTable('connectors')
      .set({ books_product: input.booksProduct, open_companies: JSON.stringify(input.openCompanies), last_seen_at: input.now, updated_at: input.now })
      .where('id', '=', connectorId)
      .execute();
  }

  /**
   * Records that these sessions were heard from, in one statement: only rows still owned by the session
   * named are touched. Session ids are unique to one connector, so matching the two lists separately
   * is the same as matching the pairs.
   */
  async touchSessions(sessions: readonly { connectorId: string; sessionId: string }[], now: string): Promise<void> {
    if (sessions.length === 0) return;
    await this.db
      .updateTable('connectors')
      .set({ last_seen_at: now })
      .where('id', 'in', sessions.map((s) => s.connectorId))
      .where('session_id', 'in', sessions.map((s) => s.sessionId))
      .execute();
  }

  /** The session that owns the connector now (the latest hello on any relay process). */
  async currentSession(connectorId: string): Promise<string | null> {
    const row = await this.db.selectFrom('connectors').select('session_id').where('id', '=', connectorId).executeTakeFirst();
    return row?.session_id ?? null;
  }

  /** currentSession for many connectors in one read. */
  async currentSessions(connectorIds: readonly string[]): Promise<Map<string, string | null>> {
    if (connectorIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('connectors').select(['id', 'session_id']).where('id', 'in', [...connectorIds]).execute();
    return new Map(rows.map((row) => [row.id, row.session_id]));
  }

  /** The session's socket closed. False when a newer session owns the connector already. */
  async closeSession(connectorId: string, sessionId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('connectors')
      .set({ connected: 0, disconnected_at: now, updated_at: now })
      .where('id', '=', connectorId)
      .where('session_id', '=', sessionId)
      .where('connected', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** closeSession for many sessions in one statement (matching the two lists as in touchSessions). */
  async closeSessions(sessions: readonly { connectorId: string; sessionId: string }[], now: string): Promise<void> {
    if (sessions.length === 0) return;
    await this.db
      .updateTable('connectors')
      .set({ connected: 0, disconnected_at: now, updated_at: now })
      .where('id', 'in', sessions.map((s) => s.connectorId))
      .where('session_id', 'in', sessions.map((s) => s.sessionId))
      .where('connected', '=', 1)
      .execute();
  }

  /**
   * Connectors published online that are gone for good: disconnected before `graceCutoff`, or still
   * marked connected but silent since `staleCutoff` (their relay process died).
   */
  async listOfflineDue(graceCutoff: string, staleCutoff: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('connectors')
      .select('id')
      .where((eb) => offlineDue(eb, graceCutoff, staleCutoff))
      .execute();
    return rows.map((r) => r.id);
  }

  /** True when this call turned the connector offline (so the caller publishes connector.offline). */
  async markOffline(connectorId: string, graceCutoff: string, staleCutoff: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('connectors')
      .set({ online: 0, connected: 0, updated_at: now })
      .where('id', '=', connectorId)
      .where((eb) => offlineDue(eb, graceCutoff, staleCutoff))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

function offlineDue(eb: ExpressionBuilder<Database, 'connectors'>, graceCutoff: string, staleCutoff: string) {
  return eb.and([
    eb('online', '=', 1),
    eb.or([
      eb.and([eb('connected', '=', 0), eb('disconnected_at', '<=', graceCutoff)]),
      eb.and([eb('connected', '=', 1), eb('last_seen_at', '<=', staleCutoff)]),
    ]),
  ]);
}
