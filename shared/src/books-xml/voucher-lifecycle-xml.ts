// Cancelling and deleting a voucher that is in the books. Both address it the way live TallyPrime was
// seen to honour (EVIDENCE.md): the attributes TAGNAME="Master ID" and TAGVALUE (its MASTERID), with
// VCHTYPE and a DATE attribute written d-Mmm-yyyy (a YYYYMMDD attribute finds nothing). A cancel
// carries a NARRATION (an empty cancel body is refused: "Cannot process 'empty' object"); the books keep
// the voucher with ISCANCELLED=Yes and its entries stripped, and count it under ALTERED. A delete goes
// with an empty body, the shape recorded removing a voucher (DELETED=1). Neither needs the document.
import { wrapImportRequest } from './import-envelope.js';
import { element, escapeXmlAttribute } from './xml-text.js';

export type VoucherRemovalAction = 'Cancel' | 'Delete';

export interface VoucherTarget {
  /** The voucher's MASTERID in the books (the number its GUID ends with, in hex). */
  masterId: number;
  /** Its date in the books now, ISO `YYYY-MM-DD` or `YYYYMMDD`: the books look the voucher up on it. */
  date: string;
  /** Its voucher type's name in the books. */
  voucherTypeName: string;
}

export interface VoucherRemovalOptions extends VoucherTarget {
  companyName: string;
  action: VoucherRemovalAction;
  /** Narration the cancelled voucher keeps; a cancel needs one (defaults to a short note). */
  narration?: string | undefined;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** `2026-04-02` or `20260402` → `2-Apr-2026`, the form the DATE attribute of TAGNAME addressing takes. */
export function tagDate(date: string): string {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(date);
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || month === undefined || Number(match[3]) < 1 || Number(match[3]) > 31) throw new Error(`not a date: ${date}`);
  return `${Number(match[3])}-${month}-${match[1]}`;
}

/** The `<VOUCHER …>` element of a cancel or delete. */
export function renderVoucherRemovalElement(options: Omit<VoucherRemovalOptions, 'companyName'>): string {
  if (!Number.isSafeInteger(options.masterId) || options.masterId <= 0) throw new Error(`not a master id: ${options.masterId}`);
  if (options.voucherTypeName === '') throw new Error('voucherTypeName is required: the books look the voucher up by type and date');
  const attributes =
    ` DATE="${tagDate(options.date)}" TAGNAME="Master ID" TAGVALUE="${options.masterId}"` +
    ` VCHTYPE="${escapeXmlAttribute(options.voucherTypeName)}" ACTION="${options.action}"`;
  const body = options.action === 'Cancel' ? element('NARRATION', options.narration || 'Cancelled') : '';
  return `<VOUCHER${attributes}>${body}</VOUCHER>`;
}

/** A cancel or delete as a complete import request. */
export function renderVoucherRemovalImport(options: VoucherRemovalOptions): string {
  const { companyName, ...target } = options;
  return wrapImportRequest('Vouchers', companyName, [renderVoucherRemovalElement(target)]);
}
