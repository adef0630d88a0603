// Imports one voucher: Create books it (or, when its client REMOTEID is already known, alters that
// voucher wholesale: CREATED=0 ALTERED=1); Alter addressed by TAGNAME or REMOTEID alters, otherwise
// books a new one (as captured on TallyPrime); Cancel keeps the voucher with ISCANCELLED=Yes and its
// entries stripped (ALTERED=1, CANCELLED stays 0); Delete removes it without renumbering others.
import type { CompanyBooks } from '../state/company-books.js';
import type { MasterRecord, NumberingSeries, VoucherRecord } from '../state/records.js';
import { INVENTORY_LISTS, LEDGER_LISTS, voucherLedgerNames } from '../state/voucher-facts.js';
import { applyBillRules } from '../rules/bill-allocations.js';
import { messages } from '../rules/messages.js';
import { assignNumber, renumberSeries, setVoucherNumber } from '../rules/numbering.js';
import { checkVoucher } from '../rules/voucher-rules.js';
import { formatNumber, nameKey, parseLogical, parseTallyDate, yesNo } from '../tally-format.js';
import { attr, child, cloneNode, textOf, type XNode } from '../xml/xml-tree.js';
import { noted, ok, rejected, type ObjectOutcome } from './import-result.js';
import { removeFields, setField, upperCaseTags } from './tree-edit.js';

const ADDRESSING_ATTRS = ['ACTION', 'REMOTEID', 'VCHKEY', 'TAGNAME', 'TAGVALUE', 'DATE', 'VCHTYPE'];

/** TAGNAME addressing: `VoucherNumber` (with VCHTYPE and a d-Mmm-yyyy DATE attribute) or `MasterId`. */
function findByTag(books: CompanyBooks, element: XNode): VoucherRecord | undefined {
  const tag = nameKey(attr(element, 'TAGNAME') ?? '').replace(/\s/g, '');
  const value = (attr(element, 'TAGVALUE') ?? '').trim();
  if (tag === 'masterid') return books.vouchers.get(Number(value));
  if (tag === 'guid') return [...books.vouchers.values()].find((v) => v.guid === value);
  if (tag !== 'vouchernumber') return undefined;
  const dateAttr = (attr(element, 'DATE') ?? '').trim();
  // The attribute takes d-Mmm-yyyy; a YYYYMMDD attribute finds nothing (captured).
  const date = /^\d{1,2}-[A-Za-z]{3}-\d{2,4}$/.test(dateAttr) ? parseTallyDate(dateAttr) : undefined;
  const typeName = attr(element, 'VCHTYPE') ?? '';
  return [...books.vouchers.values()].find(
    (v) =>
      v.number.toLowerCase() === value.toLowerCase() &&
      date !== undefined &&
      v.date === date &&
      (typeName === '' || nameKey(v.typeName) === nameKey(typeName)),
  );
}

export function importVoucher(books: CompanyBooks, element: XNode): ObjectOutcome {
  const action = (attr(element, 'ACTION') ?? 'Create').trim().toLowerCase();
  const tagName = attr(element, 'TAGNAME');
  const remoteId = (attr(element, 'REMOTEID') ?? '').trim();
  let target: VoucherRecord | undefined;
  if (tagName !== undefined) {
    if (element.children.length === 0) return noted(messages.emptyObject('VOUCHER'));
    target = findByTag(books, element);
    if (!target) return noted(messages.voucherDoesNotExist());
  } else if (remoteId) {
    target = books.findByRemoteId(remoteId);
  }
  if (action === 'delete' || action === 'cancel') {
    if (!target) {
      return noted(remoteId ? messages.voucherDoesNotExist() : action === 'delete' ? messages.cannotDeleteUnnamed() : messages.voucherDoesNotExist());
    }
    if (action === 'delete') deleteVoucher(books, target);
    else cancelVoucher(books, target, element);
    return ok(action === 'delete' ? 'deleted' : 'altered');
  }
  return bookVoucher(books, element, target, remoteId);
}

function deleteVoucher(books: CompanyBooks, target: VoucherRecord): void {
  books.unindexVoucher(target, voucherLedgerNames(target.tree));
  books.deleteVoucherRow(target);
  books.allocateAlterId('voucher');
  books.save();
}

function cancelVoucher(books: CompanyBooks, target: VoucherRecord, element: XNode): void {
  books.unindexVoucher(target, voucherLedgerNames(target.tree));
  const tree = cloneNode(target.tree);
  removeFields(tree, [...LEDGER_LISTS, ...INVENTORY_LISTS]);
  const narration = textOf(element, 'NARRATION');
  if (narration !== undefined) setField(tree, 'NARRATION', narration, ['GUID', 'DATE']);
  const cancelled: VoucherRecord = { ...target, tree, isCancelled: true, bills: [], alterId: books.allocateAlterId('voucher') };
  setField(tree, 'ISCANCELLED', 'Yes', ['EFFECTIVEDATE', 'ISOPTIONAL', 'VOUCHERNUMBER']);
  setField(tree, 'ALTERID', formatNumber(cancelled.alterId));
  books.indexVoucher(cancelled, []);
  books.persistVoucher(cancelled);
  books.save();
}

