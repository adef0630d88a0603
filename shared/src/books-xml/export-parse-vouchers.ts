// Vouchers exported by the books (a Voucher collection, or a Day Book's TALLYMESSAGEs) → PulledVoucher
// objects: voucher_date YYYYMMDD, voucher_kind from the type's reserved name (never the display name),
// ledger entries with their side and bill allocations on every kind, inventory with godown and ledger.
// Empty scaffolding (`<BILLALLOCATIONS.LIST><NAME/>…`) is dropped rather than reported as a bill.
// A receipt's or payment's party is read from its lines, not from PARTYLEDGERNAME: live TallyPrime
// answers the cash or bank ledger there and flags both lines ISPARTYLEDGER=Yes (EVIDENCE.md).
import { PulledVoucher } from '../bridge/pulled-books-objects.js';
import type { PulledBillAllocation, PulledInventoryEntry, PulledLedgerEntry, PulledVoucherBill } from '../bridge/pulled-books-objects.js';
import { resolveReservedName, voucherKindFromReservedName } from '../bridge/voucher-kind.js';
import type { VoucherTypeIndex } from './export-parse-masters.js';
import { readExportAnswer, typedText } from './export-parse.js';
import { attributeOf, booksNumberValue, isoFromBooksDate, listOf, textOf } from './xml-text.js';
import type { XmlNode } from './xml-text.js';

export interface VoucherParseOptions {
  /** Voucher types of the company (see voucherTypeIndex); without it every kind is `other`. */
  voucherTypes?: VoucherTypeIndex | undefined;
  /** Inclusive window (ISO or YYYYMMDD): vouchers outside it are dropped (the books can ignore a bound). */
  window?: { fromDate: string; toDate: string } | undefined;
}

const yes = (value: string) => value.trim().toLowerCase() === 'yes';

function magnitude(value: number): string {
  return Math.abs(value).toFixed(2);
}

/** Side of a line: ISDEEMEDPOSITIVE when present (debit = Yes), else the amount's sign (debit negative). */
function sideOf(line: XmlNode, amount: number): boolean {
  const deemed = typedText(line, 'ISDEEMEDPOSITIVE');
  return deemed === '' ? amount < 0 : yes(deemed);
}

function billsOf(line: XmlNode, lineAmount: number, lineDebit: boolean): PulledBillAllocation[] {
  return listOf(line, 'BILLALLOCATIONS.LIST').flatMap((bill) => {
    const name = textOf(bill.NAME);
    const type = typedText(bill, 'BILLTYPE');
    const amountText = typedText(bill, 'AMOUNT');
    if (amountText === '' || (name === '' && type === '')) return [];
    const amount = booksNumberValue(amountText);
    if (Number.isNaN(amount)) return [];
    const period = typedText(bill, 'BILLCREDITPERIOD');
    // The sign of a bill amount follows the sign of its line, whichever convention the line used.
    const sameSide = amount === 0 || lineAmount === 0 || amount < 0 === lineAmount < 0;
    return [{
      ...(name === '' ? {} : { name }),
      bill_type: type || (name === '' ? 'On Account' : 'Agst Ref'),
      amount: magnitude(amount),
      is_debit: sameSide ? lineDebit : !lineDebit,
      ...(period === '' ? {} : { credit_period: period }),
    }];
  });
}

interface LedgerLines {
  entries: PulledLedgerEntry[];
  bills: PulledVoucherBill[];
}

function ledgerLinesOf(voucher: XmlNode, inventory: readonly PulledInventoryEntry[], partyLedger: string): LedgerLines {
  const all = listOf(voucher, 'ALLLEDGERENTRIES.LIST').filter((l) => textOf(l.LEDGERNAME) !== '');
  const lines = all.length > 0 ? all : listOf(voucher, 'LEDGERENTRIES.LIST').filter((l) => textOf(l.LEDGERNAME) !== '');
  const entries: PulledLedgerEntry[] = [];
  const bills: PulledVoucherBill[] = [];
  for (const line of lines) {
    const name = textOf(line.LEDGERNAME);
    const amount = booksNumberValue(typedText(line, 'AMOUNT'));
    const value = Number.isNaN(amount) ? 0 : amount;
    const isDebit = sideOf(line, value);
    const partyFlag = typedText(line, 'ISPARTYLEDGER');
    const allocations = billsOf(line, value, isDebit);
    entries.push({
      ledger_name: name,
      ledger: name,
      amount: magnitude(value),
      is_debit: isDebit,
      is_party: partyFlag === '' ? name === partyLedger : yes(partyFlag),
      bill_allocations: allocations,
    });
    for (const bill of allocations) {
      bills.push({ ledger_name: name, name: bill.name ?? '', bill_type: bill.bill_type, amount: bill.amount, is_debit: bill.is_debit });
    }
  }
  if (all.length === 0) entries.push(...accountingAllocationLines(inventory, entries));
  return { entries, bills };
}

