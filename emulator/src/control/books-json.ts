// What the control API shows of the books, as JSON: companies, and what is booked in one of them.
import type { BooksStore } from '../state/books-store.js';
import type { CompanyBooks } from '../state/company-books.js';
import { parentName } from '../state/master-facts.js';
import { isMasterType } from '../state/records.js';
import { ledgerEntries } from '../state/voucher-facts.js';
import { stripSystemMark } from '../tally-format.js';
import { textOf } from '../xml/xml-tree.js';

export function companiesJson(store: BooksStore): unknown[] {
  const active = store.active();
  return store.all().map((books) => ({
    guid: books.record.guid,
    name: books.record.name,
    booksFrom: books.record.booksFrom,
    periodFrom: books.record.periodFrom,
    periodTo: books.record.periodTo,
    gstEnabled: books.record.gstEnabled,
    inventoryEnabled: books.record.inventoryEnabled,
    isOpen: books.record.isOpen,
    isActive: books === active,
    altMstId: books.record.altMstId,
    altVchId: books.record.altVchId,
    masters: books.masters.size,
    vouchers: books.vouchers.size,
  }));
}

export function vouchersJson(books: CompanyBooks): unknown[] {
  return [...books.vouchers.values()]
    .sort((a, b) => a.masterId - b.masterId)
    .map((v) => ({
      masterId: v.masterId,
      alterId: v.alterId,
      guid: v.guid,
      remoteId: v.clientRemoteId,
      vchKey: v.vchKey,
      date: v.date,
      voucherType: v.typeName,
      voucherNumber: v.number,
      numberingSeries: v.series,
      isCancelled: v.isCancelled,
      isOptional: v.isOptional,
      partyLedgerName: textOf(v.tree, 'PARTYLEDGERNAME') ?? '',
      narration: textOf(v.tree, 'NARRATION') ?? '',
      ledgerEntries: ledgerEntries(v.tree).map((e) => ({ ledgerName: e.ledgerName, amount: e.amount / 100 })),
      bills: v.bills.map((b) => ({ ledgerName: b.ledgerName, name: b.name, billType: b.billType, amount: b.amount / 100 })),
    }));
}

export function mastersJson(books: CompanyBooks, type: string | null): unknown[] | undefined {
  const wanted = type?.replace(/[\s_]/g, '').toUpperCase();
  if (wanted && !isMasterType(wanted)) return undefined;
  return [...books.masters.values()]
    .filter((m) => !wanted || m.type === wanted)
    .sort((a, b) => a.masterId - b.masterId)
    .map((m) => ({
      type: m.type,
      masterId: m.masterId,
      alterId: m.alterId,
      guid: m.guid,
      name: m.name,
      aliases: m.aliases,
      parent: stripSystemMark(parentName(m.tree)),
      reservedName: m.reservedName,
    }));
}
