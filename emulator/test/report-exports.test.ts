// TYPE=Data reports in TallyPrime's own flattened layout (Trial Balance, Group Summary, Balance Sheet,
// Profit and Loss, Bills Receivable/Payable, Ledger Vouchers), the Voucher Register's headers-only
// vouchers, and the built-in collections and TDL forms integrators send. Figures are checked against the
// books (they must add up), shapes against the captures named per test (shared/reference/tally-samples).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bill, collectionRequest, control, entry, importData, postXml, startTestEmulator, voucher, type TestEmulator } from './helpers.js';
import { parseCliOptions } from '../src/config/cli-options.js';
import { sampleText } from './sample-files.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator('demo');
  await postXml(t.emulator.xmlUrl, importData([
    voucher('Sales', entry('Ram &amp; Sons', '-1180.00', bill('INV-2001', 'New Ref', '-1180.00')) + entry('Sales - Goods', '1000.00') + entry('Output CGST', '90.00') + entry('Output SGST', '90.00'), { date: '20260501' }),
    voucher('Receipt', entry('HDFC Bank', '-10000.00') + entry('Ram &amp; Sons', '10000.00', bill('INV-1001', 'Agst Ref', '10000.00')), { date: '20260510' }),
    voucher('Payment', entry('Office Rent', '-500.00') + entry('HDFC Bank', '500.00'), { date: '20260601' }),
    voucher('Payment', entry('Office Rent', '-700.00') + entry('HDFC Bank', '700.00'), { date: '20260801' }),
  ].join('')));
});
afterAll(async () => t.close());

const data = (id: string, sv = '') =>
  `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Data</TYPE><ID>${id}</ID></HEADER><BODY><DESC><STATICVARIABLES><SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>${sv}</STATICVARIABLES></DESC></BODY></ENVELOPE>`;
const asOn = (date: string) => `<SVFROMDATE TYPE="Date">20260401</SVFROMDATE><SVTODATE TYPE="Date">${date}</SVTODATE>`;
const exportXml = (xml: string) => postXml(t.emulator.xmlUrl, xml);
const values = (text: string, tag: string) => [...text.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]!);
const total = (amounts: string[]) => Math.round(amounts.filter((a) => a !== '').reduce((sum, a) => sum + Number(a) * 100, 0));
/** Element names in document order, the way a parser pairing sibling rows sees them. */
const tags = (text: string) => [...text.matchAll(/<([A-Z.]+)>/g)].map((m) => m[1]!);

