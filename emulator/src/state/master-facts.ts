// Reads facts out of a master's element tree: its names (primary + aliases, from LANGUAGENAME.LIST or
// NAME), a ledger's opening bills, a voucher type's numbering series.
import { parseAmount, parseLogical, stripSystemMark } from '../tally-format.js';
import { attr, child, children, textOf, type XNode } from '../xml/xml-tree.js';
import type { BillRow, MasterRecord, NumberingSeries } from './records.js';

/**
 * Primary name and aliases as sent, in every shape integrators send (see emulator/evidence/imports.md):
 * `LANGUAGENAME.LIST/NAME.LIST` (the 1033 block, else the first), a bare `NAME.LIST` directly under the
 * master (with or without TYPE="String"), else a lone `<NAME>`. The first NAME is the primary name,
 * further NAMEs are aliases.
 */
export function namesFromTree(tree: XNode): string[] {
  return sentNames(tree)?.names ?? [];
}

/** The names sent and whether they came as a list (a list replaces the aliases; a lone NAME keeps them). */
export function sentNames(tree: XNode): { names: string[]; listed: boolean } | undefined {
  const blocks = children(tree, 'LANGUAGENAME.LIST');
  const english = blocks.find((b) => (textOf(b, 'LANGUAGEID') ?? '').trim() === '1033') ?? blocks[0];
  for (const list of [child(english, 'NAME.LIST'), child(tree, 'NAME.LIST')]) {
    const listed = children(list, 'NAME')
      .map((n) => n.text)
      .filter((n) => n.trim() !== '');
    if (listed.length > 0) return { names: listed, listed: true };
  }
  const inner = textOf(tree, 'NAME');
  return inner !== undefined && inner.trim() !== '' ? { names: [inner], listed: false } : undefined;
}

export function ledgerOpeningBills(master: MasterRecord): BillRow[] {
  if (master.type !== 'LEDGER') return [];
  return children(master.tree, 'BILLALLOCATIONS.LIST')
    .map((node) => ({
      ledgerName: master.name,
      name: (textOf(node, 'NAME') ?? '').trim(),
      billType: parseLogical(textOf(node, 'ISADVANCE')) ? 'Advance' : 'Opening',
      amount: parseAmount(textOf(node, 'OPENINGBALANCE')) ?? 0,
      date: (textOf(node, 'BILLDATE') ?? '').trim(),
    }))
    .filter((bill) => bill.name !== '');
}

export const NUMBERING_METHODS = ['Manual', 'Automatic (Manual Override)', 'Automatic', 'Multi-user Auto', 'None'];

function canonicalMethod(value: string | undefined, fallback: string): string {
  const wanted = stripSystemMark(value ?? '').trim().toLowerCase();
  return NUMBERING_METHODS.find((m) => m.toLowerCase() === wanted) ?? fallback;
}

/**
 * A voucher type's numbering series. The series list is authoritative (bridge master rule 6); a type
 * sent with only the top-level NUMBERINGMETHOD/PREVENTDUPLICATES gets one `Default` series from them.
 */
export function numberingSeries(tree: XNode): NumberingSeries[] {
  const listed = children(tree, 'VOUCHERNUMBERSERIES.LIST').filter((s) => (textOf(s, 'NAME') ?? '').trim() !== '');
  if (listed.length > 0) {
    return listed.map((s, index) => ({
      name: (textOf(s, 'NAME') ?? '').trim(),
      method: canonicalMethod(textOf(s, 'NUMBERINGMETHOD'), 'Automatic (Manual Override)'),
      subMethod: stripSystemMark(textOf(s, 'NUMBERINGSUBMETHOD') ?? '').trim() || 'Default',
      preventDuplicates: parseLogical(textOf(s, 'PREVENTDUPLICATES')) ?? false,
      isDefault: parseLogical(textOf(s, 'ISDEFAULT')) ?? index === 0,
    }));
  }
  return [
    {
      name: 'Default',
      method: canonicalMethod(textOf(tree, 'NUMBERINGMETHOD'), 'Automatic (Manual Override)'),
      subMethod: stripSystemMark(textOf(tree, 'NUMBERINGSUBMETHOD') ?? '').trim() || 'Default',
      preventDuplicates: parseLogical(textOf(tree, 'PREVENTDUPLICATES')) ?? false,
      isDefault: true,
    },
  ];
}

export function parentName(tree: XNode): string {
  return stripSystemMark(textOf(tree, 'PARENT') ?? '').trim();
}

export function objectName(tree: XNode): string {
  return attr(tree, 'NAME') ?? '';
}

/** The built-in order types: an order records what is due, it is not yet a posting (no stock, no ledger moves). */
const ORDER_TYPES = new Set(['sales order', 'purchase order', 'job work in order', 'job work out order']);

/** A voucher type and the types it derives from (PARENT), up to the built-in one (which has a reserved name). */
export function voucherTypeChain(findVoucherType: (name: string) => MasterRecord | undefined, voucherType: MasterRecord | undefined): MasterRecord[] {
  const chain: MasterRecord[] = [];
  for (let current = voucherType; current && !chain.includes(current); current = current.reservedName ? undefined : findVoucherType(parentName(current.tree))) {
    chain.push(current);
  }
  return chain;
}

/** Whether vouchers of this type are orders: the built-in type it is or derives from is an order type. */
export function isOrderType(findVoucherType: (name: string) => MasterRecord | undefined, typeName: string): boolean {
  const builtIn = voucherTypeChain(findVoucherType, findVoucherType(typeName)).at(-1);
  return builtIn?.reservedName ? ORDER_TYPES.has(builtIn.reservedName.toLowerCase()) : false;
}
