// A newcomer's first writes, as they go wrong and right (issue 33, rough edges): a field left out says
// it is required, a bad company_id is named even when the body has problems too (and is a 400, not a
// 403), a journal or contra without a party is accepted and the XML it queues has no party, and the
// acceptance carries job_id beside the contract's transaction_id.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

const partylessJournal = {
  voucher_number: 'JV-9',
  voucher_type: 'Journal',
  date: '2025-04-30',
  narration: 'Depreciation for April',
  ledger_entries: [
    { ledger_name: 'Depreciation', amount: 2500, is_debit: true },
    { ledger_name: 'Accumulated Depreciation', amount: 2500, is_debit: false },
  ],
};

describeOnDatabases('bridge writes as a newcomer makes them', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  const url = (path: string, company: string | number = tenant.companyId) => `/api/v1/${path}?company_id=${company}`;

  beforeAll(async () => {
    // Webhook URLs checked as in production, as a newcomer's relay does.
    relay = await startBridgeRelay(kind, { WEBHOOK_ALLOW_PRIVATE_URLS: '0' });
    tenant = await provisionTenant(relay);
  });
  afterAll(() => relay.close());

  it('a field left out is "required", naming it, whatever its type', async () => {
    const { voucher_number: _n, voucher_type: _t, ...rest } = sampleInvoice;
    const { body } = await api(relay, tenant.credential, 'POST', url('invoices'), 400, {
      payload: { ...rest, ledger_entries: [{ ledger_name: 'Acme Retail', amount: 1180 }, ...sampleInvoice.ledger_entries.slice(1)] },
    });
    expect(body.error.code).toBe('bad_request');
    const byField = Object.fromEntries(body.error.details.map((d: { field: string; message: string }) => [d.field, d.message]));
    expect(byField).toEqual({
      'voucher_number': 'The voucher_number field is required and must be a string',
      'voucher_type': 'The voucher_type field is required and must be a string: the exact name of the master in the books',
      'ledger_entries.0.is_debit': 'The ledger_entries.0.is_debit field is required and must be true (debit) or false (credit)',
    });
    for (const message of Object.values(byField)) expect(message).not.toMatch(/^The \S+ field must be a string/);
    // A value of the wrong type is still called that: it was sent.
    const { body: wrong } = await api(relay, tenant.credential, 'POST', url('invoices'), 400, { payload: { ...sampleInvoice, voucher_number: 17 } });
    expect(wrong.error.details).toEqual([{ field: 'voucher_number', message: 'The voucher_number field must be a string' }]);
    // No body at all says so, on a master write too.
    const { body: none } = await api(relay, tenant.credential, 'POST', url('masters/ledger'), 400, { payload: {} });
    expect(none.error.details).toContainEqual({ field: 'name', message: expect.stringMatching(/^The name field is required/) });
  });

  it('company_id=abc is a 400 naming company_id, not a 403', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', url('invoices', 'abc'), 400, { payload: sampleInvoice });
    expect(body.error).toEqual({
      code: 'company_id_invalid',
      message: expect.stringContaining('integer company id'),
      details: [{ field: 'company_id', message: 'must be a positive integer' }],
    });
    await api(relay, tenant.credential, 'GET', url('transactions', 'abc'), 400);
    await api(relay, tenant.credential, 'GET', url('pulled-masters/ledger', 'abc'), 400);
  });

  it('a missing or malformed company is reported together with the body’s problems', async () => {
    const broken = { ...sampleInvoice, date: '2025-02-30' };
    const cases: [string, string | undefined, RegExp][] = [
      ['/api/v1/invoices', undefined, /company_id or the X-Service-Company header/],
      [url('invoices', 'abc'), 'must be a positive integer', /./],
      [url('invoices', 'abc'), undefined, /./],
    ];
    for (const [path, companyMessage, pattern] of cases) {
      const { body } = await api(relay, tenant.credential, 'POST', path, 400, { payload: broken });
      expect(body.error.code).toBe('bad_request');
      expect(body.error.details.map((d: { field: string }) => d.field)).toEqual(['company_id', 'date']);
      expect(body.error.details[0].message).toMatch(companyMessage ?? pattern);
      expect(body.error.message).toMatch(/\(and 1 more problem, listed in details\)$/);
    }
    // With the query's problems too.
    const { body: listed } = await api(relay, tenant.credential, 'GET', '/api/v1/masters/ledger?company_id=abc&limit=0', 400);
    expect(listed.error.details.map((d: { field?: string }) => d.field)).toEqual(['company_id', 'limit']);
    const { body: plain } = await api(relay, tenant.credential, 'GET', '/api/v1/masters/ledger?limit=0', 400);
    expect(plain.error.details.map((d: { field?: string }) => d.field)).toEqual(['company_id', 'limit']);
    // Where the company is optional (reading one transaction), only a malformed one is refused.
    expect((await api(relay, tenant.credential, 'GET', '/api/v1/transactions/no-such-job?company_id=abc', 400)).body.error.code).toBe('company_id_invalid');
    await api(relay, tenant.credential, 'GET', '/api/v1/transactions/no-such-job', 404);
    // Query and header that disagree are named too.
    const { body: both } = await api(relay, tenant.credential, 'POST', url('invoices'), 400, { payload: broken, headers: { 'x-service-company': '999' } });
    expect(both.error.details[0]).toEqual({ field: 'company_id', message: 'Name one company: company_id and X-Service-Company differ' });
  });

  it('a balanced journal or contra without party_ledger is accepted; its XML names no party', async () => {
    const contra = { ...partylessJournal, voucher_number: 'CT-9', voucher_type: 'Contra', ledger_entries: [{ ledger_name: 'Cash', amount: 500, is_debit: true }, { ledger_name: 'HDFC Bank', amount: 500, is_debit: false }] };
    for (const [path, payload] of [['journals', partylessJournal], ['contras', contra]] as const) {
      const { body } = await api(relay, tenant.credential, 'POST', url(path), 200, { payload });
      const { body: support } = await admin(relay, 'GET', `/admin/v1/transactions/${body.transaction_id}`, 200);
      expect(support.transaction.xml).not.toContain('PARTYLEDGERNAME');
      expect(support.transaction.xml).toContain(`<VOUCHERTYPENAME>${payload.voucher_type}</VOUCHERTYPENAME>`);
    }
    // Unbalanced, it is still refused before it reaches the books.
    const unbalanced = { ...partylessJournal, ledger_entries: [{ ledger_name: 'Depreciation', amount: 2500, is_debit: true }, { ledger_name: 'Cash', amount: 2000, is_debit: false }] };
    expect((await api(relay, tenant.credential, 'POST', url('journals'), 422, { payload: unbalanced })).body.error.code).toBe('unbalanced_entries');
    // A kind that has a party still needs it, and says so.
    const { body: invoice } = await api(relay, tenant.credential, 'POST', url('invoices'), 400, { payload: { ...sampleInvoice, party_ledger: undefined } });
    expect(invoice.error.details).toEqual([{ field: 'party_ledger', message: expect.stringMatching(/^The party_ledger field is required/) }]);
  });

  it('the acceptance carries job_id beside transaction_id, also when the caller sent its own id', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', url('journals'), 200, { payload: { ...partylessJournal, voucher_number: 'JV-10', transaction_id: 'erp-jv-10' } });
    expect(body).toEqual({ success: true, transaction_id: body.job_id, job_id: expect.stringMatching(/^[0-9a-f-]{36}$/), company_id: tenant.companyId, request_type: 'in' });
    expect(body.job_id).not.toBe('erp-jv-10');
    const { body: read } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${body.job_id}`, 200);
    expect(read.transaction).toMatchObject({ job_id: body.job_id, transaction_id: 'erp-jv-10' });
    const { body: master } = await api(relay, tenant.credential, 'POST', url('masters/ledger'), 200, { payload: { name: 'Prepaid Rent', parent: 'Current Assets' } });
    expect(master.job_id).toBe(master.transaction_id);
  });

  it('a webhook URL refused for being http or local names the setting that allows it in development', async () => {
    for (const url of ['http://127.0.0.1:9999/hooks', 'https://localhost/hooks']) {
      const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 422, { payload: { url } });
      expect(body.error.code).toBe('webhook_url_invalid');
      expect(body.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_URLS=1');
    }
  });
});
