// Deterministic refusals at POST time (issue 21, item 8): a voucher whose debits and credits differ —
// counted as the books count them, goods included — is a 422 naming both totals, on every kind of
// write, and nothing is queued; a repeated own transaction_id replays the first acceptance only for the
// same body (the same meaning, however it is spelled) and is a 409 for another body or endpoint.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { api, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

const party = (name: string, amount: number | string, isDebit: boolean, bills: unknown[] = []) => ({ ledger_name: name, amount, is_debit: isDebit, is_party: true, bill_allocations: bills });
const line = (name: string, amount: number | string, isDebit: boolean) => ({ ledger_name: name, amount, is_debit: isDebit });
const base = (type: string, number: string, partyLedger = 'Acme Retail') => ({ voucher_number: number, voucher_type: type, party_ledger: partyLedger, date: '2025-04-10' });
const item = (amount: number, extra: Record<string, unknown> = {}) => ({ stock_item: 'Widget', quantity: 10, unit: 'Nos', amount, ...extra });

/** One unbalanced write per endpoint, with the totals the books would report. */
const UNBALANCED: { path: string; body: Record<string, unknown>; debits: string; credits: string; difference: string }[] = [
  {
    path: 'invoices',
    body: { ...base('Sales', 'INV-U1'), ledger_entries: [party('Acme Retail', 1180, true), line('Sales', 1000, false)] },
    debits: '1180.00', credits: '1000.00', difference: '180.00',
  },
  {
    // Goods absorb the Sales line (1000 of it), so the books see the items' 1000 and the tax's 150.
    path: 'invoices',
    body: {
      ...base('Sales', 'INV-U2'),
      inventory_entries: [item(1000)],
      ledger_entries: [party('Acme Retail', 1180, true), line('Sales', 1000, false), line('Output IGST', 150, false)],
    },
    debits: '1180.00', credits: '1150.00', difference: '30.00',
  },
  {
    // An item naming its own ledger, absent from ledger_entries, adds its amount.
    path: 'purchases',
    body: {
      ...base('Purchase', 'PB-U1', 'Supplier Co'),
      inventory_entries: [item(1000, { ledger_name: 'Purchase', is_debit: true })],
      ledger_entries: [party('Supplier Co', 1000, false), line('Input IGST', 180, true)],
    },
    debits: '1180.00', credits: '1000.00', difference: '180.00',
  },
  {
    path: 'orders',
    body: { ...base('Sales Order', 'SO-U1'), inventory_entries: [item(1000)], ledger_entries: [party('Acme Retail', 900, true), line('Sales', 1000, false)] },
    debits: '900.00', credits: '1000.00', difference: '100.00',
  },
  {
    path: 'credit-notes',
    body: { ...base('Credit Note', 'CN-U1'), ledger_entries: [party('Acme Retail', 500, false), line('Sales Returns', 400.5, true)] },
    debits: '400.50', credits: '500.00', difference: '99.50',
  },
  {
    path: 'debit-notes',
    body: { ...base('Debit Note', 'DN-U1', 'Supplier Co'), ledger_entries: [party('Supplier Co', 200, true), line('Purchase', 199.99, false)] },
    debits: '200.00', credits: '199.99', difference: '0.01',
  },
  {
    path: 'receipts',
    body: { ...base('Receipt', 'RC-U1'), ledger_entries: [party('Acme Retail', 1180, false, [{ name: 'INV-1', amount: 1180 }]), line('HDFC Bank', 1000, true)] },
    debits: '1000.00', credits: '1180.00', difference: '180.00',
  },
  {
    path: 'payments',
    body: { ...base('Payment', 'PY-U1', 'Supplier Co'), ledger_entries: [party('Supplier Co', 1000, true), line('HDFC Bank', 999, false)] },
    debits: '1000.00', credits: '999.00', difference: '1.00',
  },
  {
    path: 'contras',
    body: { ...base('Contra', 'CT-U1', 'Cash'), ledger_entries: [line('Cash', 500, true), line('HDFC Bank', 50, false)] },
    debits: '500.00', credits: '50.00', difference: '450.00',
  },
  {
    path: 'journals',
    body: { ...base('Journal', 'JV-U1', 'Depreciation'), ledger_entries: [line('Depreciation', 100, true), line('Accumulated Depreciation', 100, true)] },
    debits: '200.00', credits: '0.00', difference: '200.00',
  },
];

