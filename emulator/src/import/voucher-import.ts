// Imports one voucher: Create books it (or, when its client REMOTEID is already known, alters that
// voucher: CREATED=0 ALTERED=1, what is sent replaces, what is omitted is kept); Alter addressed by
// TAGNAME alters the same way, an Alter keyed by REMOTEID books a second voucher (as captured); Cancel
// keeps the voucher with ISCANCELLED=Yes and its entries stripped (ALTERED=1, CANCELLED stays 0);
// Delete removes it without renumbering others.
import type { CompanyBooks } from '../state/company-books.js';
import type { MasterRecord, NumberingSeries, VoucherRecord } from '../state/records.js';
import { INVENTORY_LISTS, LEDGER_LISTS, mastersNamedBy, voucherLedgerNames } from '../state/voucher-facts.js';
import { applyBillRules } from '../rules/bill-allocations.js';
import { messages } from '../rules/messages.js';
import { assignNumber, renumberSeries, setVoucherNumber } from '../rules/numbering.js';
import { checkVoucher } from '../rules/voucher-rules.js';
import { formatNumber, nameKey, parseLogical, parseTallyDate, yesNo } from '../tally-format.js';
import { attr, child, cloneNode, textOf, type XNode } from '../xml/xml-tree.js';
import { noted, ok, rejected, type ObjectOutcome } from './import-result.js';
import { removeFields, setField, upperCaseTags } from './tree-edit.js';
import { isFullVoucher, mergeVoucher, sendsEntries, withoutEntries } from './voucher-merge.js';

const ADDRESSING_ATTRS = ['ACTION', 'REMOTEID', 'VCHKEY', 'TAGNAME', 'TAGVALUE', 'DATE', 'VCHTYPE'];

/** TallyPrime's DATE attribute form for TAGNAME addressing: d-Mmm-yyyy (`2-Apr-2026`, `01-Aug-2026`). */
const ATTRIBUTE_DATE = /^\d{1,2}-[A-Za-z]{3}-\d{2,4}$/;

/**
 * TAGNAME addressing: `Master ID` / `MasterId` (any case or spacing) by MASTERID, `GUID`, or
 * `Voucher Number` / `VoucherNumber` with VCHTYPE and a d-Mmm-yyyy DATE attribute.
 */
function findByTag(books: CompanyBooks, element: XNode): VoucherRecord | undefined {
  const tag = nameKey(attr(element, 'TAGNAME') ?? '').replace(/\s/g, '');
  const value = (attr(element, 'TAGVALUE') ?? '').trim();
  if (tag === 'masterid') return books.vouchers.get(Number(value));
  if (tag === 'guid') return [...books.vouchers.values()].find((v) => v.guid === value);
  if (tag !== 'vouchernumber') return undefined;
  const dateAttr = (attr(element, 'DATE') ?? '').trim();
  const date = ATTRIBUTE_DATE.test(dateAttr) ? parseTallyDate(dateAttr) : undefined;
  const typeName = attr(element, 'VCHTYPE') ?? '';
  return [...books.vouchers.values()].find(
    (v) =>
      v.number.toLowerCase() === value.toLowerCase() &&
      date !== undefined &&
      v.date === date &&
      (typeName === '' || nameKey(v.typeName) === nameKey(typeName)),
  );
}

/**
 * Finds the voucher a TAGNAME request names, or the answer TallyPrime gives instead: an empty body is
 * `Cannot process 'empty' object` except on Delete (tally_agent write-exploration-v4: an empty Delete by
 * Master ID deletes); a DATE attribute that is not d-Mmm-yyyy fails (Delete: `Cannot be deleted!`).
 */
function addressByTag(books: CompanyBooks, element: XNode, action: string): VoucherRecord | ObjectOutcome {
  if (element.children.length === 0 && action !== 'delete') return noted(messages.emptyObject('VOUCHER'));
  const dateAttr = attr(element, 'DATE');
  if (dateAttr !== undefined && !ATTRIBUTE_DATE.test(dateAttr.trim())) {
    return rejected(action === 'delete' ? messages.cannotBeDeleted() : messages.voucherDoesNotExist(), 'errors');
  }
  return findByTag(books, element) ?? notFound();
}

