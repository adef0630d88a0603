// Amounts reach the books exactly as the caller wrote them, or the write is refused at once naming the
// field: a JSON number a double cannot carry exactly (too large, or more than two places) is a 400 and
// queues nothing, and the largest amount allowed appears digit for digit in the job's XML.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, pairWithConnector, provisionTenant, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

/** A journal body as JSON text, so the amounts are the exact digits a caller sends, not a JavaScript number's. */
function journalText(number: string, debit: string, credit = debit): string {
  return `{"voucher_number":"${number}","voucher_type":"Journal","party_ledger":"Depreciation","date":"2025-04-10",` +
    `"ledger_entries":[{"ledger_name":"Depreciation","amount":${debit},"is_debit":true},` +
    `{"ledger_name":"Accumulated Depreciation","amount":${credit},"is_debit":false}]}`;
}

describeOnDatabases('bridge voucher amounts', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  const url = (path: string) => `/api/v1/${path}?company_id=${tenant.companyId}`;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
    await pairWithConnector(relay, tenant);
  });
  afterAll(() => relay.close());

  /** Sends the JSON text as written (amounts a JSON number cannot carry), expecting `status`; answers the body. */
  const postRaw = async (path: string, body: string, status: number) =>
    (await call(relay.app, 'POST', url(path), status, { token: tenant.credential, headers: { 'content-type': 'application/json' }, payload: body })).body;
  const transactionCount = async () => (await api(relay, tenant.credential, 'GET', `${url('transactions')}&limit=1`, 200)).body.total as number;

  it('an amount a JSON number cannot carry exactly is a 400 naming the field, and nothing is queued', async () => {
    const before = await transactionCount();
    const tooLarge = 'must be less than 10,000,000,000,000 (ten lakh crore): larger amounts cannot be carried exactly';
    const cases: { amount: string; message: string }[] = [
      // The amounts of the report: booked as …409.94, …664.00 and 999999999999999868928.00.
      { amount: '90071992547409.93', message: tooLarge },
      { amount: '123456789012345678.99', message: tooLarge },
      { amount: '1e21', message: tooLarge },
      { amount: '10000000000000', message: tooLarge },
      { amount: '1.005', message: 'must have at most 2 decimal places (read as 1.005)' },
      { amount: '0.30000000000000004', message: 'must have at most 2 decimal places (read as 0.30000000000000004)' },
      // More digits than a double carries: JSON.parse alone would read 0.07 and 12.35, and book them.
      { amount: '0.070000000000000001', message: 'must have at most 2 decimal places (read as 0.070000000000000001)' },
      { amount: '12.34999999999999999999', message: 'must have at most 2 decimal places (read as 12.34999999999999999999)' },
    ];
    for (const { amount, message } of cases) {
      const { error } = await postRaw('journals', journalText(`JV-BAD-${amount}`, amount), 400);
      expect(error.details, amount).toEqual([
        { field: 'ledger_entries.0.amount', message: `The ledger_entries.0.amount field ${message}` },
        { field: 'ledger_entries.1.amount', message: `The ledger_entries.1.amount field ${message}` },
      ]);
      expect(error.message, amount).toContain(`The ledger_entries.0.amount field ${message}`);
    }
    const goods = JSON.stringify({
      voucher_number: 'INV-BAD-QTY', voucher_type: 'Sales', party_ledger: 'Acme Retail', date: '2025-04-10',
      inventory_entries: [{ stock_item: 'Widget', quantity: 1.2345678, rate: 100, amount: 123.46 }],
      ledger_entries: [
        { ledger_name: 'Acme Retail', amount: 123.46, is_debit: true, is_party: true, bill_allocations: [{ name: 'INV-BAD-QTY', bill_type: 'New Ref', amount: 123.456 }] },
        { ledger_name: 'Sales', amount: 123.46, is_debit: false },
      ],
    });
    const response = await postRaw('invoices', goods, 400);
    expect(response.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['inventory_entries.0.quantity', 'ledger_entries.0.bill_allocations.0.amount'],
    );
    expect(await transactionCount()).toBe(before);
  });

  it('the largest amount allowed, and the smallest, are in the job’s XML digit for digit', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', url('journals'), 200, { payload: JSON.parse(journalText('JV-MAX', '9999999999999.99')) });
    const { body: support } = await admin(relay, 'GET', `/admin/v1/transactions/${body.transaction_id}`, 200);
    expect(support.transaction.xml.match(/<AMOUNT>[^<]*<\/AMOUNT>/g)).toEqual(['<AMOUNT>-9999999999999.99</AMOUNT>', '<AMOUNT>9999999999999.99</AMOUNT>']);

    const raw = await postRaw('journals', journalText('JV-MIN', '0.07', '"0.07"'), 200);
    const { body: small } = await admin(relay, 'GET', `/admin/v1/transactions/${raw.transaction_id}`, 200);
    expect(small.transaction.xml.match(/<AMOUNT>[^<]*<\/AMOUNT>/g)).toEqual(['<AMOUNT>-0.07</AMOUNT>', '<AMOUNT>0.07</AMOUNT>']);
  });

  it('the transaction summary adds amounts in paise: 0.10 + 0.20 reads 0.3', async () => {
    const body = {
      voucher_number: 'JV-SUM', voucher_type: 'Journal', party_ledger: 'Depreciation', date: '2025-04-10',
      ledger_entries: [
        { ledger_name: 'Depreciation', amount: 0.1, is_debit: true },
        { ledger_name: 'Office Rent', amount: 0.2, is_debit: true },
        { ledger_name: 'Accumulated Depreciation', amount: 0.3, is_debit: false },
      ],
    };
    const { body: accepted } = await api(relay, tenant.credential, 'POST', url('journals'), 200, { payload: body });
    const { body: read } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${accepted.transaction_id}`, 200);
    expect(read.transaction.payload.amount).toBe(0.3);
  });
});