describeOnDatabases('bridge write refusals at POST time', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  const url = (path: string) => `/api/v1/${path}?company_id=${tenant.companyId}`;
  const queuedCount = async () =>
    (await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${tenant.companyId}`, 200)).body.total as number;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
  });
  afterAll(async () => relay.close());

  it('refuses an unbalanced voucher of every kind with a 422 naming both totals, and queues nothing', async () => {
    const before = await queuedCount();
    for (const write of UNBALANCED) {
      const { body } = await api(relay, tenant.credential, 'POST', url(write.path), 422, { payload: write.body });
      const sentence = `debits ${write.debits} and credits ${write.credits} differ by ${write.difference}`;
      expect(body.success, write.path).toBe(false);
      expect(body.error.code, write.path).toBe('unbalanced_entries');
      expect(body.error.message, write.path).toContain(sentence);
      expect(body.error.details, write.path).toEqual([{ field: 'ledger_entries', message: sentence }]);
    }
    expect(await queuedCount()).toBe(before);
  });

  it('accepts balanced vouchers, goods absorbed or posted to their own ledger, amounts added in exact paise', async () => {
    const balanced = [
      { path: 'invoices', body: sampleInvoice },
      {
        path: 'invoices',
        body: { ...base('Sales', 'INV-B2'), inventory_entries: [item(1000)], ledger_entries: [party('Acme Retail', 1180, true), line('Sales', 1000, false), line('Output IGST', 180, false)] },
      },
      {
        path: 'purchases',
        body: {
          ...base('Purchase', 'PB-B1', 'Supplier Co'),
          inventory_entries: [item(1000, { ledger_name: 'Purchase', is_debit: true })],
          ledger_entries: [party('Supplier Co', 1180, false), line('Input IGST', 180, true)],
        },
      },
      // An order carrying goods and no ledger lines posts nothing yet: nothing to balance.
      { path: 'orders', body: { ...base('Sales Order', 'SO-B1'), inventory_entries: [item(1000)] } },
      // 0.1 + 0.2 as doubles is not 0.3; in paise it is, and decimal strings count the same.
      { path: 'journals', body: { ...base('Journal', 'JV-B1', 'Rounding'), ledger_entries: [line('Rounding', 0.1, true), line('Charges', '0.20', true), line('Bank Charges', 0.3, false)] } },
      // Near the amount ceiling, beyond what doubles add exactly.
      {
        path: 'journals',
        body: {
          ...base('Journal', 'JV-B2', 'Capital'),
          ledger_entries: [line('Capital', 9999999999999.99, true), line('Reserve', 9999999999999.99, true), line('Loan A', 9999999999999.99, false), line('Loan B', 9999999999999.99, false)],
        },
      },
    ];
    for (const write of balanced) {
      const { body } = await api(relay, tenant.credential, 'POST', url(write.path), 200, { payload: write.body });
      expect(body).toMatchObject({ success: true, company_id: tenant.companyId, request_type: 'in' });
    }
  });

  it('a repeated transaction_id replays for the same body, however spelled, and is a 409 for another body or endpoint', async () => {
    const first = { ...sampleInvoice, voucher_number: 'INV-IDEM-1', transaction_id: 'erp-409-1' };
    const { body: accepted } = await api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload: first });

    // Same meaning: keys reordered, defaults spelled out, amounts as decimal strings.
    const sameMeaning = {
      transaction_id: 'erp-409-1',
      ledger_entries: [
        { is_party: true, is_debit: true, amount: '1180.00', ledger_name: 'Acme Retail', bill_allocations: [] },
        { ledger_name: 'Sales', amount: 1000, is_debit: false, is_party: false },
        { ledger_name: 'Output IGST', amount: '180', is_debit: false },
      ],
      inventory_entries: [],
      date: '2025-04-01',
      party_ledger: 'Acme Retail',
      voucher_type: 'Sales',
      voucher_number: 'INV-IDEM-1',
    };
    for (const payload of [first, sameMeaning]) {
      const replay = await api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload });
      expect(replay.body).toEqual(accepted);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    }

    const changed = await api(relay, tenant.credential, 'POST', url('invoices'), 409, { payload: { ...first, narration: 'second thoughts' } });
    expect(changed.body.error.code).toBe('idempotency_conflict');
    expect(changed.body.error.message).toContain('erp-409-1');
    expect(changed.body.error.message).toContain(accepted.transaction_id);
    // The same document to another endpoint is another write.
    const elsewhere = await api(relay, tenant.credential, 'POST', url('orders'), 409, { payload: { ...first, voucher_type: 'Sales' } });
    expect(elsewhere.body.error.code).toBe('idempotency_conflict');

    // The first job stands, unchanged.
    const { body: read } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/erp-409-1?company_id=${tenant.companyId}`, 200);
    expect(read.transaction).toMatchObject({ job_id: accepted.transaction_id, payload: { voucher_number: 'INV-IDEM-1' } });
    const rows = await relay.app.database.db.selectFrom('transactions').select('job_id').where('client_transaction_id', '=', 'erp-409-1').execute();
    expect(rows).toHaveLength(1);
  });

  it('masters: the same body replays, another body or type under the same transaction_id is a 409', async () => {
    const ledger = { name: 'Idem Ledger', parent: 'Sundry Debtors', transaction_id: 'erp-master-1' };
    const { body: accepted } = await api(relay, tenant.credential, 'POST', url('masters/ledger'), 200, { payload: ledger });
    const replay = await api(relay, tenant.credential, 'POST', url('masters/ledger'), 200, { payload: { parent: 'Sundry Debtors', name: 'Idem Ledger', transaction_id: 'erp-master-1' } });
    expect(replay.body).toEqual(accepted);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const renamed = await api(relay, tenant.credential, 'POST', url('masters/ledger'), 409, { payload: { ...ledger, name: 'Other Ledger' } });
    expect(renamed.body.error.code).toBe('idempotency_conflict');
    await api(relay, tenant.credential, 'POST', url('masters/group'), 409, { payload: { name: 'Idem Ledger', parent: 'Sundry Debtors', transaction_id: 'erp-master-1' } });
    // A voucher reusing a master's own id is not a repeat of it either.
    await api(relay, tenant.credential, 'POST', url('invoices'), 409, { payload: { ...sampleInvoice, voucher_number: 'INV-M', transaction_id: 'erp-master-1' } });
  });

  it('a job accepted before fingerprints were kept replays for any body, as it did then', async () => {
    const { body: accepted } = await api(relay, tenant.credential, 'POST', url('invoices'), 200, {
      payload: { ...sampleInvoice, voucher_number: 'INV-OLD', transaction_id: 'erp-before-0260' },
    });
    const db = relay.app.database.db;
    const row = await db.selectFrom('transactions').select('id').where('job_id', '=', accepted.transaction_id).executeTakeFirstOrThrow();
    await db.updateTable('transaction_documents').set({ request_fingerprint: null }).where('transaction_id', '=', row.id).execute();
    const replay = await api(relay, tenant.credential, 'POST', url('invoices'), 200, {
      payload: { ...sampleInvoice, voucher_number: 'INV-OLD-CHANGED', transaction_id: 'erp-before-0260' },
    });
    expect(replay.body).toEqual(accepted);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });
});
