// Sync positions per company: the cursors the relay confirmed (per kind), the last pass's result, and
// the GUIDs the relay holds (for the deletion diff). Cursors move only on the relay's sync.ack.
import type { SyncKind } from '@ledgerwire/shared';
import type { LocalDatabase } from './local-database.js';

export type SyncRun = Readonly<{ companyId: number; lastSyncAt: string | null; lastResult: string | null; lastError: string | null; passes: number }>;

export class SyncStateStore {
  constructor(private readonly db: LocalDatabase, private readonly clock: () => Date = () => new Date()) {}

  cursor(companyId: number, kind: SyncKind): string | undefined {
    const row = this.db.prepare('SELECT cursor FROM sync_cursors WHERE company_id = ? AND kind = ?').get(companyId, kind) as
      | { cursor: string }
      | undefined;
    return row?.cursor;
  }

  saveCursor(companyId: number, kind: SyncKind, cursor: string): void {
    this.db
      .prepare(
        `INSERT INTO sync_cursors (company_id, kind, cursor, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(company_id, kind) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at`,
      )
      .run(companyId, kind, cursor, this.clock().toISOString());
  }

  clearCompany(companyId: number): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM sync_cursors WHERE company_id = ?').run(companyId);
      this.db.prepare('DELETE FROM known_objects WHERE company_id = ?').run(companyId);
    });
  }

  run(companyId: number): SyncRun {
    const row = this.db.prepare('SELECT * FROM sync_runs WHERE company_id = ?').get(companyId) as
      | { last_sync_at: string | null; last_result: string | null; last_error: string | null; passes: number }
      | undefined;
    return {
      companyId,
      lastSyncAt: row?.last_sync_at ?? null,
      lastResult: row?.last_result ?? null,
      lastError: row?.last_error ?? null,
      passes: row?.passes ?? 0,
    };
  }

  recordRun(companyId: number, result: { ok: boolean; summary: string; error?: string }): void {
    this.db
      .prepare(
        `INSERT INTO sync_runs (company_id, last_sync_at, last_result, last_error, passes) VALUES (?, ?, ?, ?, 1)
         ON CONFLICT(company_id) DO UPDATE SET last_sync_at = CASE WHEN excluded.last_error IS NULL THEN excluded.last_sync_at ELSE sync_runs.last_sync_at END,
           last_result = excluded.last_result, last_error = excluded.last_error, passes = sync_runs.passes + 1`,
      )
      .run(companyId, result.ok ? this.clock().toISOString() : null, result.summary, result.ok ? null : (result.error ?? result.summary));
  }

  rememberObjects(companyId: number, items: readonly { guid: string; object: 'voucher' | 'master'; alterId: string }[]): void {
    const stmt = this.db.prepare(
      `INSERT INTO known_objects (company_id, guid, object, alter_id) VALUES (?, ?, ?, ?)
       ON CONFLICT(company_id, guid) DO UPDATE SET object = excluded.object, alter_id = excluded.alter_id`,
    );
    this.db.transaction(() => items.forEach((i) => stmt.run(companyId, i.guid, i.object, i.alterId)));
  }

  forgetObjects(companyId: number, guids: readonly string[]): void {
    const stmt = this.db.prepare('DELETE FROM known_objects WHERE company_id = ? AND guid = ?');
    this.db.transaction(() => guids.forEach((g) => stmt.run(companyId, g)));
  }

  /** Iterates the GUIDs the relay holds for a company, one object type, without loading them all. */
  *knownGuids(companyId: number, object: 'voucher' | 'master'): IterableIterator<string> {
    const stmt = this.db.prepare('SELECT guid FROM known_objects WHERE company_id = ? AND object = ? ORDER BY guid');
    for (const row of stmt.iterate(companyId, object) as IterableIterator<{ guid: string }>) yield row.guid;
  }

  knownCount(companyId: number, object: 'voucher' | 'master'): number {
    const row = this.db.prepare('SELECT COUNT(*) AS n FROM known_objects WHERE company_id = ? AND object = ?').get(companyId, object) as { n: number };
    return row.n;
  }
}
