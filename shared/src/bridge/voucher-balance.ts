// Whether a voucher's debits and credits net to zero as the books will count them, so an unbalanced
// write is refused at POST time (422) rather than accepted and failed later by the books' "Voucher totals
// do not match". The books add every ledger line and every item's accounting allocation: with goods on
// the voucher, the ledger lines are those left after the items absorb their share of the sales or
// purchase ledger (inventory-postings.ts), exactly as the renderer writes them (books-xml/voucher-xml.ts).
// Bill allocations and quantities do not count. Sums are whole paise in BigInt: each amount is below
// 10^15 paise, but a long voucher's total may pass 2^53.
import { planInventoryPostings, type PostingInventoryLine, type PostingLedgerLine } from './inventory-postings.js';
import { defaultItemsDebitForKind } from './voucher-document.js';
import type { VoucherKind } from './voucher-kind.js';
import { paiseOf } from './wire-decimal.js';

export type VoucherTotals = Readonly<{ debit_paise: bigint; credit_paise: bigint }>;

export type VoucherBalanceInput = Readonly<{
  ledger_entries: readonly PostingLedgerLine[];
  inventory_entries: readonly PostingInventoryLine[];
}>;

/**
 * The side goods take when a line does not say: the same rule the renderer applies (the kind's
 * default; without one, an order with no party line is outward, else the opposite of the party line).
 */
function defaultItemsSide(kind: VoucherKind | undefined, ledgerEntries: readonly PostingLedgerLine[]): boolean | undefined {
  const kindSide = kind === undefined ? undefined : defaultItemsDebitForKind(kind);
  return kindSide ?? (ledgerEntries.some((entry) => entry.is_party) ? undefined : false);
}

/**
 * Dr and Cr totals as the books will see them; undefined when the goods cannot be posted at all
 * (the document's own validation reports that, in words).
 */
export function voucherDocumentTotals(document: VoucherBalanceInput, kind: VoucherKind | undefined): VoucherTotals | undefined {
  let ledgerLines: readonly PostingLedgerLine[] = document.ledger_entries;
  const items: { amount: number; is_debit: boolean }[] = [];
  if (document.inventory_entries.length > 0) {
    const planned = planInventoryPostings(document.ledger_entries, document.inventory_entries, defaultItemsSide(kind, document.ledger_entries));
    if (!planned.ok) return undefined;
    ledgerLines = planned.plan.ledgerLines;
    planned.plan.items.forEach((posting, index) => {
      // An item without a ledger (goods on an order with no ledger lines) posts nothing yet.
      if (posting.ledger_name !== '') items.push({ amount: document.inventory_entries[index]?.amount ?? 0, is_debit: posting.is_debit });
    });
  }
  let debit = 0n;
  let credit = 0n;
  for (const line of [...ledgerLines, ...items]) {
    const paise = BigInt(paiseOf(Math.abs(line.amount)));
    if (line.is_debit) debit += paise;
    else credit += paise;
  }
  return { debit_paise: debit, credit_paise: credit };
}

/** Paise as the books write an amount: "1180.00", "-0.50". */
export function formatPaise(paise: bigint): string {
  const negative = paise < 0n;
  const size = negative ? -paise : paise;
  const whole = size / 100n;
  const fraction = (size % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Undefined when balanced (or not postable); else the sentence a 422 carries, naming both totals. */
export function voucherImbalance(document: VoucherBalanceInput, kind: VoucherKind | undefined): { totals: VoucherTotals; message: string } | undefined {
  const totals = voucherDocumentTotals(document, kind);
  if (totals === undefined || totals.debit_paise === totals.credit_paise) return undefined;
  const difference = totals.debit_paise > totals.credit_paise ? totals.debit_paise - totals.credit_paise : totals.credit_paise - totals.debit_paise;
  return {
    totals,
    message: `debits ${formatPaise(totals.debit_paise)} and credits ${formatPaise(totals.credit_paise)} differ by ${formatPaise(difference)}`,
  };
}
