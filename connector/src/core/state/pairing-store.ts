// Which service company is paired to which books company. `confirmed` = the relay said so (welcome or
// pairings message); an unconfirmed row is one the user asked for that the relay has not confirmed yet.
import type { LocalDatabase } from './local-database.js';

export type Pairing = Readonly<{
  companyId: number;
  booksCompanyGuid: string;
  booksCompanyName: string;
  confirmed: boolean;
}>;

type Row = { company_id: number; books_company_guid: string; books_company_name: string; confirmed: number };

const toPairing = (row: Row): Pairing => ({
  companyId: row.company_id,
  booksCompanyGuid: row.books_company_guid,
  booksCompanyName: row.books_company_name,
  confirmed: row.confirmed === 1,
});

export class PairingStore {
  constructor(private readonly db: LocalDatabase, private readonly clock: () => Date = () => new Date()) {}

  list(): Pairing[] {
    return (this.db.prepare('SELECT * FROM pairings ORDER BY company_id').all() as Row[]).map(toPairing);
  }

  get(companyId: number): Pairing | undefined {
    const row = this.db.prepare('SELECT * FROM pairings WHERE company_id = ?').get(companyId) as Row | undefined;
    return row ? toPairing(row) : undefined;
  }

  /** A pairing the user asked for; stays unconfirmed until the relay lists it. */
  request(pairing: Omit<Pairing, 'confirmed'>): void {
    this.db
      .prepare(
        `INSERT INTO pairings (company_id, books_company_guid, books_company_name, confirmed, updated_at) VALUES (?, ?, ?, 0, ?)
         ON CONFLICT(company_id) DO UPDATE SET books_company_guid = excluded.books_company_guid,
           books_company_name = excluded.books_company_name, confirmed = 0, updated_at = excluded.updated_at`,
      )
      .run(pairing.companyId, pairing.booksCompanyGuid, pairing.booksCompanyName, this.clock().toISOString());
  }

  /** Drops a request the relay refused (only while it is unconfirmed). */
  withdraw(companyId: number): void {
    this.db.prepare('DELETE FROM pairings WHERE company_id = ? AND confirmed = 0').run(companyId);
  }

  /**
   * The relay's list is the truth: those become confirmed; unconfirmed requests it does not list yet are
   * kept (still waiting); confirmed rows it no longer lists were unpaired and go.
   */
  replaceConfirmed(pairings: readonly Omit<Pairing, 'confirmed'>[]): void {
    const now = this.clock().toISOString();
    this.db.transaction(() => {
      const listed = new Set(pairings.map((p) => p.companyId));
      for (const row of this.list()) {
        if (row.confirmed && !listed.has(row.companyId)) this.db.prepare('DELETE FROM pairings WHERE company_id = ?').run(row.companyId);
      }
      for (const p of pairings) {
        this.db
          .prepare(
            `INSERT INTO pairings (company_id, books_company_guid, books_company_name, confirmed, updated_at) VALUES (?, ?, ?, 1, ?)
             ON CONFLICT(company_id) DO UPDATE SET books_company_guid = excluded.books_company_guid,
               books_company_name = excluded.books_company_name, confirmed = 1, updated_at = excluded.updated_at`,
          )
          .run(p.companyId, p.booksCompanyGuid, p.booksCompanyName, now);
      }
    });
  }
}