describe('statement reports (MarketingBNG/Tally-MCP fixtures trial-balance.xml, balance-sheet.xml, profit-loss.xml)', () => {
  it('Trial Balance: DSPACCNAME/DSPACCINFO pairs in the captured layout, debit negative, and the rows add up to zero', async () => {
    const text = await exportXml(data('Trial Balance', asOn('20260630')));
    const capture = sampleText('Tally-MCP/trial-balance.xml');
    // Same element sequence per row as the capture, same indentation scheme (closing tags at column 0).
    expect(tags(text).slice(0, 9)).toEqual(tags(capture).slice(0, 9));
    expect(text.startsWith('<ENVELOPE>\r\n <DSPACCNAME>\r\n  <DSPDISPNAME>')).toBe(true);
    expect(text).toContain('</DSPDISPNAME>\r\n</DSPACCNAME>\r\n <DSPACCINFO>\r\n  <DSPCLDRAMT>\r\n   <DSPCLDRAMTA>');
    expect(values(text, 'DSPDISPNAME')).toEqual(['Current Liabilities', 'Current Assets', 'Sales Accounts', 'Indirect Expenses', 'Difference in Opening Balances']);
    expect(values(text, 'DSPCLDRAMTA')).toEqual(['', '-495680.00', '', '-500.00', '']);
    expect(values(text, 'DSPCLCRAMTA')).toEqual(['18180.00', '', '1000.00', '', '477000.00']);
    expect(total([...values(text, 'DSPCLDRAMTA'), ...values(text, 'DSPCLCRAMTA')])).toBe(0);
  });

  it('Trial Balance is as on SVTODATE (tally_agent LESSONS.md §20); Group Summary is the same bytes (Tally-MCP report-id-verification.md)', async () => {
    const june = await exportXml(data('Trial Balance', asOn('20260630')));
    const august = await exportXml(data('Trial Balance', asOn('20260831')));
    expect(values(august, 'DSPCLDRAMTA')).toContain('-1200.00');
    expect(august).not.toBe(june);
    expect(await exportXml(data('Group Summary', asOn('20260630')))).toBe(june);
  });

  it('Balance Sheet: BSNAME/BSAMT pairs; Profit & Loss A/c carries the year\'s net profit; both sides balance', async () => {
    const text = await exportXml(data('Balance Sheet', asOn('20260630')));
    expect(tags(text).slice(0, 6)).toEqual(tags(sampleText('Tally-MCP/balance-sheet.xml')).slice(0, 6));
    expect(values(text, 'DSPDISPNAME')).toEqual(['Current Liabilities', 'Profit & Loss A/c', 'Current Assets', 'Difference in Opening Balances'].map((n) => n.replace('&', '&amp;')));
    expect(values(text, 'BSMAINAMT')).toEqual(['18180.00', '500.00', '-495680.00', '477000.00']);
    expect(total(values(text, 'BSMAINAMT'))).toBe(0);
  });

  it('Profit and Loss: DSPACCNAME/PLAMT(PLSUBAMT, BSMAINAMT), fixed rows shown empty, cumulative from the year start whatever SVFROMDATE says (tally_agent LESSONS.md §2)', async () => {
    const text = await exportXml(data('Profit and Loss', '<SVFROMDATE TYPE="Date">20260601</SVFROMDATE><SVTODATE TYPE="Date">20260630</SVTODATE>'));
    const names = values(text, 'DSPDISPNAME');
    expect(names.slice(0, 3)).toEqual(['Sales Accounts', 'Direct Incomes', 'Cost of Sales :']);
    const main = (name: string) => values(text, 'BSMAINAMT')[names.indexOf(name)];
    expect(main('Sales Accounts')).toBe('1000.00');
    expect(main('Direct Incomes')).toBe('');
    expect(main('Indirect Expenses')).toBe('-500.00');
    expect(text).toContain('<PLAMT>\r\n  <PLSUBAMT></PLSUBAMT>\r\n  <BSMAINAMT>1000.00</BSMAINAMT>\r\n</PLAMT>');
  });

  it('"Profit & Loss" is not a report name (Tally-MCP report-id-verification.md); unknown companies fail as captured', async () => {
    expect(await exportXml(data('Profit &amp; Loss'))).toContain('<LINEERROR>Could not find Report &apos;Profit &amp; Loss&apos;!</LINEERROR>');
    const unknown = await exportXml(data('Bills Receivable', '<SVCURRENTCOMPANY>Bridge Ageing Lab</SVCURRENTCOMPANY>'));
    expect(unknown).toBe(sampleText('bridge/bills_receivable_unloaded_company_failure.xml').replace(/\n/g, '\r\n'));
  });
});

