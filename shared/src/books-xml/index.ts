// TallyPrime XML: rendering what the service writes into the books, building the export requests the
// connector sends, and reading the books' answers into shared objects. Pure functions, no I/O.
export { BOOKS_REQUEST_CONTENT_TYPE, decodeBooksResponse, encodeBooksRequest } from './books-encoding.js';
export { wrapImportRequest, type ImportReportName } from './import-envelope.js';
export {
  ACCOUNTING_VIEW,
  INVOICE_VIEW,
  renderParsedVoucherImport,
  renderVoucherElement,
  renderVoucherImport,
  renderVoucherImportBatch,
  VoucherRenderError,
  type VoucherDocumentInput,
  type VoucherImportAction,
  type VoucherImportOptions,
  type VoucherRenderOptions,
} from './voucher-xml.js';
export {
  renderVoucherRemovalElement,
  renderVoucherRemovalImport,
  tagDate,
  type VoucherRemovalAction,
  type VoucherRemovalOptions,
  type VoucherTarget,
} from './voucher-lifecycle-xml.js';
export {
  MasterRenderError,
  renderMasterElement,
  renderMasterImport,
  renderMasterImportBatch,
  type MasterDocumentInput,
  type MasterImportAction,
  type MasterImportOptions,
  type MasterRenderOptions,
} from './master-xml.js';
export { MASTER_ELEMENT, MASTER_TDL_TYPE } from './master-tags.js';
export {
  booksGuidFor,
  masterIdInBooksGuid,
  IMPORT_COUNTERS,
  importSucceeded,
  parseImportResponse,
  summariseImportResponse,
  type ImportCounters,
  type ImportIntent,
  type ImportResponse,
} from './import-response.js';
export {
  classifyImportFailure,
  describeImportFailure,
  IMPORT_ERROR_CODES,
  IMPORT_ERROR_LABELS,
  sanitiseBooksText,
  type ImportErrorCode,
  type ImportFailure,
} from './import-errors.js';
export {
  collectionExportRequest,
  companyListRequest,
  companyProbeRequest,
  MASTER_FETCH,
  masterGuidsRequest,
  mastersChangedRequest,
  objectExportRequest,
  VOUCHER_FETCH,
  voucherGuidsRequest,
  voucherLookupRequest,
  vouchersChangedRequest,
  type CollectionRequest,
  type VoucherWindow,
} from './export-requests.js';
export {
  BooksExportError,
  parseCompanyList,
  parseGuidList,
  readExportAnswer,
  typedText,
  type BooksGuidEntry,
  type ExportAnswer,
} from './export-parse.js';
export { parseMasterExport, voucherTypeIndex, type MasterParseOptions, type VoucherTypeIndex } from './export-parse-masters.js';
export { parseVoucherExport, type VoucherParseOptions } from './export-parse-vouchers.js';
export {
  attributeOf,
  booksAmount,
  booksDate,
  booksNumberValue,
  childOf,
  cleanBooksXml,
  escapeXmlAttribute,
  escapeXmlText,
  isoFromBooksDate,
  listOf,
  parseBooksXml,
  textOf,
  unescapeXmlText,
  type XmlNode,
} from './xml-text.js';
