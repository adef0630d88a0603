// One company's books in memory: its masters and vouchers with the indexes the rules need (names as
// TallyPrime matches them, client REMOTEIDs, voucher numbers per series, outstanding bills), and the
// identity counters: MASTERID (masters and vouchers apart), one ALTERID sequence, AltMstId / AltVchId.
import { dayNumber, hex8, nameKey } from '../tally-format.js';
import type { BooksDatabase } from './database.js';
import type { BillRow, CompanyRecord, MasterRecord, MasterType, VoucherRecord } from './records.js';

export interface OutstandingBill {
  name: string;
  /** Paise, sum of every allocation against the bill (debit negative). */
  amount: number;
  opened: boolean;
  /** The date of the allocation that opened it (YYYYMMDD): an `Agst Ref` carries it (bridge §12a.4 #2). */
  date?: string;
}

export class CompanyBooks {
  readonly masters = new Map<number, MasterRecord>();
  readonly vouchers = new Map<number, VoucherRecord>();
  private readonly names = new Map<MasterType, Map<string, MasterRecord>>();
  private readonly byRemoteId = new Map<string, VoucherRecord>();
  private readonly numbers = new Map<string, number>();
  private readonly bills = new Map<string, Map<string, OutstandingBill>>();
  /** Ledger name key → master ids of vouchers that post to it (a ledger with vouchers cannot be deleted). */
  private readonly ledgerUse = new Map<string, number>();

  constructor(
    readonly record: CompanyRecord,
    private readonly db: BooksDatabase,
  ) {}

  // ---- identities ----

  guidFor(masterId: number): string {
    return `${this.record.guid}-${hex8(masterId)}`;
  }

  allocateMasterId(): number {
    return this.record.nextMasterId++;
  }

  allocateVoucherId(): number {
    return this.record.nextVoucherId++;
  }

  /** Every change moves the one ALTERID sequence; the company remembers the high-water marks. */
  allocateAlterId(kind: 'master' | 'voucher'): number {
    const id = this.record.nextAlterId++;
    if (kind === 'master') this.record.altMstId = id;
    else this.record.altVchId = id;
    return id;
  }

  /** VCHKEY = company GUID - day number : sequence of the voucher on that day (steps of 8, as captured). */
  allocateVchKey(date: string): { vchKey: string; voucherKey: number } {
    const jd = dayNumber(date);
    const seq = (this.record.dayKeys[String(jd)] ?? 0) + 8;
    this.record.dayKeys[String(jd)] = seq;
    return { vchKey: `${this.record.guid}-${hex8(jd)}:${hex8(seq)}`, voucherKey: jd * 2 ** 32 + seq };
  }

  save(): void {
    this.db.saveCompany(this.record);
  }

  // ---- masters ----

  findMaster(type: MasterType, name: string): MasterRecord | undefined {
    return this.names.get(type)?.get(nameKey(name));
  }

  mastersOf(type: MasterType): MasterRecord[] {
    return [...this.masters.values()].filter((m) => m.type === type);
  }

  indexMaster(master: MasterRecord): void {
    this.masters.set(master.masterId, master);
    let index = this.names.get(master.type);
    if (!index) {
      index = new Map();
      this.names.set(master.type, index);
    }
    for (const name of [master.name, ...master.aliases]) index.set(nameKey(name), master);
  }

  private unindexMaster(master: MasterRecord): void {
    const index = this.names.get(master.type);
    for (const name of [master.name, ...master.aliases]) {
      // By identity of the object, not of the record: an alteration passes a copy of the old record.
      if (index?.get(nameKey(name))?.masterId === master.masterId) index.delete(nameKey(name));
    }
  }

  putMaster(master: MasterRecord, previous?: MasterRecord): void {
    if (previous) this.unindexMaster(previous);
    this.indexMaster(master);
    this.db.saveMaster(this.record.guid, master);
  }

  removeMaster(master: MasterRecord): void {
    this.unindexMaster(master);
    this.masters.delete(master.masterId);
    this.db.deleteMaster(this.record.guid, master.masterId);
  }

  /** Locks the ledgers and stock items a booked voucher names against deletion, for good. */
  markUsedByVoucher(named: { ledgers: string[]; stockItems: string[] }): void {
    const masters = [
      ...named.ledgers.map((n) => this.findMaster('LEDGER', n)),
      ...named.stockItems.map((n) => this.findMaster('STOCKITEM', n)),
    ];
    for (const master of masters) {
      if (!master || master.usedByVoucher) continue;
      master.usedByVoucher = true;
      this.db.saveMaster(this.record.guid, master);
    }
  }