/** A voucher the request addresses but the books do not hold: ERRORS=1, as captured (P002 #16). */
const notFound = (): ObjectOutcome => rejected(messages.voucherDoesNotExist(), 'errors');

const isRecord = (found: VoucherRecord | ObjectOutcome): found is VoucherRecord => 'masterId' in found;

export function importVoucher(books: CompanyBooks, element: XNode): ObjectOutcome {
  const action = (attr(element, 'ACTION') ?? 'Create').trim().toLowerCase();
  const tagName = attr(element, 'TAGNAME');
  const remoteId = (attr(element, 'REMOTEID') ?? '').trim();
  let target: VoucherRecord | undefined;
  if (tagName !== undefined) {
    const found = addressByTag(books, element, action);
    if (!isRecord(found)) return found;
    target = found;
  } else if (remoteId) {
    target = books.findByRemoteId(remoteId);
  }
  if (action === 'delete' || action === 'cancel') {
    if (!target) {
      return remoteId || action !== 'delete' ? notFound() : noted(messages.cannotDeleteUnnamed());
    }
    if (action === 'delete') deleteVoucher(books, target);
    else cancelVoucher(books, target, element);
    return ok(action === 'delete' ? 'deleted' : 'altered');
  }
  const incoming = upperCaseTags(cloneNode(element));
  const keyTaken = remoteId !== '' && books.findByRemoteId(remoteId) !== undefined;
  if (action === 'alter' && (tagName === undefined || isFullVoucher(incoming))) {
    // Alter keyed by a client REMOTEID (or by MASTERID/GUID children) books a second voucher (bridge
    // IMPLEMENTATION_GUIDE §3.3a, §9.7), and so does a full voucher body sent as an Alter by TAGNAME
    // (tally_agent LESSONS §10); a REMOTEID already in use stays with the first voucher.
    return bookVoucher(books, incoming, undefined, keyTaken ? '' : remoteId);
  }
  if (!target) return bookVoucher(books, incoming, undefined, remoteId);
  if (tagName !== undefined) {
    // A partial Alter by TAGNAME changes the fields it carries; entry lists in it are ignored (LESSONS §9, §10).
    return bookVoucher(books, mergeVoucher(target.tree, withoutEntries(incoming)), target, remoteId, target.isCancelled);
  }
  return bookVoucher(books, mergeVoucher(target.tree, incoming), target, remoteId, sendsEntries(incoming) ? false : target.isCancelled);
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

function bookVoucher(
  books: CompanyBooks,
  tree: XNode,
  target: VoucherRecord | undefined,
  remoteId: string,
  isCancelled = false,
): ObjectOutcome {
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
    isCancelled,
    isOptional: parseLogical(textOf(tree, 'ISOPTIONAL')) ?? false,
    bills: billing.bills,
    tree,
  };
  stampVoucher(record, voucherType, numbering.series);
  books.indexVoucher(record, voucherLedgerNames(tree));
  books.persistVoucher(record);
  books.markUsedByVoucher(mastersNamedBy(tree));
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
  setIfPresent(tree, 'ISCANCELLED', yesNo(record.isCancelled));
  setField(tree, 'ALTERID', formatNumber(record.alterId), ['ISCANCELLED', 'ISINVOICE', 'ASPAYSLIP', 'ISDELETEDVCHRETAINED', 'ISNEGISPOSSET']);
  setField(tree, 'MASTERID', formatNumber(record.masterId), ['ALTERID']);
  setField(tree, 'VOUCHERKEY', String(record.voucherKey), ['MASTERID']);
}

function setIfPresent(tree: XNode, tag: string, text: string): void {
  const field = child(tree, tag);
  if (field) field.text = text;
}
