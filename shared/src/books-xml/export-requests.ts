// Export requests the connector sends to the books: Collection exports with inline TDL (books-xml.md §1.6),
// the company list with its alteration high-water marks (§1.8, §5.3), masters and vouchers changed since an
// alter id, GUID lists for the deletion diff, and the voucher lookup behind "did my import land?". Only
// plain TDL is used (TYPE, FETCH, FILTER + SYSTEM Formulae): `$$` calls on names with spaces, unknown
// collection types and non-existent fields can hang TallyPrime behind a modal dialog.
import type { MasterType } from '../bridge/master-document.js';
import { MASTER_TDL_TYPE } from './master-tags.js';
import { escapeXmlAttribute, escapeXmlText } from './xml-text.js';

export interface CollectionRequest {
  /** Collection name; also the request's ID (the books require them equal). */
  name: string;
  /** TDL object type, e.g. Voucher, Ledger, Company. */
  type: string;
  fetch: readonly string[];
  /** SYSTEM Formulae the collection filters on (all must hold). */
  filters?: readonly { name: string; formula: string }[];
  companyName?: string | undefined;
  /** Period the books load (ISO or YYYYMMDD). Vouchers outside it are not seen, whatever the filters say. */
  fromDate?: string | undefined;
  toDate?: string | undefined;
}

function compactDate(date: string): string {
  const compact = date.replace(/-/g, '');
  if (!/^\d{8}$/.test(compact)) throw new Error(`not a date: ${date}`);
  return compact;
}

/** A Collection export with its TDL inline. */
export function collectionExportRequest(request: CollectionRequest): string {
  const variables = [
    '<SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>',
    request.companyName === undefined ? '' : `<SVCURRENTCOMPANY>${escapeXmlText(request.companyName)}</SVCURRENTCOMPANY>`,
    request.fromDate === undefined ? '' : `<SVFROMDATE TYPE="Date">${compactDate(request.fromDate)}</SVFROMDATE>`,
    request.toDate === undefined ? '' : `<SVTODATE TYPE="Date">${compactDate(request.toDate)}</SVTODATE>`,
  ].join('');
  const filters = request.filters ?? [];
  const filterElement = filters.length === 0 ? '' : `<FILTER>${filters.map((f) => f.name).join(',')}</FILTER>`;
  const formulae = filters
    .map((f) => `<SYSTEM TYPE="Formulae" NAME="${escapeXmlAttribute(f.name)}">${escapeXmlText(f.formula)}</SYSTEM>`)
    .join('');
  return (
    '<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Collection</TYPE>' +
    `<ID>${escapeXmlText(request.name)}</ID></HEADER><BODY><DESC><STATICVARIABLES>${variables}</STATICVARIABLES>` +
    `<TDL><TDLMESSAGE><COLLECTION NAME="${escapeXmlAttribute(request.name)}" ISMODIFY="No"><TYPE>${request.type}</TYPE>` +
    `<FETCH>${request.fetch.join(', ')}</FETCH>${filterElement}</COLLECTION>${formulae}</TDLMESSAGE></TDL>` +
    '</DESC></BODY></ENVELOPE>'
  );
}

const COMPANY_FETCH = ['Name', 'Guid', 'AltMstId', 'AltVchId', 'BooksFrom', 'StartingFrom', 'EndingAt', 'LastVoucherDate'];

/** Every company loaded in the books (whatever company is active), with AltMstId/AltVchId. */
export function companyListRequest(): string {
  return collectionExportRequest({ name: 'LedgerwireCompanies', type: 'Company', fetch: COMPANY_FETCH });
}

/**
 * The cheap sync probe: one company's AltMstId/AltVchId. When neither moved since the last sync there is
 * nothing to export. An unknown company name answers zero rows (not an error), which means "not open".
 */
export function companyProbeRequest(companyName: string): string {
  return collectionExportRequest({
    name: 'LedgerwireCompanyProbe',
    type: 'Company',
    fetch: COMPANY_FETCH,
    companyName,
    filters: [{ name: 'LwIsThisCompany', formula: '$$IsEqual:$Name:##SVCurrentCompany' }],
  });
}

