// Joins the import envelopes of consecutive jobs of one company into one request. The books import one
// request at a time and each request has a fixed cost, so sending a hundred vouchers in one request is far
// cheaper than a hundred requests (BR-REF measured 0.53 s for one object, 2.08 s for a hundred). Only envelopes of the same shape (report, company) are joined; anything
// this does not recognise is sent alone, as the relay rendered it.
import { unescapeXmlText } from '@ledgerwire/shared';

export type ImportAction = 'create' | 'alter' | 'delete' | 'cancel';

export type EnvelopeShape = Readonly<{
  reportName: string;
  companyXml: string;
  objects: string;
  objectCount: number;
  /** The one ACTION every object carries (create when none says), or undefined when they differ. */
  action: ImportAction | undefined;
  /** The voucher type the first voucher names (entities decoded), when it names one. */
  voucherTypeName: string | undefined;
}>;

const REPORT = /<REPORTNAME>([^<]*)<\/REPORTNAME>/;
const COMPANY = /<SVCURRENTCOMPANY>([^<]*)<\/SVCURRENTCOMPANY>/;
const DATA = /<REQUESTDATA>([\s\S]*)<\/REQUESTDATA>/;
const MESSAGE = /<TALLYMESSAGE\b/g;
const VOUCHER_TYPE_NAME = /<VOUCHERTYPENAME>([^<]*)<\/VOUCHERTYPENAME>/;
const ACTION = /<(?:VOUCHER|LEDGER|GROUP|STOCKITEM|STOCKGROUP|STOCKCATEGORY|UNIT|GODOWN|CURRENCY|VOUCHERTYPE)\b[^>]*?\bACTION="([^"]*)"/g;

function actionOf(objects: string): ImportAction | undefined {
  const actions = new Set([...objects.matchAll(ACTION)].map((m) => (m[1] ?? '').toLowerCase()));
  if (actions.size === 0) return 'create';
  if (actions.size > 1) return undefined;
  const only = [...actions][0];
  return only === 'create' || only === 'alter' || only === 'delete' || only === 'cancel' ? only : undefined;
}

/** The parts of a legacy "Import Data" envelope, or undefined when it is not one. */
export function envelopeShape(xml: string): EnvelopeShape | undefined {
  if (!xml.includes('<TALLYREQUEST>Import Data</TALLYREQUEST>')) return undefined;
  const report = REPORT.exec(xml)?.[1];
  const company = COMPANY.exec(xml)?.[1];
  const objects = DATA.exec(xml)?.[1];
  if (report === undefined || company === undefined || objects === undefined) return undefined;
  const objectCount = objects.match(MESSAGE)?.length ?? 0;
  if (objectCount === 0) return undefined;
  return { reportName: report, companyXml: company, objects, objectCount, action: actionOf(objects), voucherTypeName: voucherTypeNameIn(objects) };
}

/** The voucher type the first voucher of an import names (entities decoded), when it names one. */
export function voucherTypeNameIn(xml: string): string | undefined {
  const typeName = VOUCHER_TYPE_NAME.exec(xml)?.[1];
  return typeName === undefined ? undefined : unescapeXmlText(typeName);
}

/**
 * Deletions go alone: when a request of several fails, each job is sent again alone to learn its own
 * outcome, and a deletion the failed request did apply would then read "does not exist" — just what a
 * deletion of a voucher the books never had reads.
 */
export function canJoin(a: EnvelopeShape, b: EnvelopeShape): boolean {
  return a.reportName === b.reportName && a.companyXml === b.companyXml && a.action !== undefined && a.action !== 'delete' && a.action === b.action;
}

/** One request carrying every object of the given envelopes, in order. */
export function joinEnvelopes(shapes: readonly EnvelopeShape[]): string {
  const first = shapes[0];
  if (!first) throw new Error('nothing to join');
  return (
    '<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC>' +
    `<REPORTNAME>${first.reportName}</REPORTNAME>` +
    `<STATICVARIABLES><SVCURRENTCOMPANY>${first.companyXml}</SVCURRENTCOMPANY></STATICVARIABLES>` +
    `</REQUESTDESC><REQUESTDATA>${shapes.map((s) => s.objects).join('')}</REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>`
  );
}
