// Reads the facts the rules need out of a voucher's element tree: ledger entries (with their bill
// allocations), inventory entries (with batches and accounting allocations). Empty scaffolding
// elements that TallyPrime itself exports (`<BILLALLOCATIONS.LIST><NAME/>…`) are skipped.
import { formatAmount, nameKey, parseAmount, parseQuantity, parseRate, stripSystemMark } from '../tally-format.js';
import { children, node, textOf, type XNode } from '../xml/xml-tree.js';

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

function listEntries(voucher: XNode, list: string): LedgerEntryFact[] {
  return children(voucher, list)
    .map(ledgerEntry)
    .filter((e): e is LedgerEntryFact => e !== undefined);
}

/**
 * TallyPrime's own export of an invoice carries every ledger in ALLLEDGERENTRIES.LIST, the item ledgers
 * again under ACCOUNTINGALLOCATIONS.LIST and the party and tax lines again in LEDGERENTRIES.LIST; there
 * ALLLEDGERENTRIES alone is complete (tally_agent LESSONS §18: counting both doubles the sales). Such a
 * voucher is recognised by every item ledger also being an ALLLEDGERENTRIES line.
 */
function allLedgerEntriesComplete(voucher: XNode): boolean {
  const all = listEntries(voucher, 'ALLLEDGERENTRIES.LIST');
  const allocations = inventoryEntries(voucher).flatMap((i) => i.allocations);
  if (all.length === 0 || allocations.length === 0) return false;
  const named = new Set(all.map((e) => nameKey(e.ledgerName)));
  return allocations.every((a) => named.has(nameKey(a.ledgerName)));
}

/** The voucher-level ledger lines (with their bills): ALLLEDGERENTRIES and LEDGERENTRIES, or ALLLEDGERENTRIES alone when it is complete. */
export function ledgerEntries(voucher: XNode): LedgerEntryFact[] {
  const all = listEntries(voucher, 'ALLLEDGERENTRIES.LIST');
  if (allLedgerEntriesComplete(voucher)) return all;
  return [...all, ...listEntries(voucher, 'LEDGERENTRIES.LIST')];
}

/** Every posting once: the ledger lines plus the items' accounting allocations, unless ALLLEDGERENTRIES is complete. */
export function postingEntries(voucher: XNode): LedgerEntryFact[] {
  if (allLedgerEntriesComplete(voucher)) return listEntries(voucher, 'ALLLEDGERENTRIES.LIST');
  return [...ledgerEntries(voucher), ...inventoryEntries(voucher).flatMap((i) => i.allocations)];
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
  return postingEntries(voucher).map((e) => e.ledgerName);
}

/** Signed total per ledger (paise), for closing balances. */
export function postingsByLedger(voucher: XNode): Map<string, number> {
  const totals = new Map<string, number>();
  for (const e of postingEntries(voucher)) totals.set(e.ledgerName, (totals.get(e.ledgerName) ?? 0) + e.amount);
  return totals;
}

/**
 * The masters a voucher names that TallyPrime then locks against deletion for good: its ledgers (party,
 * entries, accounting allocations) and stock items (tally_agent write-exploration-v4, "permanent lock").
 */
export function mastersNamedBy(voucher: XNode): { ledgers: string[]; stockItems: string[] } {
  const party = stripSystemMark(textOf(voucher, 'PARTYLEDGERNAME') ?? '').trim();
  const ledgers = [...voucherLedgerNames(voucher), ...(party ? [party] : [])];
  return { ledgers, stockItems: inventoryEntries(voucher).map((i) => i.stockItemName) };
}

function isPartyEntry(entry: LedgerEntryFact, party: string): boolean {
  const flagged = (textOf(entry.node, 'ISPARTYLEDGER') ?? '').trim().toLowerCase() === 'yes';
  return flagged || (party !== '' && entry.ledgerName.trim().toLowerCase() === party.toLowerCase());
}

/** The item ledgers of an invoice as read-back lines: one per ledger, amounts summed. */
function itemLedgerLines(voucher: XNode): XNode[] {
  const byLedger = new Map<string, { name: string; amount: number; deemed: string | undefined }>();
  for (const a of inventoryEntries(voucher).flatMap((i) => i.allocations)) {
    const key = a.ledgerName.trim().toLowerCase();
    const seen = byLedger.get(key);
    if (seen) seen.amount += a.amount;
    else byLedger.set(key, { name: a.ledgerName, amount: a.amount, deemed: textOf(a.node, 'ISDEEMEDPOSITIVE') });
  }
  return [...byLedger.values()].map((l) =>
    node('ALLLEDGERENTRIES.LIST', '', {}, [
      node('LEDGERNAME', l.name),
      node('ISDEEMEDPOSITIVE', l.deemed ?? (l.amount < 0 ? 'Yes' : 'No')),
      node('AMOUNT', formatAmount(l.amount)),
    ]),
  );
}

/**
 * A voucher's fields as TallyPrime reads them back. An invoice imported with party and tax lines in
 * LEDGERENTRIES.LIST and its sales (or purchase) ledger in each item's ACCOUNTINGALLOCATIONS.LIST reads
 * back every ledger through ALLLEDGERENTRIES.LIST: the party first, then the item ledgers (one line per
 * ledger, summed), then the rest; LEDGERENTRIES.LIST and the allocations under the items stay (Tally-MCP
 * day-book capture of an Invoice Voucher View sale; tally_agent LESSONS §18). A voucher sent with
 * ALLLEDGERENTRIES.LIST reads back as stored.
 */
export function readBackChildren(voucher: XNode): XNode[] {
  const stored = voucher.children;
  if (children(voucher, 'ALLLEDGERENTRIES.LIST').length > 0) return stored;
  const itemLines = itemLedgerLines(voucher);
  const entries = children(voucher, 'LEDGERENTRIES.LIST')
    .map(ledgerEntry)
    .filter((e): e is LedgerEntryFact => e !== undefined);
  if (entries.length === 0 && itemLines.length === 0) return stored;
  const party = stripSystemMark(textOf(voucher, 'PARTYLEDGERNAME') ?? '').trim();
  const asAll = (e: LedgerEntryFact): XNode => ({ ...e.node, tag: 'ALLLEDGERENTRIES.LIST' });
  const lines = [
    ...entries.filter((e) => isPartyEntry(e, party)).map(asAll),
    ...itemLines,
    ...entries.filter((e) => !isPartyEntry(e, party)).map(asAll),
  ];
  // Before the items, as in the capture; else after the last field. LEDGERENTRIES.LIST stays as sent
  // (a `LedgerEntries` fetch still reads the party and tax lines, books-xml.md §3.4).
  const out = [...stored];
  const firstItem = out.findIndex((n) => INVENTORY_LISTS.includes(n.tag.toUpperCase()));
  out.splice(firstItem >= 0 ? firstItem : out.length, 0, ...lines);
  return out;
}
