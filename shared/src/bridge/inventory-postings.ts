// Where each inventory line of a voucher posts in the books. In TallyPrime's invoice view an item carries
// its sales/purchase ledger as an accounting allocation, and that ledger must not also appear as a plain
// ledger entry, or the voucher counts it twice ("Voucher totals do not match"). Integrators naturally send
// a balanced list of ledger entries that includes the sales ledger line, so this module works out which
// ledger each item posts to and how much of that ledger line the items absorb. Pure; used both to
// validate a document (a 422 instead of a failed job) and to render it.
import { AMOUNT_LIMIT, paiseOf } from './wire-decimal.js';

export interface PostingLedgerLine {
  ledger_name: string;
  amount: number;
  is_debit: boolean;
  is_party: boolean;
  bill_allocations: readonly unknown[];
}

export interface PostingInventoryLine {
  amount: number;
  ledger_name?: string | undefined;
  is_debit?: boolean | undefined;
}

export interface InventoryPostingPlan<L extends PostingLedgerLine> {
  /** Per inventory line: the ledger of its accounting allocation ('' for none) and its side. */
  items: { ledger_name: string; is_debit: boolean }[];
  /** Ledger lines left to render as plain ledger entries (absorbed lines removed or reduced). */
  ledgerLines: L[];
}

export type PlanResult<L extends PostingLedgerLine> =
  | { ok: true; plan: InventoryPostingPlan<L> }
  | { ok: false; issues: { path: (string | number)[]; message: string }[] };

// Sums and differences of amounts are worked in whole paise (paiseOf).
function signedPaise(amount: number, isDebit: boolean): number {
  return isDebit ? -paiseOf(amount) : paiseOf(amount);
}

/**
 * `defaultItemsDebit`: the side items take on this kind of voucher when a line does not say (inward
 * purchase → debit, outward sale → credit); when undefined the side is the opposite of the party line.
 */
export function planInventoryPostings<L extends PostingLedgerLine>(
  ledgerEntries: readonly L[],
  inventoryEntries: readonly PostingInventoryLine[],
  defaultItemsDebit: boolean | undefined,
): PlanResult<L> {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const party = ledgerEntries.find((entry) => entry.is_party);
  const sides = inventoryEntries.map((item, index) => {
    const side = item.is_debit ?? defaultItemsDebit ?? (party ? !party.is_debit : undefined);
    if (side === undefined) {
      issues.push({
        path: ['inventory_entries', index, 'is_debit'],
        message: 'cannot tell whether this item comes in or goes out: set is_debit (true for goods received)',
      });
    }
    return side ?? false;
  });
  const items = inventoryEntries.map((item, index) => {
    const isDebit = sides[index] ?? false;
    const ledgerName = item.ledger_name ?? inferItemLedger(ledgerEntries, inventoryEntries, sides, isDebit);
    // Goods on a voucher without ledger lines (an order) post nowhere yet: no ledger is needed.
    if (typeof ledgerName !== 'string' && ledgerEntries.length === 0) return { ledger_name: '', is_debit: isDebit };
    if (typeof ledgerName !== 'string') {
      issues.push({ path: ['inventory_entries', index, 'ledger_name'], message: ledgerName.message });
      return { ledger_name: '', is_debit: isDebit };
    }
    return { ledger_name: ledgerName, is_debit: isDebit };
  });
  if (issues.length > 0) return { ok: false, issues };
  const absorbed = absorb(ledgerEntries, inventoryEntries, items);
  if (absorbed.issues.length > 0) return { ok: false, issues: absorbed.issues };
  return { ok: true, plan: { items, ledgerLines: absorbed.lines } };
}

function candidatesFor<L extends PostingLedgerLine>(ledgerEntries: readonly L[], isDebit: boolean): L[] {
  return ledgerEntries.filter((e) => !e.is_party && e.is_debit === isDebit && e.bill_allocations.length === 0);
}

function inferItemLedger<L extends PostingLedgerLine>(
  ledgerEntries: readonly L[],
  inventoryEntries: readonly PostingInventoryLine[],
  sides: readonly boolean[],
  isDebit: boolean,
): string | { message: string } {
  const candidates = candidatesFor(ledgerEntries, isDebit);
  const [only] = candidates;
  if (only && candidates.length === 1) return only.ledger_name;
  if (candidates.length === 0) {
    return {
      message:
        'names no sales or purchase ledger: set ledger_name on the inventory entry, or include that ledger in ledger_entries',
    };
  }
  const unnamedTotal = inventoryEntries
    .filter((item, i) => item.ledger_name === undefined && sides[i] === isDebit)
    .reduce((sum, item) => sum + paiseOf(item.amount), 0);
  const matching = candidates.filter((e) => paiseOf(e.amount) === unnamedTotal);
  const [match] = matching;
  if (match && matching.length === 1) return match.ledger_name;
  const names = candidates.map((e) => `"${e.ledger_name}"`).join(', ');
  return { message: `is ambiguous: several ledger entries could be its sales or purchase ledger (${names}); set ledger_name` };
}

function absorb<L extends PostingLedgerLine>(
  ledgerEntries: readonly L[],
  inventoryEntries: readonly PostingInventoryLine[],
  items: readonly { ledger_name: string; is_debit: boolean }[],
): { lines: L[]; issues: { path: (string | number)[]; message: string }[] } {
  const lines = ledgerEntries.map((entry) => ({ entry, value: signedPaise(entry.amount, entry.is_debit) }));
  items.forEach((item, index) => {
    const amount = inventoryEntries[index]?.amount ?? 0;
    const target = lines.find(
      (line) =>
        line.entry.ledger_name === item.ledger_name &&
        !line.entry.is_party &&
        line.entry.bill_allocations.length === 0,
    );
    if (target) target.value -= signedPaise(amount, item.is_debit);
  });
  const issues = lines.flatMap(({ value }, index) =>
    Math.abs(value) < AMOUNT_LIMIT * 100
      ? []
      : [{
          path: ['ledger_entries', index, 'amount'],
          message: 'comes to 10,000,000,000,000 or more once goods posted to this ledger from the other side are added, which cannot be carried exactly: check the is_debit of those inventory entries',
        }],
  );
  return {
    issues,
    lines: lines.flatMap(({ entry, value }) => {
      if (value === signedPaise(entry.amount, entry.is_debit)) return [entry];
      if (value === 0) return [];
      return [{ ...entry, amount: Math.abs(value) / 100, is_debit: value < 0 }];
    }),
  };
}
