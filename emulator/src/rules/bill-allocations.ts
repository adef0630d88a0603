// Bill-wise details on a voucher's ledger entries, as TallyPrime treats them: `New Ref` opens a bill,
// `Agst Ref` must name a bill outstanding for that party (else the voucher is refused), `Advance`
// naming an existing bill is stored as `Agst Ref`, `On Account` loses its name, a bill the voucher opens
// takes the voucher's date as BILLDATE, and references on a ledger without bill-wise details are dropped
// silently.
import type { CompanyBooks } from '../state/company-books.js';
import { ledgerEntries } from '../state/voucher-facts.js';
import type { BillRow } from '../state/records.js';
import { parseLogical } from '../tally-format.js';
import { child, textOf, type XNode } from '../xml/xml-tree.js';
import { messages } from './messages.js';

export const BILL_TYPES = ['New Ref', 'Agst Ref', 'Advance', 'On Account'];

export type BillResult = { ok: true; bills: BillRow[] } | { ok: false; lineError: string };

function canonicalType(raw: string, name: string): string {
  const found = BILL_TYPES.find((t) => t.toLowerCase() === raw.trim().toLowerCase());
  if (found) return found;
  return name ? 'Agst Ref' : 'On Account';
}

function setText(parent: XNode, tag: string, text: string): void {
  const field = child(parent, tag);
  if (field) field.text = text;
}

export function applyBillRules(books: CompanyBooks, voucher: XNode, date: string): BillResult {
  const bills: BillRow[] = [];
  for (const entry of ledgerEntries(voucher)) {
    if (entry.bills.length === 0) continue;
    const ledger = books.findMaster('LEDGER', entry.ledgerName);
    const billWise = ledger ? parseLogical(textOf(ledger.tree, 'ISBILLWISEON')) === true : false;
    if (!billWise) {
      entry.node.children = entry.node.children.filter((c) => c.tag.toUpperCase() !== 'BILLALLOCATIONS.LIST');
      continue;
    }
    for (const bill of entry.bills) {
      let billType = canonicalType(bill.billType, bill.name);
      const amount = bill.amount ?? entry.amount;
      if (billType === 'Agst Ref' && !books.outstandingBill(entry.ledgerName, bill.name)) {
        return { ok: false, lineError: messages.billNotOutstanding(bill.name, entry.ledgerName) };
      }
      if (billType === 'Advance' && books.billExists(entry.ledgerName, bill.name)) billType = 'Agst Ref';
      const name = billType === 'On Account' ? '' : bill.name;
      setText(bill.node, 'BILLTYPE', billType);
      setText(bill.node, 'NAME', name);
      // A bill this voucher opens is dated by the voucher, whatever BILLDATE was sent; an Agst Ref carries
      // the settled bill's own date (bridge §12a.4 #1, #2).
      const settledOn = billType === 'Agst Ref' ? books.outstandingBill(entry.ledgerName, bill.name)?.date : undefined;
      if (billType === 'New Ref' || billType === 'Advance') setText(bill.node, 'BILLDATE', date);
      else if (settledOn) setText(bill.node, 'BILLDATE', settledOn);
      bills.push({ ledgerName: entry.ledgerName, name, billType, amount, date });
    }
  }
  return { ok: true, bills };
}
