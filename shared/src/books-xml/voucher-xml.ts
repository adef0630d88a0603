// Renders a voucher document as a TallyPrime import request (books-xml.md §3): accounting view for
// money-only vouchers, invoice view when goods are on it. Sign convention: a debit is
// ISDEEMEDPOSITIVE=Yes with a negative AMOUNT, a credit is No with a positive one. REMOTEID is the
// caller-stable key that makes a resend of the same voucher an alteration instead of a second voucher.
// Cancelling and deleting a voucher take no document: see voucher-lifecycle-xml.ts. Each shape and its
// live evidence is listed in EVIDENCE.md beside this file.
import type { z } from 'zod';
import { planInventoryPostings } from '../bridge/inventory-postings.js';
import { defaultItemsDebitForKind, VoucherDocumentIn } from '../bridge/voucher-document.js';
import type { BillAllocationIn, InventoryEntryIn, LedgerEntryIn } from '../bridge/voucher-document.js';
import type { VoucherKind } from '../bridge/voucher-kind.js';
import { wrapImportRequest } from './import-envelope.js';
import { booksAmount, booksDate, booksNumber, element, escapeXmlAttribute } from './xml-text.js';

/** Create books a voucher; Alter re-states one the service created, addressed by that create's REMOTEID. */
export type VoucherImportAction = 'Create' | 'Alter';

export interface VoucherRenderOptions {
  /** Type name to book under; defaults to the document's voucher_type. */
  voucherTypeName?: string | undefined;
  /**
   * Stable key of this write (e.g. the job id): a retried import with the same key alters, never
   * duplicates. For an Alter: the REMOTEID the voucher was created with (the create job's id).
   */
  remoteId?: string | undefined;
  action?: VoucherImportAction | undefined;
  /** Kind of voucher, for the side goods take when a line does not say. */
  voucherKind?: VoucherKind | undefined;
}

export interface VoucherImportOptions extends VoucherRenderOptions {
  companyName: string;
}

/** A document the renderer accepts: the validated document, or raw input that validates. */
export type VoucherDocumentInput = z.input<typeof VoucherDocumentIn>;

export const ACCOUNTING_VIEW = 'Accounting Voucher View';
export const INVOICE_VIEW = 'Invoice Voucher View';

/** Thrown when a document cannot be rendered (it fails validation or its goods cannot be posted). */
export class VoucherRenderError extends Error {
  constructor(
    message: string,
    readonly issues: { field: string; message: string }[],
  ) {
    super(message);
    this.name = 'VoucherRenderError';
  }
}

/** One voucher as a complete import request. */
export function renderVoucherImport(document: VoucherDocumentInput, options: VoucherImportOptions): string {
  return wrapImportRequest('Vouchers', options.companyName, [renderVoucherElement(document, options)]);
}

/** Several vouchers of one company in one import request (the books count them together). */
export function renderVoucherImportBatch(
  companyName: string,
  vouchers: readonly { document: VoucherDocumentInput; options?: VoucherRenderOptions }[],
): string {
  return wrapImportRequest('Vouchers', companyName, vouchers.map((v) => renderVoucherElement(v.document, v.options ?? {})));
}

/**
 * renderVoucherImport for a document that is already VoucherDocumentIn's output (a body its schema
 * just parsed), so it is not parsed again; anything else must go through renderVoucherImport.
 */
export function renderParsedVoucherImport(document: VoucherDocumentIn, options: VoucherImportOptions): string {
  return wrapImportRequest('Vouchers', options.companyName, [renderParsedVoucherElement(document, options)]);
}

/** The `<VOUCHER …>` element alone. */
export function renderVoucherElement(input: VoucherDocumentInput, options: VoucherRenderOptions): string {
  const parsed = VoucherDocumentIn.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ field: i.path.map(String).join('.'), message: i.message }));
    throw new VoucherRenderError(`voucher document is invalid: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`, issues);
  }
  return renderParsedVoucherElement(parsed.data, options);
}

function renderParsedVoucherElement(doc: VoucherDocumentIn, options: VoucherRenderOptions): string {
  const action = options.action ?? 'Create';
  const typeName = options.voucherTypeName ?? doc.voucher_type;
  if (action === 'Alter' && options.remoteId === undefined) {
    throw new VoucherRenderError('Alter needs the REMOTEID the voucher was created with', [{ field: 'remoteId', message: 'required' }]);
  }
  const invoice = doc.inventory_entries.length > 0;
  const view = invoice ? INVOICE_VIEW : ACCOUNTING_VIEW;
  // An alteration is sent as ACTION="Create" under the REMOTEID the voucher was created with: licensed
  // TallyPrime 7.1 answers CREATED=0 ALTERED=1 and replaces the voucher in place, same GUID, entries
  // replaced not merged. ACTION="Alter" keyed by REMOTEID, GUID or MASTERID, and a full-body Alter by
  // TAGNAME="Master ID", were each seen to book a duplicate instead (EVIDENCE.md).
  const remote = options.remoteId === undefined ? '' : ` REMOTEID="${escapeXmlAttribute(options.remoteId)}"`;
  const attributes = `${remote} VCHTYPE="${escapeXmlAttribute(typeName)}" ACTION="Create" OBJVIEW="${view}"`;
  const header = renderHeader(doc, typeName, view);
  const body = invoice ? renderInvoiceBody(doc, options) : doc.ledger_entries.map((e) => renderLedgerEntry('ALLLEDGERENTRIES.LIST', e)).join('');
  const narration = doc.narration === undefined || doc.narration === '' ? '' : element('NARRATION', doc.narration);
  return `<VOUCHER${attributes}>${header}${narration}${body}</VOUCHER>`;
}

