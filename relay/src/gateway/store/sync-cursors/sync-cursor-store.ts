// The sync cursors the relay confirmed, per company and kind: written after a batch is stored, sent
// back in welcome so a reinstalled connector resumes where the relay's copy ends. Each method runs one
// operation of gateway/store/connectors/.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { confirmSyncCursor } from './confirm-sync-cursor.js';
import { listCompanySyncCursors, type ConfirmedCursor } from './list-company-sync-cursors.js';

export type { ConfirmedCursor } from './list-company-sync-cursors.js';

export class SyncCursorStore {
  private readonly db: Kysely<Database>;

  constructor(deps: { db: Kysely<Database> }) {
    this.db = deps.db;
  }

  confirm(input: { companyId: number; kind: string; connectorId: string; cursor: string; now: string }): Promise<void> {
    return confirmSyncCursor(this.db, input);
  }

  listForCompanies(companyIds: readonly number[]): Promise<ConfirmedCursor[]> {
    return listCompanySyncCursors(this.db, companyIds);
  }
}