describe('outstanding bills (lamemustafa/bridge bills_receivable_validation_lab.xml, bills_payable_validation_lab.xml)', () => {
  it('Bills Receivable: BILLFIXED/BILLCL/BILLDUE/BILLOVERDUE, debit negative, `1-Aug-26` dates; settled bills gone', async () => {
    const text = await exportXml(data('Bills Receivable', asOn('20260630')));
    expect(tags(text).slice(0, 8)).toEqual(tags(sampleText('bridge/bills_receivable_validation_lab.xml')).slice(0, 8));
    expect(values(text, 'BILLREF')).toEqual(['ACME-77', 'INV-1002', 'INV-2001']);
    expect(values(text, 'BILLCL')).toEqual(['-40000.00', '-15000.00', '-1180.00']);
    expect(values(text, 'BILLDATE')).toEqual(['1-Mar-26', '25-Mar-26', '1-May-26']);
    expect(values(text, 'BILLDUE')).toEqual(['31-Mar-26', '24-Apr-26', '31-May-26']);
    // Overdue days count to the last entry up to the as-on date (1-Jun-26 here), as in the capture.
    expect(values(text, 'BILLOVERDUE')).toEqual(['62', '38', '1']);
    expect(text).toContain(' <BILLFIXED>\r\n  <BILLDATE>1-Mar-26</BILLDATE>\r\n  <BILLREF>ACME-77</BILLREF>\r\n  <BILLPARTY>Acme Retail Pvt Ltd</BILLPARTY>\r\n</BILLFIXED>\r\n <BILLCL>-40000.00</BILLCL>\r\n');
  });

  it('as on an earlier date the receipt has not happened yet; a bill not yet due has an empty BILLOVERDUE', async () => {
    const april = await exportXml(data('Bills Receivable', asOn('20260331')));
    expect(values(april, 'BILLREF')).toEqual(['ACME-77', 'INV-1001', 'INV-1002']);
    expect(values(april, 'BILLOVERDUE')).toEqual(['0', '', '']);
  });

  it('Bills Payable lists credit bills, positive; nothing to show is the 23-byte empty envelope (bridge bills_payable_billwise_lab_empty.xml)', async () => {
    const payable = await exportXml(data('Bills Payable', asOn('20260630')));
    expect(values(payable, 'BILLREF')).toEqual(['OPH-501']);
    expect(values(payable, 'BILLCL')).toEqual(['18000.00']);
    const [, services] = await control(t.emulator, 'GET', '/companies', 200);
    const empty = await exportXml(data('Bills Payable', `<SVCURRENTCOMPANY>${services.name}</SVCURRENTCOMPANY>`));
    expect(empty).toBe(sampleText('bridge/bills_payable_billwise_lab_empty.xml'));
  });
});

describe('Ledger Vouchers and registers', () => {
  it('Ledger Vouchers for LEDGERNAME: DSPVCHDATE/DSPVCHLEDACCOUNT/DSPVCHTYPE/DSPVCHDRAMT/DSPVCHCRAMT rows (public client parsers); without LEDGERNAME the empty report (Tally-MCP)', async () => {
    const text = await exportXml(data('Ledger Vouchers', `${asOn('20260630')}<LEDGERNAME>HDFC Bank</LEDGERNAME>`));
    expect(values(text, 'DSPVCHDATE')).toEqual(['10-May-26', '1-Jun-26']);
    expect(values(text, 'DSPVCHLEDACCOUNT')).toEqual(['Ram &amp; Sons', 'Office Rent']);
    expect(values(text, 'DSPVCHTYPE')).toEqual(['Rcpt', 'Pymt']);
    expect(values(text, 'DSPVCHDRAMT')).toEqual(['-10000.00', '']);
    expect(values(text, 'DSPVCHCRAMT')).toEqual(['', '500.00']);
    expect(await exportXml(data('Ledger Vouchers', asOn('20260630')))).toBe('<ENVELOPE></ENVELOPE>\r\n');
  });

  it('Voucher Register returns voucher headers without ledger entries (Tally-MCP known-limitations.md); Day Book keeps them', async () => {
    const register = await exportXml(data('Voucher Register', asOn('20260630')));
    expect(register).toContain('<VOUCHERTYPENAME>Receipt</VOUCHERTYPENAME>');
    expect(register).not.toContain('ALLLEDGERENTRIES.LIST');
    expect(await exportXml(data('Day Book', asOn('20260630')))).toContain('<ALLLEDGERENTRIES.LIST>');
  });
});

