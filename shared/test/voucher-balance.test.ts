// The balance rule the relay refuses unbalanced vouchers by (422 at POST time): the books' count —
// ledger lines left after goods absorb their ledger's share, plus the goods' accounting allocations —
// in whole paise, exact beyond what doubles add.
import { describe, expect, it } from 'vitest';
import { formatPaise, voucherDocumentTotals, voucherImbalance } from '../src/index.js';

const line = (ledger_name: string, amount: number, is_debit: boolean, is_party = false) => ({ ledger_name, amount, is_debit, is_party, bill_allocations: [] });

describe('voucher balance', () => {
  it('writes paise as the books write amounts', () => {
    expect([0n, 1n, 50n, 118000n, -5n, 999999999999999n].map(formatPaise)).toEqual(['0.00', '0.01', '0.50', '1180.00', '-0.05', '9999999999999.99']);
  });

  it('names both totals and the difference; balanced is undefined', () => {
    const unbalanced = { ledger_entries: [line('Party', 1180, true, true), line('Sales', 1000, false)], inventory_entries: [] };
    expect(voucherImbalance(unbalanced, 'sales')?.message).toBe('debits 1180.00 and credits 1000.00 differ by 180.00');
    expect(voucherImbalance({ ...unbalanced, ledger_entries: [...unbalanced.ledger_entries, line('Tax', 180, false)] }, 'sales')).toBeUndefined();
  });

  it('counts goods as the renderer posts them: absorbed into their ledger line, or added to their own ledger', () => {
    const absorbed = { ledger_entries: [line('Party', 1180, true, true), line('Sales', 1000, false), line('Tax', 180, false)], inventory_entries: [{ amount: 1000 }] };
    expect(voucherDocumentTotals(absorbed, 'sales')).toEqual({ debit_paise: 118000n, credit_paise: 118000n });
    const ownLedger = { ledger_entries: [line('Party', 1180, true, true), line('Tax', 180, false)], inventory_entries: [{ amount: 1000, ledger_name: 'Sales' }] };
    expect(voucherDocumentTotals(ownLedger, 'sales')).toEqual({ debit_paise: 118000n, credit_paise: 118000n });
    // Goods on an order without ledger lines post nothing yet.
    expect(voucherDocumentTotals({ ledger_entries: [], inventory_entries: [{ amount: 500 }] }, 'sales_order')).toEqual({ debit_paise: 0n, credit_paise: 0n });
    // Goods that cannot be posted are the document validation's to report, not the balance's.
    expect(voucherDocumentTotals({ ledger_entries: [line('Party', 10, true, true)], inventory_entries: [{ amount: 10 }] }, 'sales')).toBeUndefined();
  });

  it('adds in exact paise, past 2^53', () => {
    const big = 9999999999999.99;
    const doc = { ledger_entries: [line('A', big, true), line('B', big, true), line('C', big, false), line('D', big, false), line('E', 0.1, true), line('F', 0.2, true), line('G', 0.3, false)], inventory_entries: [] };
    expect(voucherImbalance(doc, 'journal')).toBeUndefined();
    expect(voucherDocumentTotals(doc, 'journal')?.debit_paise).toBe(2n * 999999999999999n + 30n);
  });
});
