// Imports one master (any of the nine types of the bridge contract): Create (an existing name is
// altered, as TallyPrime does), Alter (partial: omitted fields kept; NAME attribute = current name,
// inner NAME = new name), Delete. Referenced parents, units and categories must exist.
import type { CompanyBooks } from '../state/company-books.js';
import { ledgerOpeningBills, namesFromTree, parentName } from '../state/master-facts.js';
import { MASTER_LABELS, type MasterRecord, type MasterType } from '../state/records.js';
import { messages } from '../rules/messages.js';
import { formatNumber, nameKey, PRIMARY, stripSystemMark } from '../tally-format.js';
import { attr, child, cloneNode, textOf, type XNode } from '../xml/xml-tree.js';
import { ok, rejected, type ObjectOutcome } from './import-result.js';
import { fieldOrder } from '../export/field-catalogue.js';
import { languageNameList, mergeChildren, removeFields, setField } from './tree-edit.js';

export type DuplicateHandling = 'alter' | 'combine' | 'ignore';

const IDENTITY_TAGS = ['GUID', 'MASTERID', 'ALTERID'];
/** Fields TallyPrime derives (and exports) but does not take on import: recomputed on every export. */
const DERIVED_TAGS = [
  'RESERVEDNAME', 'RESERVENAME', 'PARENTSTRUCTURE', 'PRIMARYGRPPARENT', 'CLOSINGBALANCE', 'CLOSINGVALUE', 'CLOSINGRATE',
  'ISRESERVED', 'CANDELETE', 'ALIAS',
];
const BEFORE_IDS = ['PARENT', 'CATEGORY', 'RESERVEDNAME', 'RESERVENAME', 'ISREVENUE', 'ISRESERVED', 'CANDELETE'];

/** Which master type a field of each type names (parent groups, units, categories). */
const REFERENCES: Record<MasterType, [string, MasterType][]> = {
  GROUP: [['PARENT', 'GROUP']],
  LEDGER: [['PARENT', 'GROUP']],
  CURRENCY: [],
  UNIT: [
    ['BASEUNITS', 'UNIT'],
    ['ADDITIONALUNITS', 'UNIT'],
  ],
  GODOWN: [['PARENT', 'GODOWN']],
  STOCKGROUP: [
    ['PARENT', 'STOCKGROUP'],
    ['BASEUNITS', 'UNIT'],
  ],
  STOCKCATEGORY: [['PARENT', 'STOCKCATEGORY']],
  STOCKITEM: [
    ['PARENT', 'STOCKGROUP'],
    ['CATEGORY', 'STOCKCATEGORY'],
    ['BASEUNITS', 'UNIT'],
    ['ADDITIONALUNITS', 'UNIT'],
  ],
  VOUCHERTYPE: [['PARENT', 'VOUCHERTYPE']],
};

function isNoValue(value: string): boolean {
  const key = nameKey(value);
  return key === '' || key === 'primary' || key === 'not applicable';
}

/**
 * Checks references and rewrites them to the masters' own names (TallyPrime stores links, not text). A
 * new voucher type must say which type it is (PARENT); an alteration keeps the one it has.
 */
function resolveReferences(books: CompanyBooks, type: MasterType, tree: XNode, creating: boolean): string | undefined {
  for (const [tag, refType] of REFERENCES[type]) {
    const field = child(tree, tag);
    if (!field) continue;
    if (isNoValue(field.text)) {
      if (tag === 'PARENT' && type !== 'VOUCHERTYPE') field.text = PRIMARY;
      else if (type === 'VOUCHERTYPE') return messages.missingMaster(MASTER_LABELS.VOUCHERTYPE, field.text.trim());
      continue;
    }
    const target = books.findMaster(refType, field.text);
    if (!target) return messages.missingMaster(MASTER_LABELS[refType], stripSystemMark(field.text).trim());
    field.text = target.name;
  }
  if (type === 'VOUCHERTYPE' && creating && !child(tree, 'PARENT')) return messages.missingMaster(MASTER_LABELS.VOUCHERTYPE, '');
  return undefined;
}

function setIdentity(books: CompanyBooks, master: MasterRecord): void {
  const tree = master.tree;
  tree.attrs = { NAME: master.name, RESERVEDNAME: master.reservedName, ...withoutKeys(tree.attrs, ['NAME', 'RESERVEDNAME', 'ACTION']) };
  setField(tree, 'GUID', master.guid, [], 'start');
  setField(tree, 'ALTERID', formatNumber(master.alterId), ['GUID', ...BEFORE_IDS]);
  setField(tree, 'MASTERID', formatNumber(master.masterId), ['ALTERID']);
  void books;
}

