// A working example for every request body in the OpenAPI document at /docs, keyed by
// "METHOD /path" as the document names the path. The names are the `demo` seed's books (the
// emulator's "Ledgerwire Demo Traders"), so a voucher or master example posted to a company paired
// with those books is booked as it stands. relay/test/foundation/openapi-examples.test.ts proves
// each validates against its schema, that no body lacks one, and posts several for real.

/** Ids in these examples are placeholders: use those your own calls returned. */
const COMPANY_ID = 1;
const CUSTOMER_ID = 'cus_7cf1fcc9fa2cbc54132afd90';
const BOOKS_COMPANY_GUID = '4feec919-986d-4ed7-ba82-ca8d4a666108';
const DATE = '2026-04-15';

const templateBody = {
  subject: 'Invoice {{number}} from Acme',
  html: '<p>Hi {{name}}, invoice {{number}} for ₹{{amount}} is ready.</p>',
  text: 'Hi {{name}}, invoice {{number}} for ₹{{amount}} is ready.',
};
const templateData = { name: 'Ada', number: 'INV-1001', amount: '1,180.00' };

const invoice = {
  voucher_number: 'INV-1001',
  voucher_type: 'Sales',
  party_ledger: 'Ram & Sons',
  date: DATE,
  narration: 'Consulting services, April',
  transaction_id: 'inv-1001',
  ledger_entries: [
    { ledger_name: 'Ram & Sons', amount: 1180, is_debit: true, is_party: true, bill_allocations: [{ name: 'INV-1001', bill_type: 'New Ref', amount: 1180 }] },
    { ledger_name: 'Sales - Services', amount: 1000, is_debit: false },
    { ledger_name: 'Output CGST', amount: 90, is_debit: false },
    { ledger_name: 'Output SGST', amount: 90, is_debit: false },
  ],
};

const voucherExamples: Record<string, unknown> = {
  'POST /api/v1/invoices': invoice,
  'POST /api/v1/orders': {
    voucher_number: 'SO-1001',
    voucher_type: 'Sales Order',
    party_ledger: 'Acme Retail Pvt Ltd',
    date: DATE,
    transaction_id: 'so-1001',
    inventory_entries: [{ stock_item: 'Widget 12mm', quantity: 10, unit: 'Nos', rate: 50, amount: 500, ledger_name: 'Sales - Goods' }],
    ledger_entries: [
      { ledger_name: 'Acme Retail Pvt Ltd', amount: 500, is_debit: true, is_party: true },
      { ledger_name: 'Sales - Goods', amount: 500, is_debit: false },
    ],
  },
  'POST /api/v1/credit-notes': {
    voucher_number: 'CN-1001',
    voucher_type: 'Credit Note',
    party_ledger: 'Ram & Sons',
    date: DATE,
    narration: 'Discount on INV-1001',
    transaction_id: 'cn-1001',
    ledger_entries: [
      { ledger_name: 'Ram & Sons', amount: 118, is_debit: false, is_party: true, bill_allocations: [{ name: 'CN-1001', bill_type: 'New Ref', amount: 118 }] },
      { ledger_name: 'Sales - Services', amount: 100, is_debit: true },
      { ledger_name: 'Output CGST', amount: 9, is_debit: true },
      { ledger_name: 'Output SGST', amount: 9, is_debit: true },
    ],
  },
  'POST /api/v1/debit-notes': {
    voucher_number: 'DN-1001',
    voucher_type: 'Debit Note',
    party_ledger: 'Om Packaging House',
    date: DATE,
    narration: 'Short supply on bill OPH-77',
    transaction_id: 'dn-1001',
    ledger_entries: [
      { ledger_name: 'Om Packaging House', amount: 590, is_debit: true, is_party: true, bill_allocations: [{ name: 'DN-1001', bill_type: 'New Ref', amount: 590 }] },
      { ledger_name: 'Freight & Cartage', amount: 500, is_debit: false },
      { ledger_name: 'Input CGST', amount: 45, is_debit: false },
      { ledger_name: 'Input SGST', amount: 45, is_debit: false },
    ],
  },
  'POST /api/v1/purchases': {
    voucher_number: 'OPH-78',
    voucher_type: 'Purchase',
    party_ledger: 'Om Packaging House',
    date: DATE,
    reference: 'OPH-78',
    reference_date: DATE,
    transaction_id: 'pur-oph-78',
    ledger_entries: [
      { ledger_name: 'Om Packaging House', amount: 2360, is_debit: false, is_party: true, bill_allocations: [{ name: 'OPH-78', bill_type: 'New Ref', amount: 2360 }] },
      { ledger_name: 'Freight & Cartage', amount: 2000, is_debit: true },
      { ledger_name: 'Input CGST', amount: 180, is_debit: true },
      { ledger_name: 'Input SGST', amount: 180, is_debit: true },
    ],
  },
  'POST /api/v1/receipts': {
    voucher_number: 'RCT-1001',
    voucher_type: 'Receipt',
    party_ledger: 'Ram & Sons',
    date: DATE,
    narration: 'NEFT from Ram & Sons',
    transaction_id: 'rct-1001',
    ledger_entries: [
      { ledger_name: 'Ram & Sons', amount: 1180, is_debit: false, is_party: true, bill_allocations: [{ bill_type: 'On Account', amount: 1180 }] },
      { ledger_name: 'HDFC Bank', amount: 1180, is_debit: true },
    ],
  },
  'POST /api/v1/payments': {
    voucher_number: 'PMT-1001',
    voucher_type: 'Payment',
    party_ledger: 'Om Packaging House',
    date: DATE,
    transaction_id: 'pmt-1001',
    ledger_entries: [
      { ledger_name: 'Om Packaging House', amount: 5000, is_debit: true, is_party: true, bill_allocations: [{ bill_type: 'On Account', amount: 5000 }] },
      { ledger_name: 'HDFC Bank', amount: 5000, is_debit: false },
    ],
  },
  'POST /api/v1/contras': {
    voucher_number: 'CTR-1001',
    voucher_type: 'Contra',
    party_ledger: 'HDFC Bank',
    date: DATE,
    narration: 'Cash deposited',
    transaction_id: 'ctr-1001',
    ledger_entries: [
      { ledger_name: 'HDFC Bank', amount: 2000, is_debit: true, is_party: true },
      { ledger_name: 'Cash', amount: 2000, is_debit: false },
    ],
  },
  'POST /api/v1/journals': {
    voucher_number: 'JV-1001',
    voucher_type: 'Journal',
    party_ledger: 'Northwind Suppliers',
    date: DATE,
    narration: 'Freight charged by Northwind',
    transaction_id: 'jv-1001',
    ledger_entries: [
      { ledger_name: 'Freight & Cartage', amount: 1500, is_debit: true },
      { ledger_name: 'Northwind Suppliers', amount: 1500, is_debit: false, is_party: true, bill_allocations: [{ name: 'JV-1001', bill_type: 'New Ref', amount: 1500 }] },
    ],
  },
  'POST /api/v1/vouchers/{voucher}/cancel': { transaction_id: 'cancel-inv-1001', narration: 'Cancelled at the customer’s request' },
  'POST /api/v1/vouchers/{voucher}/delete': { transaction_id: 'delete-inv-1001' },
};

