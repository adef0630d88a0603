// The objects every TallyPrime company has: 28 reserved groups (15 primary + 13 sub-groups, with the
// flags of a real TallyPrime 6 export), `Cash` and `Profit & Loss A/c`, the 24 built-in voucher types,
// `Main Location` for inventory companies and the base currency.
import { randomUUID } from 'node:crypto';
import { fieldOrder } from '../export/field-catalogue.js';
import { languageNameList, setField, sortChildren } from '../import/tree-edit.js';
import type { BooksStore } from '../state/books-store.js';
import type { CompanyBooks } from '../state/company-books.js';
import type { CompanyRecord, MasterRecord, MasterType } from '../state/records.js';
import { formatNumber, PRIMARY } from '../tally-format.js';
import { node } from '../xml/xml-tree.js';

// name | parent ('' = Primary) | ISREVENUE | ISDEEMEDPOSITIVE | AFFECTSGROSSPROFIT | ISSUBLEDGER | aliases
const GROUPS: [string, string, string, string, string, string, string[]][] = [
  ['Branch / Divisions', '', 'No', 'No', 'No', 'No', []],
  ['Capital Account', '', 'No', 'No', 'No', 'No', []],
  ['Current Assets', '', 'No', 'Yes', 'No', 'No', []],
  ['Current Liabilities', '', 'No', 'No', 'No', 'No', []],
  ['Direct Expenses', '', 'Yes', 'Yes', 'Yes', 'No', ['Expenses (Direct)']],
  ['Direct Incomes', '', 'Yes', 'No', 'Yes', 'No', ['Income (Direct)']],
  ['Fixed Assets', '', 'No', 'Yes', 'No', 'No', []],
  ['Indirect Expenses', '', 'Yes', 'Yes', 'No', 'No', ['Expenses (Indirect)']],
  ['Indirect Incomes', '', 'Yes', 'No', 'No', 'No', ['Income (Indirect)']],
  ['Investments', '', 'No', 'Yes', 'No', 'No', []],
  ['Loans (Liability)', '', 'No', 'No', 'No', 'No', []],
  ['Misc. Expenses (ASSET)', '', 'No', 'Yes', 'No', 'No', []],
  ['Purchase Accounts', '', 'Yes', 'Yes', 'Yes', 'No', []],
  ['Sales Accounts', '', 'Yes', 'No', 'Yes', 'No', []],
  ['Suspense A/c', '', 'No', 'No', 'No', 'No', []],
  ['Bank Accounts', 'Current Assets', 'No', 'Yes', 'No', 'No', []],
  ['Cash-in-Hand', 'Current Assets', 'No', 'Yes', 'No', 'No', []],
  ['Deposits (Asset)', 'Current Assets', 'No', 'Yes', 'No', 'No', []],
  ['Loans & Advances (Asset)', 'Current Assets', 'No', 'Yes', 'No', 'No', []],
  ['Stock-in-Hand', 'Current Assets', 'No', 'Yes', 'No', 'No', []],
  ['Sundry Debtors', 'Current Assets', 'No', 'Yes', 'No', 'Yes', []],
  ['Duties & Taxes', 'Current Liabilities', 'No', 'No', 'No', 'No', []],
  ['Provisions', 'Current Liabilities', 'No', 'No', 'No', 'No', []],
  ['Sundry Creditors', 'Current Liabilities', 'No', 'No', 'No', 'Yes', []],
  ['Reserves & Surplus', 'Capital Account', 'No', 'No', 'No', 'No', []],
  ['Bank OD A/c', 'Loans (Liability)', 'No', 'No', 'No', 'No', ['Bank OCC A/c']],
  ['Secured Loans', 'Loans (Liability)', 'No', 'No', 'No', 'No', []],
  ['Unsecured Loans', 'Loans (Liability)', 'No', 'No', 'No', 'No', []],
];

// name | ISDEEMEDPOSITIVE | AFFECTSSTOCK
export const BUILT_IN_VOUCHER_TYPES: [string, string, string][] = [
  ['Attendance', 'No', 'No'], ['Contra', 'No', 'No'], ['Credit Note', 'No', 'Yes'], ['Debit Note', 'Yes', 'Yes'],
  ['Delivery Note', 'No', 'Yes'], ['Job Work In Order', 'No', 'No'], ['Job Work Out Order', 'No', 'No'],
  ['Journal', 'Yes', 'No'], ['Material In', 'No', 'Yes'], ['Material Out', 'No', 'Yes'], ['Memorandum', 'Yes', 'No'],
  ['Payment', 'Yes', 'No'], ['Payroll', 'Yes', 'No'], ['Physical Stock', 'No', 'Yes'], ['Purchase', 'Yes', 'Yes'],
  ['Purchase Order', 'Yes', 'No'], ['Receipt', 'No', 'No'], ['Receipt Note', 'Yes', 'Yes'], ['Rejections In', 'No', 'Yes'],
  ['Rejections Out', 'Yes', 'Yes'], ['Reversing Journal', 'Yes', 'No'], ['Sales', 'No', 'Yes'], ['Sales Order', 'No', 'No'],
  ['Stock Journal', 'No', 'Yes'],
];

