// The checks TallyPrime makes before it books a voucher, in its order: voucher type, date, GST on a
// company without GST, every named master (matched as TallyPrime matches names), invoice view needing
// inventory, and Dr = Cr by the sign of AMOUNT (negative = debit). Names are rewritten to the masters'
// own spelling, as TallyPrime stores links rather than text.
import type { CompanyBooks } from '../state/company-books.js';
import { inventoryEntries, ledgerEntries, postingEntries, type LedgerEntryFact } from '../state/voucher-facts.js';
import { MASTER_LABELS, type MasterRecord, type MasterType } from '../state/records.js';
import { formatLongDate, nameKey, parseTallyDate, stripSystemMark } from '../tally-format.js';
import { attr, child, textOf, type XNode } from '../xml/xml-tree.js';
import { messages } from './messages.js';

export interface VoucherCheck {
  voucherType: MasterRecord;
  date: string;
  isInvoiceView: boolean;
}

export type CheckResult = { ok: true; value: VoucherCheck } | { ok: false; lineError: string };

const fail = (lineError: string): CheckResult => ({ ok: false, lineError });

export function voucherTypeName(element: XNode): string {
  const inner = textOf(element, 'VOUCHERTYPENAME');
  return (inner !== undefined && inner.trim() !== '' ? inner : attr(element, 'VCHTYPE') ?? '').trim();
}

export function voucherView(element: XNode): string {
  return (attr(element, 'OBJVIEW') ?? textOf(element, 'PERSISTEDVIEW') ?? 'Accounting Voucher View').trim();
}

/** GST details: a party GSTIN, place of supply or registration type, or a non-zero GST rate anywhere. */
function hasGstDetails(element: XNode): boolean {
  for (const tag of ['PARTYGSTIN', 'PLACEOFSUPPLY', 'GSTREGISTRATIONTYPE', 'CMPGSTIN']) {
    if (stripSystemMark(textOf(element, tag) ?? '').trim() !== '') return true;
  }
  const walk = (n: XNode): boolean => {
    const tag = n.tag.toUpperCase();
    if (tag === 'GSTRATE' && (Number(n.text.trim()) || 0) !== 0) return true;
    if (tag === 'GSTCLASS' && !['', 'not applicable'].includes(nameKey(n.text))) return true;
    return n.children.some(walk);
  };
  return element.children.some(walk);
}

function resolveName(books: CompanyBooks, type: MasterType, field: XNode | undefined): string | undefined {
  if (!field || field.text.trim() === '') return undefined;
  const master = books.findMaster(type, field.text);
  if (!master) return messages.missingMaster(MASTER_LABELS[type], field.text.trim());
  field.text = master.name;
  return undefined;
}

function checkMasters(books: CompanyBooks, element: XNode): string | undefined {
  const problems: (string | undefined)[] = [];
  problems.push(resolveName(books, 'LEDGER', child(element, 'PARTYLEDGERNAME')));
  for (const entry of ledgerEntries(element)) problems.push(resolveName(books, 'LEDGER', child(entry.node, 'LEDGERNAME')));
  for (const item of inventoryEntries(element)) {
    problems.push(resolveName(books, 'STOCKITEM', child(item.node, 'STOCKITEMNAME')));
    for (const unit of item.units) if (!books.findMaster('UNIT', unit)) problems.push(messages.missingMaster('Unit', unit));
    for (const batch of item.batches) {
      problems.push(resolveName(books, 'GODOWN', child(batch.node, 'GODOWNNAME')));
      problems.push(resolveName(books, 'GODOWN', child(batch.node, 'DESTINATIONGODOWNNAME')));
    }
    for (const allocation of item.allocations) problems.push(resolveName(books, 'LEDGER', child(allocation.node, 'LEDGERNAME')));
  }
  return problems.find((p) => p !== undefined);
}

/** Dr and Cr totals in paise: negative amounts are debits. */
export function voucherTotals(element: XNode): { dr: number; cr: number } {
  const entries: LedgerEntryFact[] = postingEntries(element);
  let dr = 0;
  let cr = 0;
  for (const entry of entries) {
    if (entry.amount < 0) dr += -entry.amount;
    else cr += entry.amount;
  }
  return { dr, cr };
}

export function checkVoucher(books: CompanyBooks, element: XNode, numberForMessages: string): CheckResult {
  const typeName = voucherTypeName(element);
  const voucherType = typeName ? books.findMaster('VOUCHERTYPE', typeName) : undefined;
  if (!voucherType) return fail(messages.missingMaster(MASTER_LABELS.VOUCHERTYPE, typeName));
  const date = parseTallyDate(textOf(element, 'DATE'));
  if (!date) return fail(messages.dateMissing(voucherType.name, numberForMessages));
  if (date < books.record.booksFrom) return fail(messages.dateBelowBooks(formatLongDate(books.record.booksFrom)));
  if (!books.record.gstEnabled && hasGstDetails(element)) return fail(messages.gstNotEnabled());
  const missing = checkMasters(books, element);
  if (missing) return fail(missing);
  const isInvoiceView = nameKey(voucherView(element)) === nameKey('Invoice Voucher View');
  if (isInvoiceView && books.record.inventoryEnabled && inventoryEntries(element).length === 0) {
    return fail(messages.invoiceNeedsInventory(voucherType.name, numberForMessages));
  }
  const { dr, cr } = voucherTotals(element);
  if (dr !== cr) return fail(messages.totalsDoNotMatch(dr, cr));
  return { ok: true, value: { voucherType, date, isInvoiceView } };
}