const masterExamples: Record<string, unknown> = {
  'POST /api/v1/masters/group': { name: 'Online Customers', parent: 'Sundry Debtors', is_billwise: 'Yes', transaction_id: 'grp-online-customers' },
  'POST /api/v1/masters/ledger': {
    name: 'Mehta Stores',
    parent: 'Sundry Debtors',
    gstin: '29AABCM1234C1Z2',
    gst_registration_type: 'Regular',
    email: 'accounts@mehtastores.example',
    is_billwise: 'Yes',
    transaction_id: 'led-mehta-stores',
  },
  'POST /api/v1/masters/currency': { name: '€', mailing_name: 'Euro', original_name: '€', expanded_symbol: 'EUR', iso_code: 'EUR', decimal_places: 2 },
  'POST /api/v1/masters/unit': { name: 'Pcs', original_name: 'Pieces', is_simple_unit: 'Yes', decimal_places: 0 },
  'POST /api/v1/masters/godown': { name: 'Warehouse C' },
  'POST /api/v1/masters/stock_group': { name: 'Cables', parent: 'Electronics', base_units: 'Nos' },
  'POST /api/v1/masters/stock_category': { name: 'Premium' },
  'POST /api/v1/masters/stock_item': { name: 'Widget 16mm', parent: 'Electronics', category: 'Standard', base_units: 'Nos', gst_applicable: 'Applicable' },
  'POST /api/v1/masters/voucher_type': { name: 'Online Sales', parent: 'Sales', numbering_method: 'Automatic', prevent_duplicates: 'No' },
};

const bridgeExamples: Record<string, unknown> = {
  'POST /api/v1/customers': { name: 'Sharma Traders', external_id: 'cust-1001' },
  'POST /api/v1/companies': { name: 'Sharma Traders (Tally)' },
  'POST /api/v1/companies/{id}/customer': { customer_id: CUSTOMER_ID },
  'POST /api/v1/pulled-vouchers/ack': { company_id: COMPANY_ID, transaction_ids: ['pv_fb81e8cb-44b8-499d-abe5-cd0876db0c62'] },
  'POST /api/v1/webhooks': {
    url: 'https://hooks.example.com/ledgerwire',
    events: ['transaction.completed', 'transaction.failed', 'connector.offline'],
    description: 'Outcomes of writes, and connectors going offline',
  },
  'PATCH /api/v1/webhooks/{id}': { enabled: false },
  'POST /api/v1/connectors/enroll': { token: 'the customer token from POST /api/v1/customers, or a setup code such as K7QP-M3XD', machine_name: 'SHOP-PC', version: '0.1.0' },
  'POST /api/v1/connect-sessions': {
    customer_id: CUSTOMER_ID,
    company_name: 'Sharma Traders (Tally)',
    return_url: 'https://erp.example.com/settings/tally-connected',
    expires_in_seconds: 259_200,
  },
  'POST /connect/{token}/choose': { books_company_guid: BOOKS_COMPANY_GUID },
  'POST /api/v1/connectors/pairings': { company_id: COMPANY_ID, books_company_guid: BOOKS_COMPANY_GUID, books_company_name: 'Ledgerwire Demo Traders' },
};