export interface CompanySpec {
  name: string;
  booksFrom: string;
  periodFrom: string;
  periodTo: string;
  stateName: string;
  gstEnabled: boolean;
  inventoryEnabled: boolean;
}

function addReserved(books: CompanyBooks, type: MasterType, name: string, fields: [string, string][], aliases: string[] = [], reserved = true): MasterRecord {
  const masterId = books.allocateMasterId();
  const tree = node(type, '', {}, [node('GUID', books.guidFor(masterId))]);
  for (const [tag, text] of fields) tree.children.push(node(tag, text));
  const master: MasterRecord = {
    type,
    masterId,
    alterId: books.allocateAlterId('master'),
    guid: books.guidFor(masterId),
    name,
    aliases,
    reservedName: reserved ? name : '',
    tree,
  };
  tree.attrs = { NAME: name, RESERVEDNAME: master.reservedName };
  setField(tree, 'ALTERID', formatNumber(master.alterId));
  setField(tree, 'MASTERID', formatNumber(master.masterId));
  tree.children.push(languageNameList([name, ...aliases]));
  sortChildren(tree, fieldOrder(type));
  books.putMaster(master);
  return master;
}

export function createCompany(store: BooksStore, spec: CompanySpec, guid: string = randomUUID()): CompanyBooks {
  const record: CompanyRecord = {
    guid,
    ...spec,
    isOpen: true,
    sortOrder: store.all().length,
    nextMasterId: 1,
    nextVoucherId: 1,
    nextAlterId: 1,
    altMstId: 0,
    altVchId: 0,
    dayKeys: {},
    lastNumbers: {},
  };
  const books = store.addCompany(record);
  addReserved(books, 'CURRENCY', '₹', [['MAILINGNAME', 'INR'], ['ORIGINALNAME', '₹'], ['EXPANDEDSYMBOL', 'INR'], ['DECIMALPLACES', ' 2']]);
  for (const [name, parent, revenue, deemed, gross, subLedger, aliases] of GROUPS) {
    addReserved(books, 'GROUP', name, [
      ['PARENT', parent || PRIMARY],
      ['ISREVENUE', revenue],
      ['ISDEEMEDPOSITIVE', deemed],
      ['AFFECTSGROSSPROFIT', gross],
      ['ISSUBLEDGER', subLedger],
      ...(name === 'Purchase Accounts' ? ([['ADDLALLOCTYPE', 'AppropriateByValue']] as [string, string][]) : []),
    ], aliases);
  }
  addReserved(books, 'LEDGER', 'Profit & Loss A/c', [['PARENT', PRIMARY], ['OPENINGBALANCE', '0.00']]);
  addReserved(books, 'LEDGER', 'Cash', [['PARENT', 'Cash-in-Hand'], ['OPENINGBALANCE', '0.00']], [], false);
  for (const [name, deemed, affectsStock] of BUILT_IN_VOUCHER_TYPES) {
    addReserved(books, 'VOUCHERTYPE', name, [
      ['PARENT', name],
      ['ISDEEMEDPOSITIVE', deemed],
      ['AFFECTSSTOCK', affectsStock],
      ['ISACTIVE', 'Yes'],
    ]);
    const vt = books.findMaster('VOUCHERTYPE', name)!;
    const series = node('VOUCHERNUMBERSERIES.LIST', '', {}, [
      node('NAME', 'Default'),
      node('NUMBERINGMETHOD', 'Automatic'),
      node('NUMBERINGSUBMETHOD', 'Auto Retain'),
      node('PREVENTDUPLICATES', 'No'),
      node('ISDEFAULT', 'Yes'),
    ]);
    vt.tree.children.push(series);
    sortChildren(vt.tree, fieldOrder('VOUCHERTYPE'));
    books.putMaster(vt);
  }
  if (spec.inventoryEnabled) addReserved(books, 'GODOWN', 'Main Location', [['PARENT', PRIMARY]]);
  books.save();
  return books;
}
