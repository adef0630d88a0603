// The `demo` books: a GST-registered inventory company (bill-wise parties with open bills, a bank,
// GST ledgers, stock items with units and godowns, one custom voucher type per numbering method) and a
// second, plain accounts-only company without GST. Masters go in through the import rules themselves.
import { importMaster } from '../import/master-import.js';
import { importVoucher } from '../import/voucher-import.js';
import type { BooksStore } from '../state/books-store.js';
import type { CompanyBooks } from '../state/company-books.js';
import { isMasterType } from '../state/records.js';
import { escapeXml, parseXml } from '../xml/xml-tree.js';
import { createCompany } from './reserved-objects.js';

export const DEMO_COMPANY = 'Ledgerwire Demo Traders';
export const DEMO_SERVICES_COMPANY = 'Ledgerwire Demo Services';

function master(tag: string, name: string, fields: Record<string, string> = {}, inner = ''): string {
  const body = Object.entries(fields)
    .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
    .join('');
  return `<${tag} NAME="${escapeXml(name)}" ACTION="Create"><NAME>${escapeXml(name)}</NAME>${body}${inner}</${tag}>`;
}

function bills(entries: [string, string, string][]): string {
  return entries
    .map(([name, date, amount]) => `<BILLALLOCATIONS.LIST><NAME>${name}</NAME><BILLDATE>${date}</BILLDATE><OPENINGBALANCE>${amount}</OPENINGBALANCE><BILLCREDITPERIOD>30 Days</BILLCREDITPERIOD></BILLALLOCATIONS.LIST>`)
    .join('');
}

function series(method: string, preventDuplicates: string, subMethod = 'Default'): string {
  return `<VOUCHERNUMBERSERIES.LIST><NAME>Default</NAME><NUMBERINGMETHOD>${method}</NUMBERINGMETHOD><NUMBERINGSUBMETHOD>${subMethod}</NUMBERINGSUBMETHOD><PREVENTDUPLICATES>${preventDuplicates}</PREVENTDUPLICATES><ISDEFAULT>Yes</ISDEFAULT></VOUCHERNUMBERSERIES.LIST>`;
}

export function importAll(books: CompanyBooks, xmlObjects: string[]): void {
  for (const xml of xmlObjects) {
    const element = parseXml(xml);
    const outcome = isMasterType(element.tag) ? importMaster(books, element.tag, element, 'alter') : importVoucher(books, element);
    if (outcome.counter !== 'created' && outcome.counter !== 'altered') {
      throw new Error(`seed object refused: ${outcome.lineError ?? outcome.counter ?? 'no outcome'}: ${xml.slice(0, 120)}`);
    }
  }
}

