// All loaded companies, which one is active, and how a request's SVCURRENTCOMPANY picks one
// (case-insensitive, spaces trimmed and collapsed; closed companies are not loaded).
import { BooksDatabase } from './database.js';
import { CompanyBooks } from './company-books.js';
import type { CompanyRecord } from './records.js';
import { voucherLedgerNames } from './voucher-facts.js';
import { ledgerOpeningBills } from './master-facts.js';

export type CompanyResolution =
  | { kind: 'found'; books: CompanyBooks }
  | { kind: 'unknown'; name: string }
  | { kind: 'none-open' };

function companyKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

export class BooksStore {
  private companies: CompanyBooks[] = [];
  private activeGuid = '';

  constructor(readonly db: BooksDatabase) {
    this.reload();
  }

  static open(dataDir: string): BooksStore {
    return new BooksStore(new BooksDatabase(dataDir));
  }

  reload(): void {
    const stored = this.db.load();
    this.companies = stored.companies
      .sort((a, b) => a.sortOrder - b.sortOrder)
      .map((record) => {
        const books = new CompanyBooks(record, this.db);
        for (const master of stored.masters.get(record.guid) ?? []) {
          books.indexMaster(master);
          for (const bill of ledgerOpeningBills(master)) books.applyBill(bill, 1);
        }
        for (const voucher of stored.vouchers.get(record.guid) ?? []) books.indexVoucher(voucher, voucherLedgerNames(voucher.tree));
        return books;
      });
    this.activeGuid = stored.settings.get('active-company') ?? this.companies[0]?.record.guid ?? '';
  }

  isEmpty(): boolean {
    return this.companies.length === 0;
  }

  all(): CompanyBooks[] {
    return this.companies;
  }

  open(): CompanyBooks[] {
    return this.companies.filter((c) => c.record.isOpen);
  }

  byGuid(guid: string): CompanyBooks | undefined {
    return this.companies.find((c) => c.record.guid.toLowerCase() === guid.toLowerCase());
  }

  /** The active company: the last one made active if still open, else the first open one. */
  active(): CompanyBooks | undefined {
    const current = this.byGuid(this.activeGuid);
    if (current?.record.isOpen) return current;
    return this.open()[0];
  }

  setActive(books: CompanyBooks): void {
    this.activeGuid = books.record.guid;
    this.db.saveSetting('active-company', books.record.guid);
  }

  resolve(svCurrentCompany: string | undefined): CompanyResolution {
    if (svCurrentCompany === undefined || svCurrentCompany.trim() === '') {
      const active = this.active();
      return active ? { kind: 'found', books: active } : { kind: 'none-open' };
    }
    const wanted = companyKey(svCurrentCompany);
    const found = this.open().find((c) => companyKey(c.record.name) === wanted);
    return found ? { kind: 'found', books: found } : { kind: 'unknown', name: svCurrentCompany };
  }

  addCompany(record: CompanyRecord): CompanyBooks {
    const books = new CompanyBooks(record, this.db);
    this.companies.push(books);
    books.save();
    if (!this.activeGuid) this.setActive(books);
    return books;
  }

  setOpen(books: CompanyBooks, isOpen: boolean): void {
    books.record.isOpen = isOpen;
    books.save();
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work);
  }

  wipe(): void {
    this.db.wipe();
    this.companies = [];
    this.activeGuid = '';
  }

  close(): void {
    this.db.close();
  }
}

