// Voucher numbering by the voucher type's series (bridge master rules 5–7): `Manual` and
// `Automatic (Manual Override)` keep the number sent, `Automatic` and `Multi-user Auto` discard it and
// assign the next one, `None` stores no number. With prevent-duplicates a repeated number is refused
// with EXCEPTIONS=1 and no LINEERROR, as captured. `Auto Renumber` renumbers a series by date.
import type { CompanyBooks } from '../state/company-books.js';
import { numberingSeries } from '../state/master-facts.js';
import type { MasterRecord, NumberingSeries, VoucherRecord } from '../state/records.js';
import { nameKey } from '../tally-format.js';
import { child, textOf, type XNode } from '../xml/xml-tree.js';
import { messages } from './messages.js';

export type NumberingResult =
  | { ok: true; number: string; series: NumberingSeries; assigned: boolean }
  | { ok: false; lineError?: string };

function seriesKey(typeName: string, series: string): string {
  return `${nameKey(typeName)}|${nameKey(series)}`;
}

export function pickSeries(voucherType: MasterRecord, element: XNode): NumberingSeries | undefined {
  const all = numberingSeries(voucherType.tree);
  const wanted = (textOf(element, 'VOUCHERNUMBERSERIES') ?? '').trim();
  if (wanted === '') return all.find((s) => s.isDefault) ?? all[0];
  return all.find((s) => nameKey(s.name) === nameKey(wanted));
}

export function assignNumber(
  books: CompanyBooks,
  voucherType: MasterRecord,
  element: XNode,
  existing: VoucherRecord | undefined,
): NumberingResult {
  const series = pickSeries(voucherType, element);
  if (!series) return { ok: false, lineError: messages.seriesMissing((textOf(element, 'VOUCHERNUMBERSERIES') ?? '').trim()) };
  const sent = (textOf(element, 'VOUCHERNUMBER') ?? '').trim();
  const sameSeries = existing && nameKey(existing.typeName) === nameKey(voucherType.name) && nameKey(existing.series) === nameKey(series.name);
  switch (series.method) {
    case 'None':
      return { ok: true, number: '', series, assigned: false };
    case 'Automatic':
    case 'Multi-user Auto':
      if (sameSeries && existing.number) return { ok: true, number: existing.number, series, assigned: false };
      return { ok: true, number: nextNumber(books, voucherType.name, series.name), series, assigned: true };
    case 'Automatic (Manual Override)':
      if (sent === '') {
        if (sameSeries && existing.number) return { ok: true, number: existing.number, series, assigned: false };
        return { ok: true, number: nextNumber(books, voucherType.name, series.name), series, assigned: true };
      }
      break;
    default:
      break;
  }
  const unchanged = sameSeries && existing.number.toLowerCase() === sent.toLowerCase();
  if (series.preventDuplicates && sent !== '' && !unchanged && books.numberTaken(voucherType.name, series.name, sent)) {
    return { ok: false };
  }
  return { ok: true, number: sent, series, assigned: false };
}

function nextNumber(books: CompanyBooks, typeName: string, series: string): string {
  const key = seriesKey(typeName, series);
  let next = (books.record.lastNumbers[key] ?? 0) + 1;
  while (books.numberTaken(typeName, series, String(next))) next += 1;
  books.record.lastNumbers[key] = next;
  return String(next);
}

/** After a change in an `Auto Renumber` series, numbers follow date order again (1, 2, 3…). */
export function renumberSeries(books: CompanyBooks, voucherType: MasterRecord, series: NumberingSeries, reindex: (v: VoucherRecord, number: string) => void): void {
  if (series.subMethod !== 'Auto Renumber' || !['Automatic', 'Multi-user Auto'].includes(series.method)) return;
  const members = [...books.vouchers.values()]
    .filter((v) => nameKey(v.typeName) === nameKey(voucherType.name) && nameKey(v.series) === nameKey(series.name) && !v.isCancelled)
    .sort((a, b) => (a.date === b.date ? a.masterId - b.masterId : a.date < b.date ? -1 : 1));
  members.forEach((voucher, index) => {
    const number = String(index + 1);
    if (voucher.number !== number) reindex(voucher, number);
  });
  books.record.lastNumbers[seriesKey(voucherType.name, series.name)] = members.length;
}

export function setVoucherNumber(tree: XNode, number: string): void {
  const field = child(tree, 'VOUCHERNUMBER');
  if (field) field.text = number;
}
