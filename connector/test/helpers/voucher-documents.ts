// One voucher document per write endpoint of the contract, valid in the emulator's demo company
// ("Ledgerwire Demo Traders"): its ledgers, stock items and open bills.
export const DEMO_DATE = '2026-04-15';

export function documentsByEndpoint(tag: string): Record<string, Record<string, unknown>> {
  const n = (kind: string) => `${kind}-${tag}`;
  return {
    invoices: {
      voucher_number: n('INV'),
      voucher_type: 'Sales',
      party_ledger: 'Ram & Sons',
      date: DEMO_DATE,
      ledger_entries: [
        { ledger_name: 'Ram & Sons', amount: 1000, is_debit: true, is_party: true, bill_allocations: [{ name: n('INV'), bill_type: 'New Ref', amount: 1000 }] },
        { ledger_name: 'Sales - Services', amount: 1000, is_debit: false },
      ],
    },
    orders: {
      voucher_number: n('SO'),
      voucher_type: 'Sales Order',
      party_ledger: 'Acme Retail Pvt Ltd',
      date: DEMO_DATE,
      inventory_entries: [{ stock_item: 'Widget 12mm', quantity: 2, rate: 100, amount: 200, ledger_name: 'Sales - Goods' }],
      ledger_entries: [
        { ledger_name: 'Acme Retail Pvt Ltd', amount: 200, is_debit: true, is_party: true },
        { ledger_name: 'Sales - Goods', amount: 200, is_debit: false },
      ],
    },
    'credit-notes': {
      voucher_number: n('CN'),
      voucher_type: 'Credit Note',
      party_ledger: 'Ram & Sons',
      date: DEMO_DATE,
      ledger_entries: [
        { ledger_name: 'Sales - Services', amount: 500, is_debit: true },
        { ledger_name: 'Ram & Sons', amount: 500, is_debit: false, is_party: true },
      ],
    },
    'debit-notes': {
      voucher_number: n('DN'),
      voucher_type: 'Debit Note',
      party_ledger: 'Om Packaging House',
      date: DEMO_DATE,
      ledger_entries: [
        { ledger_name: 'Om Packaging House', amount: 300, is_debit: true, is_party: true },
        { ledger_name: 'Office Rent', amount: 300, is_debit: false },
      ],
    },
    purchases: {
      voucher_number: n('PUR'),
      voucher_type: 'Purchase',
      party_ledger: 'Northwind Suppliers',
      date: DEMO_DATE,
      ledger_entries: [
        { ledger_name: 'Office Rent', amount: 2000, is_debit: true },
        { ledger_name: 'Northwind Suppliers', amount: 2000, is_debit: false, is_party: true },
      ],
    },
    receipts: {
      voucher_number: n('RCT'),
      voucher_type: 'Receipt',
      party_ledger: 'Ram & Sons',
      date: DEMO_DATE,
      ledger_entries: [
        { ledger_name: 'HDFC Bank', amount: 100, is_debit: true },
        { ledger_name: 'Ram & Sons', amount: 100, is_debit: false, is_party: true, bill_allocations: [{ name: 'INV-1001', bill_type: 'Agst Ref', amount: 100 }] },
      ],
    },
    payments: {
      voucher_number: n('PAY'),
      voucher_type: 'Payment',
      party_ledger: 'Om Packaging House',
      date: DEMO_DATE,
      ledger_entries: [
        { ledger_name: 'Om Packaging House', amount: 100, is_debit: true, is_party: true, bill_allocations: [{ name: 'OPH-501', bill_type: 'Agst Ref', amount: 100 }] },
        { ledger_name: 'HDFC Bank', amount: 100, is_debit: false },
      ],
    },
    contras: {
      voucher_number: n('CON'),
      voucher_type: 'Contra',
      party_ledger: 'HDFC Bank',
      date: DEMO_DATE,
      ledger_entries: [
        { ledger_name: 'Cash', amount: 50, is_debit: true },
        { ledger_name: 'HDFC Bank', amount: 50, is_debit: false },
      ],
    },
    journals: {
      voucher_number: n('JV'),
      voucher_type: 'Journal',
      party_ledger: 'Office Rent',
      date: DEMO_DATE,
      ledger_entries: [
        { ledger_name: 'Office Rent', amount: 75, is_debit: true },
        { ledger_name: 'Freight & Cartage', amount: 75, is_debit: false },
      ],
    },
  };
}
