// The voucher document of the contract: its rules enforced as validation, with messages an integrator
// can act on, and names kept exactly as sent.
import { describe, expect, it } from 'vitest';
import {
  describeVoucherIssues,
  PartyOptionalVoucherWriteIn,
  VOUCHER_WRITE_ENDPOINTS,
  VOUCHER_WRITE_PATHS,
  VoucherDocumentIn,
  voucherWriteBodyFor,
  voucherWriteSchemaFor,
  VoucherWriteIn,
} from '../src/index.js';

const receipt = {
  voucher_number: 'R-17',
  voucher_type: 'Receipt',
  party_ledger: 'Ram & Sons',
  date: '2026-04-15',
  ledger_entries: [
    { ledger_name: 'HDFC Bank', amount: 5000, is_debit: true },
    { ledger_name: 'Ram & Sons', amount: 5000, is_debit: false, is_party: true, bill_allocations: [{ name: 'INV-1001', amount: 5000 }] },
  ],
};

function issuesOf(schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  return describeVoucherIssues(result.error as Parameters<typeof describeVoucherIssues>[0]);
}

describe('VoucherDocumentIn', () => {
  it('accepts a receipt and fills the defaults: is_party false, bill_type Agst Ref when a name is given', () => {
    const doc = VoucherDocumentIn.parse(receipt);
    expect(doc.ledger_entries[0]?.is_party).toBe(false);
    expect(doc.ledger_entries[1]?.bill_allocations[0]?.bill_type).toBe('Agst Ref');
    expect(doc.inventory_entries).toEqual([]);
  });

  it('defaults a nameless allocation to On Account and refuses a nameless Agst Ref or New Ref', () => {
    const onAccount = VoucherDocumentIn.parse({
      ...receipt,
      ledger_entries: [receipt.ledger_entries[0], { ...receipt.ledger_entries[1], bill_allocations: [{ amount: 5000 }] }],
    });
    expect(onAccount.ledger_entries[1]?.bill_allocations[0]).toEqual({ amount: 5000, bill_type: 'On Account' });
    const issues = issuesOf(VoucherDocumentIn, {
      ...receipt,
      ledger_entries: [receipt.ledger_entries[0], { ...receipt.ledger_entries[1], bill_allocations: [{ bill_type: 'New Ref', amount: 5000 }] }],
    });
    expect(issues).toEqual([{ field: 'ledger_entries.1.bill_allocations.0.name', message: 'is required for a "New Ref" allocation: give the bill reference' }]);
  });

  it('refuses a name on an On Account allocation and an unknown bill type, saying what is allowed', () => {
    const issues = issuesOf(VoucherDocumentIn, {
      ...receipt,
      ledger_entries: [
        receipt.ledger_entries[0],
        { ...receipt.ledger_entries[1], bill_allocations: [{ name: 'X', bill_type: 'On Account', amount: 1 }, { name: 'Y', bill_type: 'Against', amount: 1 }] },
      ],
    });
    expect(issues.map((i) => i.field)).toEqual(['ledger_entries.1.bill_allocations.0.name', 'ledger_entries.1.bill_allocations.1.bill_type']);
    expect(issues[0]?.message).toContain('must be left out for an "On Account" allocation');
    expect(issues[1]?.message).toBe('must be one of "Agst Ref", "New Ref", "Advance", "On Account"');
  });

  it('validates the date as a real calendar date in ISO form', () => {
    expect(issuesOf(VoucherDocumentIn, { ...receipt, date: '2025-02-29' })).toEqual([{ field: 'date', message: 'is not a real calendar date' }]);
    expect(issuesOf(VoucherDocumentIn, { ...receipt, date: '15/04/2026' })[0]?.message).toBe('must be an ISO date YYYY-MM-DD, e.g. 2026-04-01');
    expect(VoucherDocumentIn.parse({ ...receipt, date: '2024-02-29' }).date).toBe('2024-02-29');
  });

  it('keeps master names verbatim: trailing spaces and case survive, blank names are refused', () => {
    const doc = VoucherDocumentIn.parse({ ...receipt, party_ledger: 'ram & sons  ' });
    expect(doc.party_ledger).toBe('ram & sons  ');
    expect(issuesOf(VoucherDocumentIn, { ...receipt, party_ledger: '   ' })).toEqual([{ field: 'party_ledger', message: 'must not be blank (only spaces)' }]);
    expect(issuesOf(VoucherDocumentIn, { ...receipt, party_ledger: 'bad\u0001name' })[0]?.message).toContain('control character');
  });

  it('says what is wrong with amounts: negative, too many decimals, not a number', () => {
    const issues = issuesOf(VoucherDocumentIn, {
      ...receipt,
      ledger_entries: [
        { ledger_name: 'A', amount: -5, is_debit: true },
        { ledger_name: 'B', amount: 1.005, is_debit: false },
        { ledger_name: 'C', amount: 'lots', is_debit: false },
        { ledger_name: 'D', amount: 3 },
      ],
    });
    expect(issues).toEqual([
      { field: 'ledger_entries.0.amount', message: 'must not be negative: give the size of the amount and say the side with is_debit' },
      { field: 'ledger_entries.1.amount', message: 'must have at most 2 decimal places (read as 1.005)' },
      { field: 'ledger_entries.2.amount', message: 'must be a number' },
      { field: 'ledger_entries.3.is_debit', message: 'must be true (debit) or false (credit)' },
    ]);
  });

  it('accepts amounts as decimal strings (a pulled voucher pushed back unchanged)', () => {
    const doc = VoucherDocumentIn.parse({ ...receipt, ledger_entries: [{ ledger_name: 'A', amount: '118.50', is_debit: true }] });
    expect(doc.ledger_entries[0]?.amount).toBe(118.5);
  });

  it('does not judge balance: unbalanced entries are the books\' decision (the write fails later)', () => {
    const unbalanced = { ...receipt, ledger_entries: [{ ledger_name: 'HDFC Bank', amount: 10, is_debit: true }, { ledger_name: 'Ram & Sons', amount: 9, is_debit: false }] };
    expect(VoucherDocumentIn.safeParse(unbalanced).success).toBe(true);
  });

  it('requires the common parts and names each missing one', () => {
    const issues = issuesOf(VoucherWriteIn, { ledger_entries: [] });
    expect(issues.map((i) => i.field).sort()).toEqual(['date', 'party_ledger', 'voucher_number', 'voucher_type']);
    expect(issues.find((i) => i.field === 'date')?.message).toBe('must be a date string YYYY-MM-DD');
    const empty = issuesOf(VoucherDocumentIn, { ...receipt, ledger_entries: [] });
    expect(empty).toEqual([{ field: 'ledger_entries', message: 'a voucher needs entries: add ledger_entries (and inventory_entries for goods)' }]);
  });
});