function withoutKeys(attrs: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(attrs).filter(([k]) => !keys.includes(k.toUpperCase())));
}

function incomingTree(element: XNode, names: string[]): XNode {
  const tree = cloneNode(element);
  removeFields(tree, ['NAME', ...IDENTITY_TAGS, ...DERIVED_TAGS]);
  if (!child(tree, 'LANGUAGENAME.LIST')) tree.children.push(languageNameList(names));
  return tree;
}

export function importMaster(
  books: CompanyBooks,
  type: MasterType,
  element: XNode,
  duplicates: DuplicateHandling,
): ObjectOutcome {
  const action = (attr(element, 'ACTION') ?? 'Create').trim().toLowerCase();
  const attrName = attr(element, 'NAME') ?? '';
  const names = namesFromTree(element);
  const label = MASTER_LABELS[type];
  if (action === 'delete') return deleteMaster(books, type, attrName || names[0] || '');
  if (names.length === 0) return rejected(messages.masterNameMissing(type), 'errors');
  const existing = (attrName && books.findMaster(type, attrName)) || books.findMaster(type, names[0]!);
  if (!existing && action === 'alter') return rejected(messages.missingMaster(label, attrName || names[0]!), 'errors');
  if (existing && duplicates === 'ignore' && action === 'create') return ok('ignored');
  const clash = names.map((n) => books.findMaster(type, n)).find((m) => m && m !== existing);
  if (clash) return rejected(messages.alreadyExists(label, clash.name), 'errors');

  const tree = incomingTree(element, names);
  const problem = resolveReferences(books, type, tree, !existing);
  if (problem) return rejected(problem, 'errors');
  if (existing) return alterMaster(books, existing, tree, names, duplicates);

  const masterId = books.allocateMasterId();
  const master: MasterRecord = {
    type,
    masterId,
    alterId: books.allocateAlterId('master'),
    guid: books.guidFor(masterId),
    name: names[0]!,
    aliases: names.slice(1),
    reservedName: '',
    tree,
  };
  setIdentity(books, master);
  books.putMaster(master);
  for (const bill of ledgerOpeningBills(master)) books.applyBill(bill, 1);
  books.save();
  return ok('created');
}

function alterMaster(
  books: CompanyBooks,
  existing: MasterRecord,
  incoming: XNode,
  names: string[],
  duplicates: DuplicateHandling,
): ObjectOutcome {
  const previous: MasterRecord = { ...existing, aliases: [...existing.aliases], tree: cloneNode(existing.tree) };
  for (const bill of ledgerOpeningBills(previous)) books.applyBill(bill, -1);
  const tree = cloneNode(existing.tree);
  mergeChildren(tree, incoming, IDENTITY_TAGS, fieldOrder(existing.type));
  const renamed = nameKey(names[0]!) !== nameKey(existing.name) || names[0] !== existing.name;
  const updated: MasterRecord = {
    ...existing,
    name: existing.reservedName && !renamed ? existing.name : names[0]!,
    aliases: names.slice(1),
    alterId: books.allocateAlterId('master'),
    tree,
  };
  setIdentity(books, updated);
  books.putMaster(updated, previous);
  for (const bill of ledgerOpeningBills(updated)) books.applyBill(bill, 1);
  books.save();
  return ok(duplicates === 'combine' ? 'combined' : 'altered');
}

function deleteMaster(books: CompanyBooks, type: MasterType, name: string): ObjectOutcome {
  const label = MASTER_LABELS[type];
  const existing = name ? books.findMaster(type, name) : undefined;
  if (!existing) return rejected(messages.itemDoesNotExist(), 'errors');
  if (existing.reservedName) return rejected(messages.cannotDeleteReserved(label, existing.name), 'errors');
  if (type === 'LEDGER' && books.ledgerHasVouchers(existing.name)) {
    return rejected(messages.cannotDeleteUsed(label, existing.name), 'errors');
  }
  const dependants = [...books.masters.values()].some((m) => m !== existing && nameKey(parentName(m.tree)) === nameKey(existing.name) && m.type === type);
  if (dependants) return rejected(messages.cannotDeleteUsed(label, existing.name), 'errors');
  for (const bill of ledgerOpeningBills(existing)) books.applyBill(bill, -1);
  books.removeMaster(existing);
  books.allocateAlterId('master');
  books.save();
  return ok('deleted');
}

export function masterText(tree: XNode, tag: string): string {
  return stripSystemMark(textOf(tree, tag) ?? '').trim();
}
