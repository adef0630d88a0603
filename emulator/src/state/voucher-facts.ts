// Reads the facts the rules need out of a voucher's element tree: ledger entries (with their bill
// allocations), inventory entries (with batches and accounting allocations). Empty scaffolding
// elements that TallyPrime itself exports (`<BILLALLOCATIONS.LIST><NAME/>…`) are skipped.
import { parseAmount, parseQuantity, parseRate, stripSystemMark } from '../tally-format.js';
import { children, textOf, type XNode } from '../xml/xml-tree.js';

export const LEDGER_LISTS = ['ALLLEDGERENTRIES.LIST', 'LEDGERENTRIES.LIST'];
export const INVENTORY_LISTS = [
  'ALLINVENTORYENTRIES.LIST',
  'INVENTORYENTRIES.LIST',
  'INVENTORYENTRIESIN.LIST',
  'INVENTORYENTRIESOUT.LIST',
];

export interface BillFact {
  node: XNode;
  name: string;
  billType: string;
  amount: number | undefined;
}

export interface LedgerEntryFact {
  node: XNode;
  ledgerName: string;
  amount: number;
  bills: BillFact[];
}

export interface BatchFact {
  node: XNode;
  godownName: string;
  destinationGodownName: string;
}

export interface InventoryEntryFact {
  node: XNode;
  stockItemName: string;
  amount: number;
  units: string[];
  batches: BatchFact[];
  allocations: LedgerEntryFact[];
}

function billFacts(entry: XNode): BillFact[] {
  return children(entry, 'BILLALLOCATIONS.LIST')
    .map((node) => ({
      node,
      name: (textOf(node, 'NAME') ?? '').trim(),
      billType: stripSystemMark(textOf(node, 'BILLTYPE') ?? '').trim(),
      amount: parseAmount(textOf(node, 'AMOUNT')),
    }))
    .filter((bill) => bill.name !== '' || bill.billType !== '' || bill.amount !== undefined);
}

function ledgerEntry(node: XNode): LedgerEntryFact | undefined {
  const ledgerName = textOf(node, 'LEDGERNAME') ?? '';
  if (ledgerName.trim() === '') return undefined;
  return { node, ledgerName, amount: parseAmount(textOf(node, 'AMOUNT')) ?? 0, bills: billFacts(node) };
}

export function ledgerEntries(voucher: XNode): LedgerEntryFact[] {
  const out: LedgerEntryFact[] = [];
  for (const list of LEDGER_LISTS) {
    for (const node of children(voucher, list)) {
      const entry = ledgerEntry(node);
      if (entry) out.push(entry);
    }
  }
  return out;
}

export function inventoryEntries(voucher: XNode): InventoryEntryFact[] {
  const out: InventoryEntryFact[] = [];
  for (const list of INVENTORY_LISTS) {
    for (const node of children(voucher, list)) {
      const stockItemName = textOf(node, 'STOCKITEMNAME') ?? '';
      if (stockItemName.trim() === '') continue;
      const units = new Set<string>();
      for (const tag of ['ACTUALQTY', 'BILLEDQTY']) {
        const unit = parseQuantity(textOf(node, tag))?.unit;
        if (unit) units.add(unit);
      }
      const rateUnit = parseRate(textOf(node, 'RATE'))?.unit;
      if (rateUnit) units.add(rateUnit);
      const batches = children(node, 'BATCHALLOCATIONS.LIST').map((batch) => ({
        node: batch,
        godownName: (textOf(batch, 'GODOWNNAME') ?? '').trim(),
        destinationGodownName: (textOf(batch, 'DESTINATIONGODOWNNAME') ?? '').trim(),
      }));
      const allocations = children(node, 'ACCOUNTINGALLOCATIONS.LIST')
        .map(ledgerEntry)
        .filter((e): e is LedgerEntryFact => e !== undefined);
      out.push({ node, stockItemName, amount: parseAmount(textOf(node, 'AMOUNT')) ?? 0, units: [...units], batches, allocations });
    }
  }
  return out;
}

/** Every ledger a voucher posts to, including accounting allocations under inventory lines. */
export function voucherLedgerNames(voucher: XNode): string[] {
  const names = ledgerEntries(voucher).map((e) => e.ledgerName);
  for (const item of inventoryEntries(voucher)) for (const a of item.allocations) names.push(a.ledgerName);
  return names;
}

/** Signed total per ledger (paise), for closing balances. */
export function postingsByLedger(voucher: XNode): Map<string, number> {
  const totals = new Map<string, number>();
  const add = (e: LedgerEntryFact) => totals.set(e.ledgerName, (totals.get(e.ledgerName) ?? 0) + e.amount);
  ledgerEntries(voucher).forEach(add);
  for (const item of inventoryEntries(voucher)) item.allocations.forEach(add);
  return totals;
}