const DEMO_MASTERS: string[] = [
  master('CURRENCY', '$', { MAILINGNAME: 'US Dollar', ORIGINALNAME: '$', EXPANDEDSYMBOL: 'USD', DECIMALPLACES: ' 2' }),
  master('UNIT', 'Nos', { ORIGINALNAME: 'Numbers', ISSIMPLEUNIT: 'Yes', DECIMALPLACES: '0', GSTREPUOM: 'NOS-NUMBERS' }),
  master('UNIT', 'Kgs', { ORIGINALNAME: 'Kilograms', ISSIMPLEUNIT: 'Yes', DECIMALPLACES: '2', GSTREPUOM: 'KGS-KILOGRAMS' }),
  master('UNIT', 'Box', { ORIGINALNAME: 'Boxes', ISSIMPLEUNIT: 'Yes', DECIMALPLACES: '0' }),
  master('GODOWN', 'Warehouse B', { PARENT: '\u0004 Primary' }),
  master('STOCKGROUP', 'Electronics', { PARENT: '\u0004 Primary', ISADDABLE: 'Yes' }),
  master('STOCKGROUP', 'Packaging', { PARENT: '\u0004 Primary', ISADDABLE: 'Yes' }),
  master('STOCKCATEGORY', 'Standard', { PARENT: '\u0004 Primary' }),
  master('STOCKITEM', 'Widget 12mm', { PARENT: 'Electronics', CATEGORY: 'Standard', BASEUNITS: 'Nos', GSTAPPLICABLE: '\u0004 Applicable', OPENINGBALANCE: ' 100 Nos', OPENINGRATE: '50.00/Nos', OPENINGVALUE: '-5000.00' }),
  master('STOCKITEM', 'Copper Wire', { PARENT: 'Electronics', BASEUNITS: 'Kgs', GSTAPPLICABLE: '\u0004 Applicable', OPENINGBALANCE: ' 250 Kgs', OPENINGRATE: '700.00/Kgs', OPENINGVALUE: '-175000.00' }),
  master('STOCKITEM', 'Gift Box', { PARENT: 'Packaging', BASEUNITS: 'Box', GSTAPPLICABLE: '\u0004 Applicable' }),
  master('LEDGER', 'HDFC Bank', { PARENT: 'Bank Accounts', OPENINGBALANCE: '-250000.00', BANKDETAILS: '50200012345678', IFSCODE: 'HDFC0000001' }),
  master('LEDGER', 'Sales - Goods', { PARENT: 'Sales Accounts', GSTAPPLICABLE: '\u0004 Applicable', AFFECTSSTOCK: 'Yes' }),
  master('LEDGER', 'Sales - Services', { PARENT: 'Sales Accounts', GSTAPPLICABLE: '\u0004 Applicable' }),
  master('LEDGER', 'Purchase - Goods', { PARENT: 'Purchase Accounts', GSTAPPLICABLE: '\u0004 Applicable', AFFECTSSTOCK: 'Yes' }),
  master('LEDGER', 'Output CGST', { PARENT: 'Duties & Taxes', TAXTYPE: 'GST', GSTDUTYHEAD: 'CGST' }),
  master('LEDGER', 'Output SGST', { PARENT: 'Duties & Taxes', TAXTYPE: 'GST', GSTDUTYHEAD: 'State Tax' }),
  master('LEDGER', 'Input CGST', { PARENT: 'Duties & Taxes', TAXTYPE: 'GST', GSTDUTYHEAD: 'CGST' }),
  master('LEDGER', 'Input SGST', { PARENT: 'Duties & Taxes', TAXTYPE: 'GST', GSTDUTYHEAD: 'State Tax' }),
  master('LEDGER', 'Office Rent', { PARENT: 'Indirect Expenses' }),
  master('LEDGER', 'Freight & Cartage', { PARENT: 'Indirect Expenses' }),
  master('LEDGER', 'Ram & Sons', { PARENT: 'Sundry Debtors', ISBILLWISEON: 'Yes', BILLCREDITPERIOD: '30 Days', PARTYGSTIN: '29AAACR1234A1Z5', GSTREGISTRATIONTYPE: 'Regular', LEDSTATENAME: 'Karnataka', OPENINGBALANCE: '-25000.00' },
    bills([['INV-1001', '20260315', '-10000.00'], ['INV-1002', '20260325', '-15000.00']])),
  master('LEDGER', 'Acme Retail Pvt Ltd', { PARENT: 'Sundry Debtors', ISBILLWISEON: 'Yes', PARTYGSTIN: '27AABCA1234B1Z9', GSTREGISTRATIONTYPE: 'Regular', LEDSTATENAME: 'Maharashtra', OPENINGBALANCE: '-40000.00' },
    bills([['ACME-77', '20260301', '-40000.00']])),
  master('LEDGER', 'Walk-in Customer', { PARENT: 'Sundry Debtors', ISBILLWISEON: 'No' }),
  master('LEDGER', 'Om Packaging House', { PARENT: 'Sundry Creditors', ISBILLWISEON: 'Yes', OPENINGBALANCE: '18000.00' },
    bills([['OPH-501', '20260310', '18000.00']])),
  master('LEDGER', 'Northwind Suppliers', { PARENT: 'Sundry Creditors', ISBILLWISEON: 'Yes' }),
  master('VOUCHERTYPE', 'Manual Sales', { PARENT: 'Sales', ISACTIVE: 'Yes' }, series('Manual', 'Yes')),
  master('VOUCHERTYPE', 'Override Sales', { PARENT: 'Sales', ISACTIVE: 'Yes' }, series('Automatic (Manual Override)', 'Yes')),
  master('VOUCHERTYPE', 'Auto Sales', { PARENT: 'Sales', ISACTIVE: 'Yes' }, series('Automatic', 'No', 'Auto Renumber')),
  master('VOUCHERTYPE', 'Shared Sales', { PARENT: 'Sales', ISACTIVE: 'Yes' }, series('Multi-user Auto', 'No', 'Auto Retain')),
  master('VOUCHERTYPE', 'Unnumbered Journal', { PARENT: 'Journal', ISACTIVE: 'Yes' }, series('None', 'No')),
];

const SERVICES_MASTERS: string[] = [
  master('LEDGER', 'ICICI Bank', { PARENT: 'Bank Accounts' }),
  master('LEDGER', 'Consulting Income', { PARENT: 'Sales Accounts' }),
  master('LEDGER', 'Blue Client LLP', { PARENT: 'Sundry Debtors', ISBILLWISEON: 'Yes' }),
  master('LEDGER', 'Office Rent', { PARENT: 'Indirect Expenses' }),
];

export function seedDemo(store: BooksStore): CompanyBooks {
  const traders = createCompany(store, {
    name: DEMO_COMPANY,
    booksFrom: '20250401',
    periodFrom: '20260401',
    periodTo: '20270331',
    stateName: 'Karnataka',
    gstEnabled: true,
    inventoryEnabled: true,
  });
  importAll(traders, DEMO_MASTERS);
  const services = createCompany(store, {
    name: DEMO_SERVICES_COMPANY,
    booksFrom: '20250401',
    periodFrom: '20260401',
    periodTo: '20270331',
    stateName: 'Maharashtra',
    gstEnabled: false,
    inventoryEnabled: false,
  });
  importAll(services, SERVICES_MASTERS);
  store.setActive(traders);
  return traders;
}

export function seedEmpty(store: BooksStore): CompanyBooks {
  const books = createCompany(store, {
    name: 'Empty Company',
    booksFrom: '20260401',
    periodFrom: '20260401',
    periodTo: '20270331',
    stateName: 'Karnataka',
    gstEnabled: false,
    inventoryEnabled: true,
  });
  store.setActive(books);
  return books;
}
