// Presence rows of the connectors, shared by every relay process: which session owns a connector,
// whether a socket is open, and the state last published as a webhook. Each transition that publishes
// an event is a conditional update, so when two processes race exactly one of them publishes it.
// Each method runs one operation of gateway/store/connectors/.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { closeConnectorSession } from './close-connector-session.js';
import { closeConnectorSessions } from './close-connector-sessions.js';
import { findCurrentSession } from './find-current-session.js';
import { listCurrentSessions } from './list-current-sessions.js';
import { listOfflineDueConnectors } from './list-offline-due-connectors.js';
import { markConnectorOffline } from './mark-connector-offline.js';
import { markConnectorOnline } from './mark-connector-online.js';
import { openConnectorSession } from './open-connector-session.js';
import {
  prepareOpenSteadyConnectorSession,
  type OpenSteadyConnectorSession,
} from './open-steady-connector-session.js';
import type { OpenCompany, SessionOpening } from './opened-session-columns.js';
import { setBooksRunning } from './set-books-running.js';
import { touchConnectorSessions } from './touch-connector-sessions.js';
import { updateBooksDetails } from './update-books-details.js';

export type { OpenCompany, SessionOpening } from './opened-session-columns.js';

export class ConnectorPresenceStore {
  private readonly db: Kysely<Database>;
  /** Every hello runs it (ten thousand at once after a relay restart): prepared once per store (reusable-query.ts). */
  private readonly steadyOpening: OpenSteadyConnectorSession;

  constructor(deps: { db: Kysely<Database> }) {
    this.db = deps.db;
    this.steadyOpening = prepareOpenSteadyConnectorSession(deps.db);
  }

  /** A session said hello: it owns the connector from now on. */
  openSession(connectorId: string, sessionId: string, input: SessionOpening): Promise<void> {
    return openConnectorSession(this.db, connectorId, sessionId, input);
  }

  /**
   * openSession for a connector that is online already with its books as `booksRunning` says (a
   * reconnect, a relay restart): then nothing is to be published, and this one statement does the work of
   * openSession, markOnline and setBooksRunning. False when the connector was not so; nothing is written.
   */
  openSteadySession(connectorId: string, sessionId: string, input: SessionOpening & { booksRunning: boolean }): Promise<boolean> {
    return this.steadyOpening(connectorId, sessionId, input);
  }

  /** True when this call turned the connector online (so the caller publishes connector.online). */
  markOnline(connectorId: string, now: string): Promise<boolean> {
    return markConnectorOnline(this.db, connectorId, now);
  }

  /** True when the books state changed by this call (so the caller publishes books.started/stopped). */
  setBooksRunning(connectorId: string, running: boolean, now: string): Promise<boolean> {
    return setBooksRunning(this.db, connectorId, running, now);
  }

  updateBooksDetails(connectorId: string, input: { booksProduct: string | null; openCompanies: readonly OpenCompany[]; now: string }): Promise<void> {
    return updateBooksDetails(this.db, connectorId, input);
  }

  /**
   * Records that these sessions were heard from, in one statement: only rows still owned by the session
   * named are touched.
   */
  touchSessions(sessions: readonly { connectorId: string; sessionId: string }[], now: string): Promise<void> {
    return touchConnectorSessions(this.db, sessions, now);
  }

  /** The session that owns the connector now (the latest hello on any relay process). */
  currentSession(connectorId: string): Promise<string | null> {
    return findCurrentSession(this.db, connectorId);
  }

  /** currentSession for many connectors in one read. */
  currentSessions(connectorIds: readonly string[]): Promise<Map<string, string | null>> {
    return listCurrentSessions(this.db, connectorIds);
  }

  /** The session's socket closed. False when a newer session owns the connector already. */
  closeSession(connectorId: string, sessionId: string, now: string): Promise<boolean> {
    return closeConnectorSession(this.db, connectorId, sessionId, now);
  }

  /** closeSession for many sessions in one statement (matching the two lists as in touchSessions). */
  closeSessions(sessions: readonly { connectorId: string; sessionId: string }[], now: string): Promise<void> {
    return closeConnectorSessions(this.db, sessions, now);
  }

  /**
   * Connectors published online that are gone for good: disconnected before `graceCutoff`, or still
   * marked connected but silent since `staleCutoff` (their relay process died).
   */
  listOfflineDue(graceCutoff: string, staleCutoff: string): Promise<string[]> {
    return listOfflineDueConnectors(this.db, graceCutoff, staleCutoff);
  }

  /** True when this call turned the connector offline (so the caller publishes connector.offline). */
  markOffline(connectorId: string, graceCutoff: string, staleCutoff: string, now: string): Promise<boolean> {
    return markConnectorOffline(this.db, connectorId, graceCutoff, staleCutoff, now);
  }
}
