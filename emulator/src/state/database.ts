// SQLite persistence under --data: one row per company, master and voucher (JSON), written through on
// every change inside the request's transaction and read back whole at start-up.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { CompanyRecord, MasterRecord, VoucherRecord } from './records.js';

export interface StoredBooks {
  companies: CompanyRecord[];
  masters: Map<string, MasterRecord[]>;
  vouchers: Map<string, VoucherRecord[]>;
  settings: Map<string, string>;
}

export class BooksDatabase {
  private readonly db: Database.Database;
  private readonly upsertCompany: Database.Statement;
  private readonly upsertMaster: Database.Statement;
  private readonly removeMaster: Database.Statement;
  private readonly upsertVoucher: Database.Statement;
  private readonly removeVoucher: Database.Statement;
  private readonly upsertSetting: Database.Statement;

  constructor(dataDir: string) {
    fs.mkdirSync(dataDir, { recursive: true });
    this.db = new Database(path.join(dataDir, 'books.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS companies (guid TEXT PRIMARY KEY, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS masters (company_guid TEXT NOT NULL, master_id INTEGER NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (company_guid, master_id));
      CREATE TABLE IF NOT EXISTS vouchers (company_guid TEXT NOT NULL, master_id INTEGER NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (company_guid, master_id));
      CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    this.upsertCompany = this.db.prepare('INSERT OR REPLACE INTO companies (guid, data) VALUES (?, ?)');
    this.upsertMaster = this.db.prepare('INSERT OR REPLACE INTO masters (company_guid, master_id, data) VALUES (?, ?, ?)');
    this.removeMaster = this.db.prepare('DELETE FROM masters WHERE company_guid = ? AND master_id = ?');
    this.upsertVoucher = this.db.prepare('INSERT OR REPLACE INTO vouchers (company_guid, master_id, data) VALUES (?, ?, ?)');
    this.removeVoucher = this.db.prepare('DELETE FROM vouchers WHERE company_guid = ? AND master_id = ?');
    this.upsertSetting = this.db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
  }

  load(): StoredBooks {
    const companies = (this.db.prepare('SELECT data FROM companies').all() as { data: string }[]).map(
      (row) => JSON.parse(row.data) as CompanyRecord,
    );
    const masters = new Map<string, MasterRecord[]>();
    for (const row of this.db.prepare('SELECT company_guid, data FROM masters ORDER BY master_id').iterate() as Iterable<{
      company_guid: string;
      data: string;
    }>) {
      const list = masters.get(row.company_guid) ?? [];
      list.push(JSON.parse(row.data) as MasterRecord);
      masters.set(row.company_guid, list);
    }
    const vouchers = new Map<string, VoucherRecord[]>();
    for (const row of this.db.prepare('SELECT company_guid, data FROM vouchers ORDER BY master_id').iterate() as Iterable<{
      company_guid: string;
      data: string;
    }>) {
      const list = vouchers.get(row.company_guid) ?? [];
      list.push(JSON.parse(row.data) as VoucherRecord);
      vouchers.set(row.company_guid, list);
    }
    const settings = new Map<string, string>();
    for (const row of this.db.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[]) {
      settings.set(row.key, row.value);
    }
    return { companies, masters, vouchers, settings };
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  saveCompany(company: CompanyRecord): void {
    this.upsertCompany.run(company.guid, JSON.stringify(company));
  }

  saveMaster(companyGuid: string, master: MasterRecord): void {
    this.upsertMaster.run(companyGuid, master.masterId, JSON.stringify(master));
  }

  deleteMaster(companyGuid: string, masterId: number): void {
    this.removeMaster.run(companyGuid, masterId);
  }

  saveVoucher(companyGuid: string, voucher: VoucherRecord): void {
    this.upsertVoucher.run(companyGuid, voucher.masterId, JSON.stringify(voucher));
  }

  deleteVoucher(companyGuid: string, masterId: number): void {
    this.removeVoucher.run(companyGuid, masterId);
  }

  saveSetting(key: string, value: string): void {
    this.upsertSetting.run(key, value);
  }

  wipe(): void {
    this.db.exec('DELETE FROM companies; DELETE FROM masters; DELETE FROM vouchers; DELETE FROM settings;');
  }

  close(): void {
    this.db.close();
  }
}
