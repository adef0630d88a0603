// Imports one master (the nine types of the bridge contract, cost categories and cost centres) in
// every name shape integrators send: Create (an existing name is altered, as TallyPrime does), Alter
// (partial: omitted fields kept; NAME attribute = current name, inner NAME or NAME.LIST = new name and
// aliases), Delete and Cancel with TallyPrime's refusals. Referenced parents, units and categories must
// exist. Sources: emulator/evidence/imports.md.
import type { CompanyBooks } from '../state/company-books.js';
import { ledgerOpeningBills, sentNames } from '../state/master-facts.js';
import { MASTER_LABELS, type MasterRecord, type MasterType } from '../state/records.js';
import { messages } from '../rules/messages.js';
import { formatNumber, nameKey, PRIMARY, stripSystemMark } from '../tally-format.js';
import { attr, child, children, cloneNode, textOf, type XNode } from '../xml/xml-tree.js';
import { deletionRefused } from '../rules/master-deletion.js';
import { carryRenameIntoVouchers } from './master-rename.js';
import { noted, ok, rejected, type ObjectOutcome } from './import-result.js';
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
  COSTCATEGORY: [],
  COSTCENTRE: [
    ['PARENT', 'COSTCENTRE'],
    ['CATEGORY', 'COSTCATEGORY'],
  ],
};

function isNoValue(value: string): boolean {
  const key = nameKey(value);
  // Every company has the reserved `Primary Cost Category`; a cost centre naming it needs no master.
  return key === '' || key === 'primary' || key === 'not applicable' || key === 'primary cost category';
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

/**
 * The fields of the request as they will be stored. The name always travels as LANGUAGENAME.LIST (the
 * shape TallyPrime exports), whichever of the accepted shapes it came in; ISDELETED is ignored, as an
 * Alter carrying `<ISDELETED>Yes</ISDELETED>` leaves the master in place (tally_agent write-exploration-v4).
 */
function incomingTree(element: XNode, names: string[] | undefined): XNode {
  const tree = cloneNode(element);
  const languageBlocks = children(tree, 'LANGUAGENAME.LIST').length > 0;
  removeFields(tree, ['NAME', 'NAME.LIST', 'ISDELETED', ...IDENTITY_TAGS, ...DERIVED_TAGS]);
  if (!languageBlocks && names) tree.children.push(languageNameList(names));
  return tree;
}

/**
 * The names the master ends with: a name list sent replaces name and aliases; a lone `<NAME>` renames
 * and keeps the aliases; no name at all (a partial Alter addressed by the NAME attribute) keeps both.
 */
function resultingNames(sent: ReturnType<typeof sentNames>, existing: MasterRecord | undefined): string[] | undefined {
  if (!sent) return existing ? undefined : [];
  if (sent.listed || !existing) return sent.names;
  return [sent.names[0]!, ...existing.aliases.filter((a) => nameKey(a) !== nameKey(sent.names[0]!))];
}

export function importMaster(
  books: CompanyBooks,
  type: MasterType,
  element: XNode,
  duplicates: DuplicateHandling,
): ObjectOutcome {
  const action = (attr(element, 'ACTION') ?? 'Create').trim().toLowerCase();
  const attrName = (attr(element, 'NAME') ?? '').trim();
  const sent = sentNames(element);
  const label = MASTER_LABELS[type];
  if (action === 'delete') return deleteMaster(books, type, element.tag.toUpperCase(), attrName);
  if (action === 'cancel') return rejected(messages.cannotBeCancelled(), 'errors');
  // A Create without an inner name is refused silently (EXCEPTIONS=1, no LINEERROR), as captured.
  if (!sent && (action !== 'alter' || attrName === '')) return { counter: 'exceptions' };
  const existing = (attrName !== '' ? books.findMaster(type, attrName) : undefined) ?? (sent ? books.findMaster(type, sent.names[0]!) : undefined);
  if (!existing && action === 'alter') return rejected(messages.missingMaster(label, attrName || sent!.names[0]!), 'errors');
  if (existing && duplicates === 'ignore' && action === 'create') return ok('ignored');
  const names = resultingNames(sent, existing);
  const clash = (names ?? []).map((n) => books.findMaster(type, n)).find((m) => m && m !== existing);
  if (clash) return rejected(messages.alreadyExists(label, clash.name), 'errors');

  const tree = incomingTree(element, names);
  const problem = resolveReferences(books, type, tree, !existing);
  if (problem) return rejected(problem, 'errors');
  if (existing) return alterMaster(books, existing, tree, names ?? [existing.name, ...existing.aliases], duplicates);

  const allNames = names ?? [];
  const masterId = books.allocateMasterId();
  const master: MasterRecord = {
    type,
    masterId,
    alterId: books.allocateAlterId('master'),
    guid: books.guidFor(masterId),
    name: allNames[0]!,
    aliases: allNames.slice(1),
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
  const renamed = names[0] !== existing.name;
  const updated: MasterRecord = {
    ...existing,
    name: existing.reservedName && !renamed ? existing.name : names[0]!,
    aliases: names.slice(1),
    alterId: books.allocateAlterId('master'),
    tree,
  };
  setIdentity(books, updated);
  books.putMaster(updated, previous);
  carryRenameIntoVouchers(books, updated.type, previous.name, updated.name);
  for (const bill of ledgerOpeningBills(updated)) books.applyBill(bill, 1);
  books.save();
  return ok(duplicates === 'combine' ? 'combined' : 'altered');
}

/**
 * Delete is addressed by the NAME attribute (without it: `Cannot delete unnamed object: <TAG>!`, as
 * captured for UNIT); a missing master is `Item does not exist!`; a refused one `Cannot be deleted!`.
 */
function deleteMaster(books: CompanyBooks, type: MasterType, tag: string, name: string): ObjectOutcome {
  if (name === '') return noted(messages.cannotDeleteUnnamed(tag));
  const existing = books.findMaster(type, name);
  if (!existing) return rejected(messages.itemDoesNotExist(), 'errors');
  if (deletionRefused(books, existing)) return rejected(messages.cannotBeDeleted(), 'errors');
  for (const bill of ledgerOpeningBills(existing)) books.applyBill(bill, -1);
  books.removeMaster(existing);
  books.allocateAlterId('master');
  books.save();
  return ok('deleted');
}

export function masterText(tree: XNode, tag: string): string {
  return stripSystemMark(textOf(tree, tag) ?? '').trim();
}
