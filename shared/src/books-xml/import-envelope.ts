// The envelope around objects imported into the books. We send the legacy "Import Data" shape: it is the
// one verified live on TallyPrime 6.1 and 7.x, and its answer is the bare <RESPONSE> of counters
// (books-xml.md §1.3, §2.1). SVCURRENTCOMPANY is always set: without it the books silently use whichever
// company happens to be active.
import { escapeXmlText } from './xml-text.js';

export type ImportReportName = 'Vouchers' | 'All Masters';

/** Wraps already-rendered object elements (`<VOUCHER …>`, `<LEDGER …>`) into one import request. */
export function wrapImportRequest(reportName: ImportReportName, companyName: string, objects: readonly string[]): string {
  if (companyName.length === 0) throw new Error('companyName is required: the books would otherwise import into the active company');
  const messages = objects.map((object) => `<TALLYMESSAGE xmlns:UDF="TallyUDF">${object}</TALLYMESSAGE>`).join('');
  return (
    '<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC>' +
    `<REPORTNAME>${reportName}</REPORTNAME>` +
    `<STATICVARIABLES><SVCURRENTCOMPANY>${escapeXmlText(companyName)}</SVCURRENTCOMPANY></STATICVARIABLES>` +
    `</REQUESTDESC><REQUESTDATA>${messages}</REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>`
  );
}