  ledgerHasVouchers(name: string): boolean {
    return (this.ledgerUse.get(nameKey(name)) ?? 0) > 0;
  }

  // ---- vouchers ----

  findByRemoteId(remoteId: string): VoucherRecord | undefined {
    return remoteId ? this.byRemoteId.get(remoteId) : undefined;
  }

  numberTaken(typeName: string, series: string, number: string): boolean {
    return (this.numbers.get(numberKey(typeName, series, number)) ?? 0) > 0;
  }

  indexVoucher(voucher: VoucherRecord, ledgerNames: string[]): void {
    this.vouchers.set(voucher.masterId, voucher);
    if (voucher.clientRemoteId) this.byRemoteId.set(voucher.clientRemoteId, voucher);
    if (voucher.number) {
      const key = numberKey(voucher.typeName, voucher.series, voucher.number);
      this.numbers.set(key, (this.numbers.get(key) ?? 0) + 1);
    }
    for (const bill of voucher.bills) this.applyBill(bill, 1);
    for (const ledger of new Set(ledgerNames.map(nameKey))) this.ledgerUse.set(ledger, (this.ledgerUse.get(ledger) ?? 0) + 1);
  }

  unindexVoucher(voucher: VoucherRecord, ledgerNames: string[]): void {
    this.vouchers.delete(voucher.masterId);
    if (voucher.clientRemoteId && this.byRemoteId.get(voucher.clientRemoteId) === voucher) {
      this.byRemoteId.delete(voucher.clientRemoteId);
    }
    if (voucher.number) {
      const key = numberKey(voucher.typeName, voucher.series, voucher.number);
      this.numbers.set(key, Math.max(0, (this.numbers.get(key) ?? 0) - 1));
    }
    for (const bill of voucher.bills) this.applyBill(bill, -1);
    for (const ledger of new Set(ledgerNames.map(nameKey))) this.ledgerUse.set(ledger, (this.ledgerUse.get(ledger) ?? 1) - 1);
  }

  persistVoucher(voucher: VoucherRecord): void {
    this.db.saveVoucher(this.record.guid, voucher);
  }

  deleteVoucherRow(voucher: VoucherRecord): void {
    this.db.deleteVoucher(this.record.guid, voucher.masterId);
  }

  // ---- bills ----

  /** Opening bills of a ledger master count like `New Ref` allocations. */
  applyBill(bill: BillRow, direction: 1 | -1): void {
    if (bill.billType === 'On Account') return;
    const ledger = nameKey(bill.ledgerName);
    let perLedger = this.bills.get(ledger);
    if (!perLedger) {
      perLedger = new Map();
      this.bills.set(ledger, perLedger);
    }
    const key = nameKey(bill.name);
    const entry = perLedger.get(key) ?? { name: bill.name, amount: 0, opened: false };
    entry.amount += direction * bill.amount;
    if (bill.billType === 'New Ref' || bill.billType === 'Opening' || bill.billType === 'Advance') {
      entry.opened = direction === 1 ? true : entry.opened;
      if (direction === 1 && bill.date) entry.date ??= bill.date;
    }
    perLedger.set(key, entry);
  }

  outstandingBill(ledgerName: string, billName: string): OutstandingBill | undefined {
    const bill = this.bills.get(nameKey(ledgerName))?.get(nameKey(billName));
    return bill && bill.opened && bill.amount !== 0 ? bill : undefined;
  }

  billExists(ledgerName: string, billName: string): boolean {
    return this.bills.get(nameKey(ledgerName))?.get(nameKey(billName))?.opened === true;
  }

  outstandingBills(ledgerName: string): OutstandingBill[] {
    return [...(this.bills.get(nameKey(ledgerName))?.values() ?? [])].filter((b) => b.opened && b.amount !== 0);
  }

  lastVoucherDate(): string {
    let last = '';
    for (const v of this.vouchers.values()) if (v.date > last) last = v.date;
    return last;
  }
}

function numberKey(typeName: string, series: string, number: string): string {
  return `${nameKey(typeName)}|${nameKey(series)}|${number.trim().toLowerCase()}`;
}