describe('VoucherWriteIn and the nine endpoints', () => {
  it('adds the caller transaction_id and the alter target books_voucher_guid', () => {
    const body = VoucherWriteIn.parse({ ...receipt, transaction_id: 'order-991', books_voucher_guid: 'abc-0000001' });
    expect(body.transaction_id).toBe('order-991');
    expect(body.books_voucher_guid).toBe('abc-0000001');
  });

  it('leaves party_ledger optional on journals and contras only', () => {
    const partyless = { voucher_number: 'JV-1', voucher_type: 'Journal', date: '2026-04-15', ledger_entries: [{ ledger_name: 'Rent', amount: 5, is_debit: true }, { ledger_name: 'Cash', amount: 5, is_debit: false }] };
    for (const path of VOUCHER_WRITE_PATHS) {
      const optional = path === 'journals' || path === 'contras';
      expect(VOUCHER_WRITE_ENDPOINTS[path].party, path).toBe(optional ? 'optional' : 'required');
      expect(voucherWriteBodyFor(path).safeParse(partyless).success, path).toBe(optional);
      expect(voucherWriteSchemaFor(path).safeParse(partyless).success, path).toBe(optional);
    }
    expect(PartyOptionalVoucherWriteIn.parse(partyless).party_ledger).toBeUndefined();
  });

  it('maps each write path to its kind, reserved type and parts', () => {
    expect(VOUCHER_WRITE_PATHS).toHaveLength(9);
    expect(Object.fromEntries(VOUCHER_WRITE_PATHS.map((p) => [p, [VOUCHER_WRITE_ENDPOINTS[p].voucher_kind, VOUCHER_WRITE_ENDPOINTS[p].reserved_voucher_type]]))).toEqual({
      'invoices': ['sales', 'Sales'],
      'orders': ['sales_order', 'Sales Order'],
      'credit-notes': ['credit_note', 'Credit Note'],
      'debit-notes': ['debit_note', 'Debit Note'],
      'purchases': ['purchase', 'Purchase'],
      'receipts': ['receipt', 'Receipt'],
      'payments': ['payment', 'Payment'],
      'contras': ['contra', 'Contra'],
      'journals': ['journal', 'Journal'],
    });
    for (const path of ['receipts', 'payments', 'contras', 'journals'] as const) expect(VOUCHER_WRITE_ENDPOINTS[path].inventory).toBe('not_allowed');
    expect(VOUCHER_WRITE_ENDPOINTS.orders.ledger_entries).toBe('optional');
  });

  const goods = [{ stock_item: 'Widget 12mm', unit: 'Nos', quantity: 10, rate: 100, amount: 1000 }];

  it('refuses goods on money-only kinds with a message that says where they belong', () => {
    const issues = issuesOf(voucherWriteSchemaFor('receipts'), { ...receipt, inventory_entries: goods });
    expect(issues).toEqual([
      { field: 'inventory_entries', message: 'are not allowed on a receipt: it moves money only. Remove them, or post goods to /api/v1/invoices or /api/v1/purchases' },
    ]);
  });

  it('lets an order carry goods without ledger entries, but not a journal go without ledger entries', () => {
    const order = { voucher_number: 'SO-1', voucher_type: 'Sales Order', party_ledger: 'Ram & Sons', date: '2026-04-15', inventory_entries: goods };
    expect(voucherWriteSchemaFor('orders').safeParse(order).success).toBe(true);
    const issues = issuesOf(voucherWriteSchemaFor('journals'), { ...order, voucher_type: 'Journal', inventory_entries: [], ledger_entries: [] });
    expect(issues).toContainEqual({ field: 'ledger_entries', message: 'a journal needs at least one ledger entry' });
  });

  it('asks for ledger_name when the sales ledger of the goods is ambiguous', () => {
    const invoice = {
      voucher_number: 'S-1', voucher_type: 'Sales', party_ledger: 'Ram & Sons', date: '2026-04-15', inventory_entries: goods,
      ledger_entries: [
        { ledger_name: 'Ram & Sons', amount: 1180, is_debit: true, is_party: true },
        { ledger_name: 'Sales - Goods', amount: 590, is_debit: false },
        { ledger_name: 'Sales - Services', amount: 590, is_debit: false },
      ],
    };
    const issues = issuesOf(voucherWriteSchemaFor('invoices'), invoice);
    expect(issues[0]?.field).toBe('inventory_entries.0.ledger_name');
    expect(issues[0]?.message).toContain('"Sales - Goods", "Sales - Services"');
    const named = { ...invoice, inventory_entries: [{ ...goods[0], ledger_name: 'Sales - Goods' }] };
    expect(voucherWriteSchemaFor('invoices').safeParse(named).success).toBe(true);
  });
});