function bookVoucher(books: CompanyBooks, element: XNode, target: VoucherRecord | undefined, remoteId: string): ObjectOutcome {
  const tree = upperCaseTags(cloneNode(element));
  if (target) books.unindexVoucher(target, voucherLedgerNames(target.tree));
  const restore = (outcome: ObjectOutcome): ObjectOutcome => {
    if (target) books.indexVoucher(target, voucherLedgerNames(target.tree));
    return outcome;
  };
  const sentNumber = (textOf(tree, 'VOUCHERNUMBER') ?? '').trim();
  const check = checkVoucher(books, tree, sentNumber);
  if (!check.ok) return restore(rejected(check.lineError));
  const { voucherType, date } = check.value;
  const billing = applyBillRules(books, tree, date);
  if (!billing.ok) return restore(rejected(billing.lineError));
  const numbering = assignNumber(books, voucherType, tree, target);
  if (!numbering.ok) return restore(rejected(numbering.lineError));

  const masterId = target?.masterId ?? books.allocateVoucherId();
  const guid = target?.guid ?? books.guidFor(masterId);
  const key = target && target.date === date ? { vchKey: target.vchKey, voucherKey: target.voucherKey } : books.allocateVchKey(date);
  const record: VoucherRecord = {
    masterId,
    alterId: books.allocateAlterId('voucher'),
    guid,
    clientRemoteId: remoteId || target?.clientRemoteId || '',
    vchKey: key.vchKey,
    voucherKey: key.voucherKey,
    date,
    typeName: voucherType.name,
    series: numbering.series.name,
    number: numbering.number,
    isCancelled: false,
    isOptional: parseLogical(textOf(tree, 'ISOPTIONAL')) ?? false,
    bills: billing.bills,
    tree,
  };
  stampVoucher(record, voucherType, numbering.series);
  books.indexVoucher(record, voucherLedgerNames(tree));
  books.persistVoucher(record);
  renumberSeries(books, voucherType, numbering.series, (voucher, number) => {
    books.unindexVoucher(voucher, voucherLedgerNames(voucher.tree));
    voucher.number = number;
    setVoucherNumber(voucher.tree, number);
    books.indexVoucher(voucher, voucherLedgerNames(voucher.tree));
    books.persistVoucher(voucher);
  });
  books.save();
  return ok(target ? 'altered' : 'created', masterId);
}

/** Writes the identity and canonical values into the stored tree, where TallyPrime puts them. */
function stampVoucher(record: VoucherRecord, voucherType: MasterRecord, series: NumberingSeries): void {
  const tree = record.tree;
  const rest = Object.fromEntries(Object.entries(tree.attrs).filter(([k]) => !ADDRESSING_ATTRS.includes(k.toUpperCase())));
  tree.attrs = { REMOTEID: record.guid, VCHKEY: record.vchKey, VCHTYPE: voucherType.name, ...rest };
  setField(tree, 'DATE', record.date, [], 'start');
  setField(tree, 'GUID', record.guid, ['DATE']);
  setField(tree, 'VOUCHERTYPENAME', voucherType.name, ['GUID', 'NARRATION', 'REQUESTORRULE', 'PARTYGSTIN']);
  if (series.method !== 'None' || child(tree, 'VOUCHERNUMBER')) {
    setField(tree, 'VOUCHERNUMBER', record.number, ['VOUCHERTYPENAME', 'PARTYLEDGERNAME']);
  }
  // Fields TallyPrime always has are written in place when sent and otherwise computed on export,
  // so an object re-exports in the shape it was imported in.
  setIfPresent(tree, 'ISOPTIONAL', yesNo(record.isOptional));
  setIfPresent(tree, 'ISCANCELLED', 'No');
  setField(tree, 'ALTERID', formatNumber(record.alterId), ['ISCANCELLED', 'ISINVOICE', 'ASPAYSLIP', 'ISDELETEDVCHRETAINED', 'ISNEGISPOSSET']);
  setField(tree, 'MASTERID', formatNumber(record.masterId), ['ALTERID']);
  setField(tree, 'VOUCHERKEY', String(record.voucherKey), ['MASTERID']);
}

function setIfPresent(tree: XNode, tag: string, text: string): void {
  const field = child(tree, tag);
  if (field) field.text = text;
}