/** Invoice-view imports keep the item ledgers only inside the items: add them back as ledger lines. */
function accountingAllocationLines(inventory: readonly PulledInventoryEntry[], existing: readonly PulledLedgerEntry[]): PulledLedgerEntry[] {
  const totals = new Map<string, number>();
  for (const item of inventory) {
    if (item.ledger_name === undefined) continue;
    const signed = (item.is_debit ? -1 : 1) * Number(item.amount);
    totals.set(item.ledger_name, (totals.get(item.ledger_name) ?? 0) + signed);
  }
  return [...totals]
    .filter(([name]) => !existing.some((e) => e.ledger_name === name))
    .map(([name, total]) => ({ ledger_name: name, ledger: name, amount: magnitude(total), is_debit: total < 0, is_party: false, bill_allocations: [] }));
}

/**
 * The counterparty of a receipt (the credited line) or a payment (the debited line). Live TallyPrime
 * reads back the bank or cash ledger as PARTYLEDGERNAME on these and flags both lines as party lines, so
 * the party is the line on the counterparty's side: the one carrying bills, else the one flagged, else
 * the one PARTYLEDGERNAME names, else the only one there. Undefined when the lines do not say.
 */
function counterpartyOf(entries: readonly PulledLedgerEntry[], kind: string, partyLedger: string): PulledLedgerEntry | undefined {
  if (kind !== 'receipt' && kind !== 'payment') return undefined;
  const side = entries.filter((entry) => entry.is_debit === (kind === 'payment'));
  const pick = (found: PulledLedgerEntry[]) => (found.length === 1 ? found[0] : undefined);
  return (
    pick(side.filter((entry) => entry.bill_allocations.length > 0)) ??
    pick(side.filter((entry) => entry.is_party)) ??
    pick(side.filter((entry) => entry.ledger_name === partyLedger)) ??
    pick(side)
  );
}

/** The party as a caller wrote it: the counterparty line alone marked, and its name as party_ledger. */
function withCounterparty(entries: PulledLedgerEntry[], kind: string, partyLedger: string): { entries: PulledLedgerEntry[]; partyLedger: string } {
  const counterparty = counterpartyOf(entries, kind, partyLedger);
  if (!counterparty) return { entries, partyLedger };
  return {
    entries: entries.map((entry) => ({ ...entry, is_party: entry === counterparty })),
    partyLedger: counterparty.ledger_name,
  };
}

function quantityOf(text: string): { quantity?: number; unit?: string } {
  const match = /^\s*(-?[\d,]+(?:\.\d+)?)\s*(.*?)\s*$/.exec(text);
  if (!match?.[1]) return {};
  const unit = match[2] ?? '';
  return { quantity: Math.abs(Number(match[1].replace(/,/g, ''))), ...(unit === '' ? {} : { unit }) };
}

