// Figures behind the statement reports, computed from the books the way TallyPrime's are: a balance-sheet
// ledger's closing = its opening + every posting up to the as-on date; a revenue ledger's = its postings
// from the start of the financial year of the as-on date (earlier years' results sit in `Profit & Loss
// A/c`, as TallyPrime carries them forward). Cancelled, optional and order vouchers post nothing. Each
// ledger rolls up to its primary row: the top-level group it sits under, or itself when it sits directly
// under Primary (`Profit & Loss A/c`). Stock: opening value of the items, and closing value at the average
// inward cost (the emulator's one valuation method), both as of the as-on date.
import type { CompanyBooks } from '../state/company-books.js';
import { parentName } from '../state/master-facts.js';
import type { MasterRecord } from '../state/records.js';
import { postingsByLedger } from '../state/voucher-facts.js';
import { nameKey, parseAmount, parseLogical, stripSystemMark } from '../tally-format.js';
import { textOf } from '../xml/xml-tree.js';
import type { ExportContext } from './export-context.js';
import { masterObject } from './export-object.js';

export interface PrimaryRow {
  name: string;
  /** A primary group (or undefined for a ledger directly under Primary). */
  group: MasterRecord | undefined;
  isRevenue: boolean;
  /** Signed paise (debit negative). */
  amount: number;
  /** Whether any ledger under it has an opening balance or a posting in range. */
  moved: boolean;
}

/** The first day of the financial year holding `date`, the year starting on the company's period month/day. */
export function financialYearStart(books: CompanyBooks, date: string): string {
  const monthDay = books.record.periodFrom.slice(4);
  const sameYear = `${date.slice(0, 4)}${monthDay}`;
  return sameYear <= date ? sameYear : `${Number(date.slice(0, 4)) - 1}${monthDay}`;
}

export class ReportFigures {
  readonly rows = new Map<string, PrimaryRow>();
  readonly openingStock: number;
  readonly closingStock: number;
  /** Sum of every opening balance (ledgers and stock); TallyPrime shows its negation as "Difference in Opening Balances". */
  readonly openingTotal: number;

  constructor(
    readonly ctx: ExportContext,
    readonly books: CompanyBooks,
    /** Revenue postings from this date count (the statement's start); balance-sheet postings from the beginning. */
    readonly revenueFrom: string,
    readonly asOn: string,
  ) {
    const postings = this.postings(revenueFrom, asOn);
    const earlier = this.postings('00000000', dayBefore(revenueFrom));
    let openingTotal = 0;
    const pnl = this.row(books.findMaster('LEDGER', 'Profit & Loss A/c'));
    for (const ledger of books.mastersOf('LEDGER')) {
      const row = this.row(ledger);
      const key = nameKey(ledger.name);
      const opening = parseAmount(textOf(ledger.tree, 'OPENINGBALANCE')) ?? 0;
      openingTotal += opening;
      const before = earlier.get(key) ?? 0;
      const within = postings.get(key) ?? 0;
      if (row.isRevenue) {
        row.amount += within;
        // Earlier years' income and expenses were closed into Profit & Loss A/c.
        if (pnl) pnl.amount += before + opening;
        if (within !== 0) row.moved = true;
        if (pnl && (before !== 0 || opening !== 0)) pnl.moved = true;
      } else {
        row.amount += opening + before + within;
        if (opening !== 0 || before !== 0 || within !== 0) row.moved = true;
      }
    }
    this.openingStock = this.stockValue('OPENINGVALUE');
    this.closingStock = this.stockValue('CLOSINGVALUE');
    this.openingTotal = openingTotal + this.openingStock;
  }

  /** Signed totals per ledger (name key) over vouchers dated from..to that post. */
  private postings(from: string, to: string): Map<string, number> {
    const totals = new Map<string, number>();
    for (const voucher of this.books.vouchers.values()) {
      if (voucher.date < from || voucher.date > to || !this.ctx.posts(voucher)) continue;
      for (const [ledger, amount] of postingsByLedger(voucher.tree)) {
        const key = nameKey(ledger);
        totals.set(key, (totals.get(key) ?? 0) + amount);
      }
    }
    return totals;
  }

  /** The primary row a ledger (or group) rolls up to, created on first use. */
  private row(master: MasterRecord | undefined): PrimaryRow {
    let current = master;
    let group: MasterRecord | undefined;
    for (let depth = 0; depth < 50 && current; depth += 1) {
      const parent = stripSystemMark(parentName(current.tree)).trim();
      if (parent === '' || nameKey(parent) === 'primary') break;
      const next = this.books.findMaster('GROUP', parent);
      if (!next) break;
      group = next;
      current = next;
    }
    const name = group?.name ?? master?.name ?? '';
    let row = this.rows.get(nameKey(name));
    if (!row) {
      const isRevenue = group ? parseLogical(textOf(group.tree, 'ISREVENUE')) === true : false;
      row = { name, group, isRevenue, amount: 0, moved: false };
      this.rows.set(nameKey(name), row);
    }
    return row;
  }

  private stockValue(field: 'OPENINGVALUE' | 'CLOSINGVALUE'): number {
    let total = 0;
    for (const item of this.books.mastersOf('STOCKITEM')) {
      const value = field === 'OPENINGVALUE' ? textOf(item.tree, 'OPENINGVALUE') : masterObject(this.ctx, this.books, item).computed.CLOSINGVALUE?.();
      total += parseAmount(value) ?? 0;
    }
    return total;
  }

  /** A primary row by name (groups by their reserved names). */
  amountOf(name: string): number {
    return this.rows.get(nameKey(name))?.amount ?? 0;
  }

  movedRow(name: string): PrimaryRow | undefined {
    const row = this.rows.get(nameKey(name));
    return row?.moved ? row : undefined;
  }

  /** Net profit of the statement period (credit positive): incomes − expenses + closing stock − opening stock. */
  netProfit(): number {
    let revenue = 0;
    for (const row of this.rows.values()) if (row.isRevenue) revenue += row.amount;
    return revenue - this.closingStock + this.openingStock;
  }
}

function dayBefore(yyyymmdd: string): string {
  const t = Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8))) - 86_400_000;
  return new Date(t).toISOString().slice(0, 10).replace(/-/g, '');
}