describe('built-in collections and TDL forms', () => {
  const listOfLedgers = (sv: string) =>
    `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Collection</TYPE><ID>List of Ledgers</ID></HEADER><BODY><DESC><STATICVARIABLES><SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>${sv}</STATICVARIABLES><TDL><TDLMESSAGE><COLLECTION NAME="List of Ledgers" ISMODIFY="Yes"><FETCH>NAME, PARENT, CLOSINGBALANCE, OPENINGBALANCE, ISBILLWISEON</FETCH></COLLECTION></TDLMESSAGE></TDL></DESC></BODY></ENVELOPE>`;

  it('`List of Ledgers` with ISMODIFY="Yes" and no TYPE answers ledgers with their names list, CLOSINGBALANCE as on SVTODATE (bridge request.rs, ledger_snapshot_validation_lab.xml)', async () => {
    const may = await exportXml(listOfLedgers(asOn('20260505')));
    expect(may).toContain('<COLLECTION ISMSTDEPTYPE="Yes" MSTDEPTYPE="8">');
    expect(may).toMatch(/<LEDGER NAME="HDFC Bank" RESERVEDNAME="">\r\n {5}<PARENT TYPE="String">Bank Accounts<\/PARENT>/);
    expect(may).toMatch(/<LEDGER NAME="HDFC Bank"[^]*?<CLOSINGBALANCE TYPE="Amount">-250000.00<\/CLOSINGBALANCE>[^]*?<LANGUAGENAME.LIST>/);
    const june = await exportXml(listOfLedgers(asOn('20260630')));
    expect(june).toMatch(/<LEDGER NAME="HDFC Bank"[^]*?<CLOSINGBALANCE TYPE="Amount">-259500.00<\/CLOSINGBALANCE>/);
  });

  it('the Company collection lists every loaded company whatever SVCURRENTCOMPANY names (bridge TALLY_PROTOCOL_REFERENCE §12a.7)', async () => {
    const text = await exportXml(collectionRequest('Cmp', 'Company', 'Name, Guid', { company: 'No Such Company' }));
    expect((text.match(/<COMPANY NAME=/g) ?? []).length).toBe(2);
  });

  it('CHILDOF $$VchTypeAllVouchers lists every voucher; $$VchTypePayment only payments and types derived from it (tally_agent write-exploration probes)', async () => {
    const all = await exportXml(collectionRequest('V', 'Voucher', 'MasterId, VoucherTypeName', { extra: '<CHILDOF>$$VchTypeAllVouchers</CHILDOF>' }));
    expect((all.match(/<VOUCHER /g) ?? []).length).toBe(4);
    const payments = await exportXml(collectionRequest('V', 'Voucher', 'VoucherTypeName', { extra: '<CHILDOF>$$VchTypePayment</CHILDOF>' }));
    expect([...payments.matchAll(/<VOUCHERTYPENAME[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['Payment', 'Payment']);
  });
});

describe('integrator sandbox: loading one\'s own company', () => {
  const masters = (company: string) =>
    `<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC><REPORTNAME>All Masters</REPORTNAME><STATICVARIABLES><SVCURRENTCOMPANY>${company}</SVCURRENTCOMPANY></STATICVARIABLES></REQUESTDESC><REQUESTDATA><TALLYMESSAGE xmlns:UDF="TallyUDF">` +
    // A child group listed before its parent, as a sorted export would.
    '<LEDGER NAME="Zen Clients Ltd" ACTION="Create"><NAME.LIST><NAME>Zen Clients Ltd</NAME></NAME.LIST><PARENT>Key Debtors</PARENT><ISBILLWISEON>Yes</ISBILLWISEON><OPENINGBALANCE>-5000.00</OPENINGBALANCE>' +
    '<BILLALLOCATIONS.LIST><NAME>Z-1</NAME><BILLDATE>20260320</BILLDATE><OPENINGBALANCE>-5000.00</OPENINGBALANCE></BILLALLOCATIONS.LIST></LEDGER>' +
    '<GROUP NAME="Key Debtors" ACTION="Create"><NAME>Key Debtors</NAME><PARENT>Sundry Debtors</PARENT></GROUP>' +
    '<LEDGER NAME="Axis Bank" ACTION="Create"><NAME>Axis Bank</NAME><PARENT>Bank Accounts</PARENT><OPENINGBALANCE>-20000.00</OPENINGBALANCE></LEDGER>' +
    '<LEDGER NAME="Owner Capital" ACTION="Create"><NAME>Owner Capital</NAME><PARENT>Capital Account</PARENT><OPENINGBALANCE>25000.00</OPENINGBALANCE></LEDGER>' +
    '<LEDGER NAME="Consulting" ACTION="Create"><NAME>Consulting</NAME><PARENT>Sales Accounts</PARENT></LEDGER>' +
    '</TALLYMESSAGE></REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>';

  it('POST /companies/import creates the company from a masters Import envelope, with its opening balances and bills, and makes it active', async () => {
    const loaded = await control(t.emulator, 'POST', '/companies/import', 200, { xml: masters('Zen Consulting LLP'), periodFrom: '20260401', periodTo: '20270331' });
    expect(loaded).toMatchObject({ name: 'Zen Consulting LLP', masters: 5, vouchers: 0, refused: [] });
    const companies = await control(t.emulator, 'GET', '/companies', 200);
    expect(companies.find((c: any) => c.guid === loaded.guid)).toMatchObject({ isActive: true });
    const tb = await exportXml(data('Trial Balance', asOn('20260630')));
    expect(values(tb, 'DSPDISPNAME')).toEqual(['Capital Account', 'Current Assets']);
    expect(values(tb, 'DSPCLDRAMTA')).toEqual(['', '-25000.00']);
    const bills = await exportXml(data('Bills Receivable', asOn('20260630')));
    expect(values(bills, 'BILLPARTY')).toEqual(['Zen Clients Ltd']);
    const booked = await postXml(t.emulator.xmlUrl, importData(voucher('Receipt', entry('Axis Bank', '-5000.00') + entry('Zen Clients Ltd', '5000.00', bill('Z-1', 'Agst Ref', '5000.00')), { date: '20260410' })));
    expect(booked).toContain('<CREATED>1</CREATED>');
    expect(await exportXml(data('Bills Receivable', asOn('20260630')))).toBe('<ENVELOPE></ENVELOPE>\r\n');
    await control(t.emulator, 'POST', '/companies/import', 400, { xml: masters('Zen Consulting LLP') });
    expect((await control(t.emulator, 'POST', '/companies/import', 400, { xml: '<ENVELOPE><BODY>' })).error).toMatch(/xml is not well-formed/);
    expect((await control(t.emulator, 'POST', '/companies/import', 400, {})).error).toMatch(/xml must be a non-empty string/);
    expect((await control(t.emulator, 'POST', '/companies/import', 400, { xml: '<ENVELOPE/>' })).error).toMatch(/name is required/);
  });

  it('`--load FILE --load-as NAME` on the command line (repeatable); `--load-as` must follow a `--load`', () => {
    expect(parseCliOptions(['--load', 'own.xml', '--load-as', 'Own Books', '--load', '/data/other.xml'], '/work').load).toEqual([
      { file: '/work/own.xml', name: 'Own Books' },
      { file: '/data/other.xml' },
    ]);
    expect(() => parseCliOptions(['--load-as', 'Own Books'])).toThrow(/--load-as needs a company name and follows a --load/);
    expect(() => parseCliOptions(['--load'])).toThrow(/--load needs a TallyPrime XML file/);
  });

  it('startEmulator({ load }) / `--load` loads the company at start, once: a restart on the same data keeps what was booked', async () => {
    const { startEmulator } = await import('../src/index.js');
    const dir = fs.mkdtempSync('/tmp/emulator-load-');
    const options = { port: 0, controlPort: 0, dataDir: dir, seed: 'empty' as const, load: [{ xml: masters('Own Books Pvt Ltd') }] };
    const first = await startEmulator(options);
    try {
      const names = (await control(first, 'GET', '/companies', 200)).map((c: any) => c.name);
      expect(names).toEqual(['Empty Company', 'Own Books Pvt Ltd']);
    } finally {
      await first.close();
    }
    const again = await startEmulator(options);
    try {
      expect((await control(again, 'GET', '/companies', 200)).length).toBe(2);
    } finally {
      await again.close();
    }
  });
});
