// Bills Receivable / Bills Payable and Ledger Vouchers as TallyPrime exports them with `TYPE=Data`.
// Bills: lamemustafa/bridge captured both byte for byte (bills_receivable_validation_lab.xml,
// bills_payable_validation_lab.xml): rows `BILLFIXED(BILLDATE, BILLREF, BILLPARTY)`, `BILLCL` (pending,
// debit negative), `BILLDUE`, `BILLOVERDUE` (days past due, empty when not yet due), dates as `1-Aug-26`;
// receivable = bills pending on the debit side, payable = on the credit side, only for ledgers kept bill
// by bill (ripu-nuvanta/tally_agent LESSONS.md §16); as of SVTODATE. Ledger Vouchers: flat rows
// `DSPVCHDATE, DSPVCHLEDACCOUNT, DSPVCHTYPE, DSPVCHDRAMT, DSPVCHCRAMT` for the ledger named by the static
// variable LEDGERNAME (public client parsers; no capture) — without it, the empty report
// (MarketingBNG/Tally-MCP report-id-verification.md).
import type { CompanyBooks } from '../state/company-books.js';
import { voucherTypeChain } from '../state/master-facts.js';
import type { MasterRecord, VoucherRecord } from '../state/records.js';
import { ledgerEntries, postingsByLedger } from '../state/voucher-facts.js';
import { formatAmount, nameKey, parseAmount, parseLogical, parseTallyDate } from '../tally-format.js';
import { children, textOf, type XNode } from '../xml/xml-tree.js';
import type { ExportContext } from './export-context.js';
import { flat, renderFlatReport, shortDate, type FlatNode } from './flat-report.js';

interface PendingBill {
  party: MasterRecord;
  name: string;
  date: string;
  due: string;
  amount: number;
  order: number;
}

function addDays(yyyymmdd: string, days: number): string {
  const t = Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8))) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10).replace(/-/g, '');
}

function daysBetween(from: string, to: string): number {
  const utc = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(4, 6)) - 1, Number(d.slice(6, 8)));
  return Math.round((utc(to) - utc(from)) / 86_400_000);
}

/** `30 Days` → the bill date + 30; a date → that date; nothing → the bill date. */
function dueDate(billDate: string, creditPeriod: string | undefined): string {
  const text = (creditPeriod ?? '').trim();
  const days = /^(\d+)\s*days?$/i.exec(text);
  if (days) return addDays(billDate, Number(days[1]));
  return parseTallyDate(text) ?? billDate;
}

function pendingBills(ctx: ExportContext, books: CompanyBooks, asOn: string): PendingBill[] {
  const bills = new Map<string, PendingBill>();
  let order = 0;
  const touch = (party: MasterRecord, node: XNode, amount: number, date: string, opens: boolean) => {
    const name = (textOf(node, 'NAME') ?? '').trim();
    if (name === '') return;
    const key = `${party.masterId}|${nameKey(name)}`;
    let bill = bills.get(key);
    if (!bill) {
      const credit = textOf(node, 'BILLCREDITPERIOD') ?? textOf(party.tree, 'BILLCREDITPERIOD');
      bill = { party, name, date, due: dueDate(date, credit), amount: 0, order: (order += 1) };
      bills.set(key, bill);
    } else if (opens && bill.amount === 0) {
      bill.date = date;
    }
    bill.amount += amount;
  };
  const billWise = books.mastersOf('LEDGER').filter((l) => parseLogical(textOf(l.tree, 'ISBILLWISEON')) === true);
  for (const party of billWise.sort((a, b) => a.masterId - b.masterId)) {
    for (const node of children(party.tree, 'BILLALLOCATIONS.LIST')) {
      const date = parseTallyDate(textOf(node, 'BILLDATE')) ?? books.record.booksFrom;
      touch(party, node, parseAmount(textOf(node, 'OPENINGBALANCE')) ?? 0, date, true);
    }
  }
  const vouchers = [...books.vouchers.values()].filter((v) => v.date <= asOn && ctx.posts(v)).sort(byDate);
  for (const voucher of vouchers) {
    for (const entry of ledgerEntries(voucher.tree)) {
      const party = billWise.find((l) => nameKey(l.name) === nameKey(entry.ledgerName) || l.aliases.some((a) => nameKey(a) === nameKey(entry.ledgerName)));
      if (!party) continue;
      for (const bill of entry.bills) {
        if (nameKey(bill.billType) === nameKey('On Account')) continue;
        touch(party, bill.node, bill.amount ?? 0, voucher.date, nameKey(bill.billType) === nameKey('New Ref'));
      }
    }
  }
  return [...bills.values()].filter((b) => b.amount !== 0);
}

