// What an export needs besides the objects: the company, the period in force (SVFROMDATE/SVTODATE,
// else the company's loaded period), static variables for formulas, and lifetime balances computed
// once per request (TallyPrime's Ledger.ClosingBalance in a collection ignores the window).
import type { CompanyBooks } from '../state/company-books.js';
import { parseQuantity } from '../tally-format.js';
import { inventoryEntries, postingsByLedger } from '../state/voucher-facts.js';
import { nameKey, parseAmount, parseTallyDate } from '../tally-format.js';
import { textOf, type XNode } from '../xml/xml-tree.js';
import { isOrderType } from '../state/master-facts.js';

/** Movements of one stock item: inward quantity and value (at cost), outward quantity. */
export interface StockPosition {
  inQty: number;
  inValue: number;
  outQty: number;
  unit: string;
}

export class ExportContext {
  readonly from: string;
  readonly to: string;
  /** Closing balances count vouchers up to this date only (reports, the built-in ledger list); else lifetime. */
  closingAsOf: string | undefined;
  private ledgerTotals: Map<string, { amount: number; moved: boolean }> | undefined;
  private stock: Map<string, StockPosition> | undefined;
  private readonly orderTypes = new Map<string, boolean>();

  constructor(
    readonly books: CompanyBooks | undefined,
    readonly staticVariables: XNode | undefined,
    readonly requestedCompany: string | undefined,
  ) {
    const from = parseTallyDate(textOf(staticVariables, 'SVFROMDATE'));
    const to = parseTallyDate(textOf(staticVariables, 'SVTODATE'));
    this.from = from ?? books?.record.periodFrom ?? '19000101';
    this.to = to ?? books?.record.periodTo ?? '99991231';
  }

  staticVariable(name: string): string | undefined {
    if (nameKey(name) === 'svcurrentcompany') return this.requestedCompany ?? this.books?.record.name;
    if (nameKey(name) === 'svfromdate') return this.from;
    if (nameKey(name) === 'svtodate') return this.to;
    const found = this.staticVariables?.children.find((c) => nameKey(c.tag) === nameKey(name));
    return found?.text;
  }

  /** Whether a voucher moves balances: not cancelled, not optional, not an order (orders post nothing). */
  posts(voucher: { isCancelled: boolean; isOptional: boolean; typeName: string }): boolean {
    if (voucher.isCancelled || voucher.isOptional) return false;
    let order = this.orderTypes.get(voucher.typeName);
    if (order === undefined) {
      const books = this.books;
      order = books ? isOrderType((name) => books.findMaster('VOUCHERTYPE', name), voucher.typeName) : false;
      this.orderTypes.set(voucher.typeName, order);
    }
    return !order;
  }

  /** Lifetime closing balance in paise (opening + every posting); `moved` false when nothing ever posted. */
  ledgerClosing(name: string, opening: number): { amount: number; moved: boolean } {
    if (!this.ledgerTotals) {
      this.ledgerTotals = new Map();
      for (const voucher of this.books?.vouchers.values() ?? []) {
        if (!this.posts(voucher)) continue;
        if (this.closingAsOf !== undefined && voucher.date > this.closingAsOf) continue;
        for (const [ledger, amount] of postingsByLedger(voucher.tree)) {
          const key = nameKey(ledger);
          const current = this.ledgerTotals.get(key) ?? { amount: 0, moved: false };
          this.ledgerTotals.set(key, { amount: current.amount + amount, moved: true });
        }
      }
    }
    const posted = this.ledgerTotals.get(nameKey(name));
    return { amount: opening + (posted?.amount ?? 0), moved: posted?.moved === true || opening !== 0 };
  }

  /** Stock movements per item: inward lines are debits (negative amount or ISDEEMEDPOSITIVE Yes). */
  stockClosing(item: string): StockPosition | undefined {
    if (!this.stock) {
      this.stock = new Map();
      for (const voucher of this.books?.vouchers.values() ?? []) {
        if (!this.posts(voucher)) continue;
        if (this.closingAsOf !== undefined && voucher.date > this.closingAsOf) continue;
        for (const entry of inventoryEntries(voucher.tree)) {
          const qty = parseQuantity(textOf(entry.node, 'ACTUALQTY') ?? textOf(entry.node, 'BILLEDQTY'));
          if (!qty) continue;
          const inward = entry.amount < 0 || textOf(entry.node, 'ISDEEMEDPOSITIVE')?.trim().toLowerCase() === 'yes';
          const key = nameKey(entry.stockItemName);
          const current = this.stock.get(key) ?? { inQty: 0, inValue: 0, outQty: 0, unit: qty.unit };
          if (inward) {
            current.inQty += qty.quantity;
            current.inValue += Math.abs(parseAmount(textOf(entry.node, 'AMOUNT')) ?? 0);
          } else {
            current.outQty += qty.quantity;
          }
          this.stock.set(key, current);
        }
      }
    }
    return this.stock.get(nameKey(item));
  }
}