const messagingExamples: Record<string, unknown> = {
  'POST /api/messages/send': {
    channel: 'email',
    to: 'ada@example.com',
    subject: 'Invoice {{number}} from Acme',
    event_key: 'invoice_ready',
    transaction_id: 'inv-1001',
    data: templateData,
    metadata: { invoice_id: 'INV-1001' },
    tags: ['invoice'],
    attachments: [{ filename: 'INV-1001.pdf', content: 'JVBERi0xLjQK', content_type: 'application/pdf' }],
  },
  'POST /api/messages/batch': {
    messages: [
      { channel: 'email', to: 'ada@example.com', event_key: 'invoice_ready', transaction_id: 'inv-1001', data: templateData },
      { channel: 'email', to: 'bob@example.com', event_key: 'invoice_ready', transaction_id: 'inv-1002', data: { ...templateData, name: 'Bob', number: 'INV-1002' } },
    ],
  },
  'POST /api/events': {
    event_id: 'evt-1001',
    event_name: 'invoice.created',
    source: 'billing',
    org_id: 42,
    actor: { type: 'user', id: 7 },
    data: { email: 'ada@example.com', ...templateData },
    occurred_at: '2026-04-15T10:30:00Z',
  },
};

const operatorExamples: Record<string, unknown> = {
  'POST /admin/v1/applications': { name: 'Acme Billing' },
  'POST /admin/v1/operators': { name: 'Asha (support desk)', role: 'support' },
  'POST /admin/v1/applications/{id}/keys': { environment: 'test', capabilities: ['pull.master', 'report.stock'] },
  'PATCH /admin/v1/companies/{id}': { pull_masters: true, reports: { stock: true, gst: false } },
  'POST /admin/v1/companies/{id}/pair': { connector_id: 'the connector_id from enrolment', books_company_guid: BOOKS_COMPANY_GUID, books_company_name: 'Ledgerwire Demo Traders' },
  'POST /admin/v1/companies/{id}/customer': { customer_id: CUSTOMER_ID },
  'POST /admin/v1/tenants': { name: 'Acme', org_id: 42, provider_order: ['outbox'] },
  'POST /admin/v1/tenants/{id}/api-keys': { mode: 'test' },
  'PATCH /admin/v1/tenants/{id}': { limits: { daily_quota: 500, sustained_per_minute: null } },
  'POST /admin/v1/tenants/{id}/templates': { event_key: 'invoice_ready', channel: 'email', ...templateBody },
  'PATCH /admin/v1/tenants/{id}/templates/{template_id}': { subject: 'Your invoice {{number}}' },
  'POST /admin/v1/tenants/{id}/templates/{template_id}/preview': { data: templateData },
  'POST /admin/v1/tenants/{id}/event-rules': { event_name: 'invoice.created', channel: 'email', event_key: 'invoice_ready', to: 'ada@example.com', subject: 'Invoice {{number}} from Acme' },
  'PATCH /admin/v1/tenants/{id}/event-rules/{rule_id}': { is_active: false },
  'POST /admin/v1/tenants/{id}/webhooks': { url: 'https://hooks.example.com/messages', events: ['message.delivered', 'message.bounced'], description: 'Delivery status' },
  'PATCH /admin/v1/tenants/{id}/webhooks/{webhook_id}': { enabled: false },
  'POST /admin/v1/console/tenants/{id}/template-previews': { ...templateBody, data: templateData },
  'POST /admin/v1/console/tenants/{id}/template-samples': templateBody,
  'POST /admin/v1/console/webhooks/{endpoint_id}/state': { enabled: false },
};

export const REQUEST_BODY_EXAMPLES: Readonly<Record<string, unknown>> = Object.freeze({
  ...voucherExamples,
  ...masterExamples,
  ...bridgeExamples,
  ...messagingExamples,
  ...operatorExamples,
});

type Operation = { requestBody?: { content?: Record<string, { example?: unknown }> } };

/** Puts each body's example on its JSON media type, where Swagger UI's "Try it out" fills it in. */
export function addRequestBodyExamples<T extends object>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, Operation | undefined> | undefined> }).paths ?? {};
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations ?? {})) {
      const media = operation?.requestBody?.content?.['application/json'];
      const example = REQUEST_BODY_EXAMPLES[`${method.toUpperCase()} ${path}`];
      if (media && example !== undefined && media.example === undefined) media.example = structuredClone(example);
    }
  }
  return document;
}
