// `--vouchers N`: N realistic vouchers for load work (sales with GST and new bills, receipts against
// them, purchases, payments, journals), spread over the company's loaded period, booked through the
// same rules as an import. Deterministic: the same N gives the same books.
import type { CompanyBooks } from '../state/company-books.js';
import { dayNumber, formatAmount } from '../tally-format.js';
import { escapeXml } from '../xml/xml-tree.js';
import { importAll } from './demo-seed.js';

function dateAt(from: string, to: string, index: number, count: number): string {
  const start = Date.UTC(Number(from.slice(0, 4)), Number(from.slice(4, 6)) - 1, Number(from.slice(6, 8)));
  const days = Math.max(1, dayNumber(to) - dayNumber(from) + 1);
  const offset = Math.floor((index * days) / Math.max(1, count));
  const d = new Date(start + offset * 86_400_000);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

function entry(ledger: string, paise: number, bill?: [string, string]): string {
  const billXml = bill
    ? `<BILLALLOCATIONS.LIST><NAME>${bill[0]}</NAME><BILLTYPE>${bill[1]}</BILLTYPE><AMOUNT>${formatAmount(paise)}</AMOUNT></BILLALLOCATIONS.LIST>`
    : '';
  return `<ALLLEDGERENTRIES.LIST><LEDGERNAME>${escapeXml(ledger)}</LEDGERNAME><ISDEEMEDPOSITIVE>${paise < 0 ? 'Yes' : 'No'}</ISDEEMEDPOSITIVE><AMOUNT>${formatAmount(paise)}</AMOUNT>${billXml}</ALLLEDGERENTRIES.LIST>`;
}

function voucher(type: string, date: string, narration: string, entries: string[], party?: string): string {
  const partyXml = party ? `<PARTYLEDGERNAME>${escapeXml(party)}</PARTYLEDGERNAME>` : '';
  return `<VOUCHER VCHTYPE="${type}" ACTION="Create" OBJVIEW="Accounting Voucher View"><DATE>${date}</DATE><VOUCHERTYPENAME>${type}</VOUCHERTYPENAME>${partyXml}<NARRATION>${escapeXml(narration)}</NARRATION>${entries.join('')}</VOUCHER>`;
}

/** The i-th load voucher for a demo company (party names of the demo seed). */
export function loadVoucherXml(i: number, date: string): string {
  const base = 100_00 + ((i * 7919) % 90_000) * 100;
  const tax = Math.round(base * 0.09);
  switch (i % 5) {
    case 0:
      return voucher('Sales', date, `Load sale ${i}`, [
        entry('Ram & Sons', -(base + 2 * tax), [`LD-${i}`, 'New Ref']),
        entry('Sales - Services', base),
        entry('Output CGST', tax),
        entry('Output SGST', tax),
      ], 'Ram & Sons');
    case 1:
      return voucher('Receipt', date, `Load receipt ${i}`, [
        entry('HDFC Bank', -base),
        entry('Ram & Sons', base, [`LD-${i - 1}`, 'Agst Ref']),
      ], 'Ram & Sons');
    case 2:
      return voucher('Purchase', date, `Load purchase ${i}`, [
        entry('Purchase - Goods', -base),
        entry('Input CGST', -tax),
        entry('Input SGST', -tax),
        entry('Northwind Suppliers', base + 2 * tax, [`NW-${i}`, 'New Ref']),
      ], 'Northwind Suppliers');
    case 3:
      return voucher('Payment', date, `Load payment ${i}`, [entry('Office Rent', -base), entry('HDFC Bank', base)], 'HDFC Bank');
    default:
      return voucher('Journal', date, `Load journal ${i}`, [entry('Freight & Cartage', -base), entry('Cash', base)]);
  }
}

export function loadVouchers(books: CompanyBooks, count: number): void {
  // Each one's XML is made as it is booked: a million of them held at once would be a gigabyte of text.
  for (let i = 0; i < count; i += 1) importAll(books, [loadVoucherXml(i, dateAt(books.record.periodFrom, books.record.periodTo, i, count))]);
}