function inventoryOf(voucher: XmlNode): PulledInventoryEntry[] {
  const lines = [...listOf(voucher, 'ALLINVENTORYENTRIES.LIST'), ...listOf(voucher, 'INVENTORYENTRIES.LIST')];
  return lines
    .filter((line) => textOf(line.STOCKITEMNAME) !== '')
    .map((line) => {
      const amount = booksNumberValue(typedText(line, 'AMOUNT'));
      const value = Number.isNaN(amount) ? 0 : amount;
      const quantity = quantityOf(typedText(line, 'BILLEDQTY') || typedText(line, 'ACTUALQTY'));
      const rate = booksNumberValue(typedText(line, 'RATE'));
      const batch = listOf(line, 'BATCHALLOCATIONS.LIST').find((b) => textOf(b.GODOWNNAME) !== '' || textOf(b.BATCHNAME) !== '');
      const allocation = listOf(line, 'ACCOUNTINGALLOCATIONS.LIST').find((a) => textOf(a.LEDGERNAME) !== '');
      const godown = batch ? textOf(batch.GODOWNNAME) : '';
      const batchName = batch ? textOf(batch.BATCHNAME) : '';
      return {
        stock_item: textOf(line.STOCKITEMNAME),
        ...quantity,
        ...(Number.isNaN(rate) ? {} : { rate: Math.abs(rate) }),
        amount: magnitude(value),
        is_debit: sideOf(line, value),
        ...(godown === '' ? {} : { godown }),
        ...(batchName === '' ? {} : { batch: batchName }),
        ...(allocation ? { ledger_name: textOf(allocation.LEDGERNAME) } : {}),
      };
    });
}

function gstOf(voucher: XmlNode): PulledVoucher['gst'] {
  const gst = {
    party_gstin: typedText(voucher, 'PARTYGSTIN'),
    place_of_supply: typedText(voucher, 'PLACEOFSUPPLY'),
    registration_type: typedText(voucher, 'GSTREGISTRATIONTYPE'),
    state: typedText(voucher, 'STATENAME'),
  };
  const present = Object.entries(gst).filter(([, v]) => v !== '');
  return present.length === 0 ? undefined : Object.fromEntries(present);
}

function toVoucher(voucher: XmlNode, options: VoucherParseOptions): PulledVoucher {
  const date = typedText(voucher, 'DATE');
  const voucherType = textOf(voucher.VOUCHERTYPENAME) || attributeOf(voucher, 'VCHTYPE');
  const reservedName = resolveReservedName(voucherType, options.voucherTypes ?? new Map());
  const kind = voucherKindFromReservedName(reservedName);
  const inventory = inventoryOf(voucher);
  const lines = ledgerLinesOf(voucher, inventory, textOf(voucher.PARTYLEDGERNAME));
  const { entries, partyLedger } = withCounterparty(lines.entries, kind, textOf(voucher.PARTYLEDGERNAME));
  const bills = lines.bills;
  const gst = gstOf(voucher);
  const remoteId = attributeOf(voucher, 'REMOTEID');
  const masterId = typedText(voucher, 'MASTERID');
  const referenceDate = isoFromBooksDate(typedText(voucher, 'REFERENCEDATE'));
  return PulledVoucher.parse({
    guid: typedText(voucher, 'GUID') || remoteId,
    master_id: masterId === '' ? null : masterId,
    alter_id: typedText(voucher, 'ALTERID') || '0',
    remote_id: remoteId === '' ? null : remoteId,
    voucher_kind: kind,
    voucher_type: voucherType,
    reserved_name: reservedName,
    voucher_number: textOf(voucher.VOUCHERNUMBER),
    voucher_date: date,
    date: isoFromBooksDate(date),
    party_ledger: partyLedger,
    narration: textOf(voucher.NARRATION),
    reference: textOf(voucher.REFERENCE),
    ...(referenceDate === '' ? {} : { reference_date: referenceDate }),
    is_cancelled: yes(typedText(voucher, 'ISCANCELLED')),
    is_optional: yes(typedText(voucher, 'ISOPTIONAL')),
    view: typedText(voucher, 'PERSISTEDVIEW') || attributeOf(voucher, 'OBJVIEW'),
    ...(gst ? { gst } : {}),
    ledger_entries: entries,
    inventory_entries: inventory,
    bill_allocations: bills,
  });
}

/** Parses a voucher export answer (collection or Day Book). */
export function parseVoucherExport(xml: string, options: VoucherParseOptions = {}): PulledVoucher[] {
  const from = options.window?.fromDate.replace(/-/g, '');
  const to = options.window?.toDate.replace(/-/g, '');
  return readExportAnswer(xml)
    .objects('VOUCHER')
    .map((voucher) => toVoucher(voucher, options))
    .filter((v) => (from === undefined || v.voucher_date >= from) && (to === undefined || v.voucher_date <= to));
}