const byDate = (a: VoucherRecord, b: VoucherRecord) => (a.date === b.date ? a.masterId - b.masterId : a.date < b.date ? -1 : 1);

function asOnDate(ctx: ExportContext, books: CompanyBooks): string {
  return parseTallyDate(textOf(ctx.staticVariables, 'SVTODATE')) ?? books.record.periodTo;
}

export function billsReport(ctx: ExportContext, books: CompanyBooks, side: 'receivable' | 'payable'): string {
  const asOn = asOnDate(ctx, books);
  // Overdue days count to the books' current date: the last voucher date up to the as-on date (the
  // capture: SVTODATE 17-Aug-26, overdue counted to 1-Aug-26, the last entry of that company).
  let current = '';
  for (const v of books.vouchers.values()) if (v.date <= asOn && v.date > current) current = v.date;
  const reference = current || asOn;
  const rows: FlatNode[] = [];
  const wanted = pendingBills(ctx, books, asOn)
    .filter((b) => (side === 'receivable' ? b.amount < 0 : b.amount > 0))
    .sort((a, b) => (a.date === b.date ? a.order - b.order : a.date < b.date ? -1 : 1));
  for (const bill of wanted) {
    const overdue = daysBetween(bill.due, reference);
    rows.push(flat('BILLFIXED', [flat('BILLDATE', shortDate(bill.date)), flat('BILLREF', bill.name), flat('BILLPARTY', bill.party.name)]));
    rows.push(flat('BILLCL', formatAmount(bill.amount)));
    rows.push(flat('BILLDUE', shortDate(bill.due)));
    rows.push(flat('BILLOVERDUE', overdue < 0 ? '' : String(overdue)));
  }
  return renderFlatReport(rows);
}

/** TallyPrime's default abbreviations of the built-in types (Jrnl, Pymt seen in a client's fixture; the rest a guess). */
const ABBREVIATIONS: Record<string, string> = {
  journal: 'Jrnl', payment: 'Pymt', receipt: 'Rcpt', contra: 'Ctra', sales: 'Sale', purchase: 'Purc',
  'credit note': 'C/Note', 'debit note': 'D/Note',
};

export function ledgerVouchers(ctx: ExportContext, books: CompanyBooks): string {
  const ledgerName = textOf(ctx.staticVariables, 'LEDGERNAME');
  const ledger = ledgerName === undefined ? undefined : books.findMaster('LEDGER', ledgerName);
  if (!ledger) return renderFlatReport([]);
  const key = nameKey(ledger.name);
  const rows: FlatNode[] = [];
  const vouchers = [...books.vouchers.values()].filter((v) => v.date >= ctx.from && v.date <= ctx.to && ctx.posts(v)).sort(byDate);
  for (const voucher of vouchers) {
    const postings = postingsByLedger(voucher.tree);
    const own = [...postings.entries()].filter(([name]) => nameKey(name) === key).reduce((sum, [, amount]) => sum + amount, 0);
    if (![...postings.keys()].some((name) => nameKey(name) === key)) continue;
    // The other side: the first ledger posting opposite to this one (TallyPrime's "Particulars").
    const other = [...postings.entries()].find(([name, amount]) => nameKey(name) !== key && Math.sign(amount) !== Math.sign(own)) ?? [...postings.entries()].find(([name]) => nameKey(name) !== key);
    const type = books.findMaster('VOUCHERTYPE', voucher.typeName);
    const builtIn = voucherTypeChain((n) => books.findMaster('VOUCHERTYPE', n), type).at(-1)?.name ?? voucher.typeName;
    const abbreviation = nameKey(builtIn) === nameKey(voucher.typeName) ? ABBREVIATIONS[nameKey(builtIn)] : undefined;
    rows.push(flat('DSPVCHDATE', shortDate(voucher.date)));
    rows.push(flat('DSPVCHLEDACCOUNT', other?.[0] ?? ''));
    rows.push(flat('DSPVCHTYPE', abbreviation ?? voucher.typeName));
    rows.push(flat('DSPVCHDRAMT', own < 0 ? formatAmount(own) : ''));
    rows.push(flat('DSPVCHCRAMT', own >= 0 ? formatAmount(own) : ''));
  }
  return renderFlatReport(rows);
}