const IDENTITY_FETCH = ['Name', 'Guid', 'MasterId', 'AlterId', 'LanguageName.*'];

/** Fields fetched per master type (the contract's fields; none the object type lacks). */
export const MASTER_FETCH: Readonly<Record<MasterType, readonly string[]>> = {
  group: ['Parent', 'IsSubLedger', 'IsDeemedPositive', 'IsRevenue'],
  ledger: ['Parent', 'CurrencyName', 'OpeningBalance', 'PartyGSTIN', 'GSTRegistrationType', 'LedgerMobile', 'Email', 'IsBillWiseOn', 'LedGSTRegDetails.*'],
  currency: ['MailingName', 'OriginalName', 'ExpandedSymbol', 'ISOCurrencyCode', 'DecimalPlaces'],
  unit: ['IsSimpleUnit', 'DecimalPlaces', 'BaseUnits', 'AdditionalUnits', 'Conversion', 'OriginalName'],
  godown: ['Parent'],
  stock_group: ['Parent', 'BaseUnits', 'IsBatchWiseOn', 'ClosingBalance', 'ClosingValue'],
  stock_category: ['Parent'],
  stock_item: ['Parent', 'Category', 'BaseUnits', 'OpeningBalance', 'ClosingBalance', 'ClosingValue', 'GSTApplicable'],
  voucher_type: ['Parent', 'NumberingMethod', 'IsActive', 'AffectsStock', 'VoucherNumberSeries.*'],
};

function sinceFilter(sinceAlterId: number | undefined): { name: string; formula: string }[] {
  if (sinceAlterId === undefined || sinceAlterId <= 0) return [];
  if (!Number.isSafeInteger(sinceAlterId)) throw new Error(`sinceAlterId must be a whole number: ${sinceAlterId}`);
  return [{ name: 'LwChanged', formula: `$AlterID > ${sinceAlterId}` }];
}

/** Masters of one type altered after `sinceAlterId` (all of them when 0 or left out). */
export function mastersChangedRequest(type: MasterType, options: { companyName: string; sinceAlterId?: number | undefined }): string {
  return collectionExportRequest({
    name: `LedgerwireMasters${MASTER_TDL_TYPE[type]}`,
    type: MASTER_TDL_TYPE[type],
    fetch: [...IDENTITY_FETCH, ...MASTER_FETCH[type]],
    companyName: options.companyName,
    filters: sinceFilter(options.sinceAlterId),
  });
}

/** GUID and AlterID of every master of a type: the slow-cadence deletion diff. */
export function masterGuidsRequest(type: MasterType, options: { companyName: string }): string {
  return collectionExportRequest({
    name: `LedgerwireGuids${MASTER_TDL_TYPE[type]}`,
    type: MASTER_TDL_TYPE[type],
    fetch: ['Name', 'Guid', 'AlterId'],
    companyName: options.companyName,
  });
}

/**
 * What a voucher export asks for. An invoice-view voucher keeps its party and tax lines in
 * LEDGERENTRIES.LIST, not ALLLEDGERENTRIES.LIST (see books-xml.md §3.4), so both lists are fetched: without
 * `LedgerEntries` a pulled invoice would lose its party line. The parser reads ALLLEDGERENTRIES when the
 * books send it and LEDGERENTRIES otherwise, so a voucher whose lines come in both is not counted twice.
 */
export const VOUCHER_FETCH = [
  'Date', 'Guid', 'MasterId', 'AlterId', 'VoucherTypeName', 'VoucherNumber', 'PartyLedgerName', 'Narration', 'Reference',
  'ReferenceDate', 'IsCancelled', 'IsOptional', 'PersistedView', 'PartyGSTIN', 'PlaceOfSupply', 'GSTRegistrationType',
  'StateName', 'AllLedgerEntries.*', 'LedgerEntries.*', 'AllInventoryEntries.*',
] as const;