function renderHeader(doc: VoucherDocumentIn, typeName: string, view: string): string {
  const date = booksDate(doc.date);
  const parts = [
    element('DATE', date),
    element('EFFECTIVEDATE', date),
    element('VOUCHERTYPENAME', typeName),
    element('VOUCHERNUMBER', doc.voucher_number),
    // A journal or contra without a party leaves PARTYLEDGERNAME out: the books keep a voucher's party
    // in its lines, and the emulator's journals (booked through the import rules) carry none either.
    doc.party_ledger === undefined ? '' : element('PARTYLEDGERNAME', doc.party_ledger),
    element('PERSISTEDVIEW', view),
    element('ISINVOICE', view === INVOICE_VIEW ? 'Yes' : 'No'),
    doc.reference === undefined || doc.reference === '' ? '' : element('REFERENCE', doc.reference),
    doc.reference_date === undefined ? '' : element('REFERENCEDATE', booksDate(doc.reference_date)),
    doc.gst?.party_gstin === undefined ? '' : element('PARTYGSTIN', doc.gst.party_gstin),
    doc.gst?.place_of_supply === undefined ? '' : element('PLACEOFSUPPLY', doc.gst.place_of_supply),
    doc.gst?.registration_type === undefined ? '' : element('GSTREGISTRATIONTYPE', doc.gst.registration_type),
    doc.gst?.state === undefined ? '' : element('STATENAME', doc.gst.state),
  ];
  return parts.join('');
}

function renderInvoiceBody(doc: VoucherDocumentIn, options: VoucherRenderOptions): string {
  const kindSide = options.voucherKind === undefined ? undefined : defaultItemsDebitForKind(options.voucherKind);
  // Without a kind or a party line nothing says which way the goods move; an order (the only kind that
  // carries goods without ledger lines) is outward unless a line says otherwise.
  const defaultSide = kindSide ?? (doc.ledger_entries.some((e) => e.is_party) ? undefined : false);
  const planned = planInventoryPostings(doc.ledger_entries, doc.inventory_entries, defaultSide);
  if (!planned.ok) {
    const issues = planned.issues.map((i) => ({ field: i.path.map(String).join('.'), message: i.message }));
    throw new VoucherRenderError(`cannot post the goods: ${issues.map((i) => `${i.field} ${i.message}`).join('; ')}`, issues);
  }
  const ledgers = planned.plan.ledgerLines.map((e) => renderLedgerEntry('LEDGERENTRIES.LIST', e)).join('');
  const items = doc.inventory_entries
    .map((item, index) => {
      const posting = planned.plan.items[index] ?? { ledger_name: '', is_debit: false };
      return renderInventoryEntry(item, posting);
    })
    .join('');
  return ledgers + items;
}

function renderLedgerEntry(tag: string, entry: LedgerEntryIn): string {
  const bills = entry.bill_allocations.map((bill) => renderBillAllocation(bill, entry.is_debit)).join('');
  return (
    `<${tag}>` +
    element('LEDGERNAME', entry.ledger_name) +
    element('ISDEEMEDPOSITIVE', entry.is_debit ? 'Yes' : 'No') +
    element('ISPARTYLEDGER', entry.is_party ? 'Yes' : 'No') +
    element('AMOUNT', booksAmount(entry.amount, entry.is_debit)) +
    bills +
    `</${tag}>`
  );
}

function renderBillAllocation(bill: BillAllocationIn, isDebit: boolean): string {
  return (
    '<BILLALLOCATIONS.LIST>' +
    (bill.name === undefined ? '' : element('NAME', bill.name)) +
    element('BILLTYPE', bill.bill_type) +
    (bill.credit_period === undefined ? '' : element('BILLCREDITPERIOD', bill.credit_period)) +
    element('AMOUNT', booksAmount(bill.amount, bill.is_debit ?? isDebit)) +
    '</BILLALLOCATIONS.LIST>'
  );
}

function quantityText(quantity: number, unit: string | undefined): string {
  return ` ${booksNumber(quantity)}${unit === undefined ? '' : ` ${unit}`}`;
}

function renderInventoryEntry(item: InventoryEntryIn, posting: { ledger_name: string; is_debit: boolean }): string {
  const rate = item.rate ?? item.amount / item.quantity;
  const amount = booksAmount(item.amount, posting.is_debit);
  const quantity = quantityText(item.quantity, item.unit);
  const batch =
    item.godown === undefined && item.batch === undefined
      ? ''
      : '<BATCHALLOCATIONS.LIST>' +
        element('GODOWNNAME', item.godown ?? 'Main Location') +
        element('BATCHNAME', item.batch ?? 'Primary Batch') +
        element('AMOUNT', amount) +
        element('ACTUALQTY', quantity) +
        element('BILLEDQTY', quantity) +
        '</BATCHALLOCATIONS.LIST>';
  return (
    '<ALLINVENTORYENTRIES.LIST>' +
    element('STOCKITEMNAME', item.stock_item) +
    element('ISDEEMEDPOSITIVE', posting.is_debit ? 'Yes' : 'No') +
    element('RATE', `${booksNumber(rate)}${item.unit === undefined ? '' : `/${item.unit}`}`) +
    element('AMOUNT', amount) +
    element('ACTUALQTY', quantity) +
    element('BILLEDQTY', quantity) +
    batch +
    (posting.ledger_name === ''
      ? ''
      : '<ACCOUNTINGALLOCATIONS.LIST>' +
        element('LEDGERNAME', posting.ledger_name) +
        element('ISDEEMEDPOSITIVE', posting.is_debit ? 'Yes' : 'No') +
        element('AMOUNT', amount) +
        '</ACCOUNTINGALLOCATIONS.LIST>') +
    '</ALLINVENTORYENTRIES.LIST>'
  );
}