const DATE_WINDOW = { name: 'LwInWindow', formula: '$Date >= ##SVFromDate AND $Date <= ##SVToDate' };

export interface VoucherWindow {
  companyName: string;
  /** Inclusive window (ISO or YYYYMMDD); the books load this period and the filter bounds it again. */
  fromDate: string;
  toDate: string;
  sinceAlterId?: number | undefined;
}

/**
 * Vouchers dated in the window and altered after `sinceAlterId`, with their ledger entries, bill
 * allocations and inventory. The date filter repeats the period because the books were seen to drop a
 * period bound; the parser also drops vouchers outside the window.
 */
export function vouchersChangedRequest(window: VoucherWindow): string {
  return collectionExportRequest({
    name: 'LedgerwireVouchers',
    type: 'Voucher',
    fetch: VOUCHER_FETCH,
    companyName: window.companyName,
    fromDate: window.fromDate,
    toDate: window.toDate,
    filters: [DATE_WINDOW, ...sinceFilter(window.sinceAlterId)],
  });
}

/** GUID, date and AlterID of every voucher in a window: the deletion diff. */
export function voucherGuidsRequest(window: Omit<VoucherWindow, 'sinceAlterId'>): string {
  return collectionExportRequest({
    name: 'LedgerwireVoucherGuids',
    type: 'Voucher',
    fetch: ['Date', 'Guid', 'AlterId', 'VoucherTypeName'],
    companyName: window.companyName,
    fromDate: window.fromDate,
    toDate: window.toDate,
    filters: [DATE_WINDOW],
  });
}

function quoted(value: string): string {
  if (/["\r\n]/.test(value)) throw new Error('a lookup key cannot contain quotes or line breaks');
  return `"${value}"`;
}

/**
 * "Did my import land?": the vouchers of one date with the given GUID, or with the given type and number.
 * The books read back their own REMOTEID (the GUID), not the key a client sent, so a client key cannot be
 * looked up; a resend with the same REMOTEID is the safe retry (it alters instead of booking twice). The
 * date is needed because the books only see vouchers in the loaded period.
 */
export function voucherLookupRequest(options: {
  companyName: string;
  date: string;
  guid?: string | undefined;
  voucherTypeName?: string | undefined;
  voucherNumber?: string | undefined;
}): string {
  let condition: string;
  if (options.guid !== undefined) condition = `$Guid = ${quoted(options.guid)}`;
  else if (options.voucherTypeName !== undefined && options.voucherNumber !== undefined) {
    condition = `$VoucherTypeName = ${quoted(options.voucherTypeName)} AND $VoucherNumber = ${quoted(options.voucherNumber)}`;
  } else throw new Error('voucherLookupRequest needs a guid, or a voucherTypeName with a voucherNumber');
  return collectionExportRequest({
    name: 'LedgerwireVoucherLookup',
    type: 'Voucher',
    fetch: VOUCHER_FETCH,
    companyName: options.companyName,
    fromDate: options.date,
    toDate: options.date,
    filters: [DATE_WINDOW, { name: 'LwIsTheVoucher', formula: condition }],
  });
}

/** Object export of one named object (e.g. SUBTYPE Company or Ledger) with every field (`FETCH *`). */
export function objectExportRequest(options: { companyName: string; subtype: string; name: string }): string {
  return (
    '<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Object</TYPE>' +
    `<SUBTYPE>${escapeXmlText(options.subtype)}</SUBTYPE><ID TYPE="Name">${escapeXmlText(options.name)}</ID></HEADER>` +
    `<BODY><DESC><STATICVARIABLES><SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>` +
    `<SVCURRENTCOMPANY>${escapeXmlText(options.companyName)}</SVCURRENTCOMPANY></STATICVARIABLES>` +
    '<FETCHLIST><FETCH>*</FETCH></FETCHLIST></DESC></BODY></ENVELOPE>'
  );
}
