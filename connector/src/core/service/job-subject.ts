// Which voucher or master a job is, in the words the books use: a voucher's type and number ("Receipt
// no. RCT/17"), a master's kind and name (ledger "राम & सन्स"). Read from the job's import XML only when
// the local page lists recent jobs, never on the import path: the runner's per-job work stays as it is.
// The XML is the relay's rendering (shared voucher-xml / master-xml), so a few patterns find the fields;
// names come back entity-decoded in whatever script they were written.
import { MASTER_ELEMENT, unescapeXmlText, type MasterType } from '@ledgerwire/shared';
import { voucherTypeNameIn } from '../jobs/import-batching.js';

const VOUCHER_TYPE_ATTRIBUTE = /<VOUCHER\b[^>]*?\bVCHTYPE="([^"]*)"/;
const VOUCHER_NUMBER = /<VOUCHERNUMBER>([^<]*)<\/VOUCHERNUMBER>/;

/** Master element → its kind in words (STOCKITEM → "stock item"). */
const MASTER_WORDS: ReadonlyMap<string, string> = new Map(
  (Object.entries(MASTER_ELEMENT) as [MasterType, string][]).map(([type, tag]) => [tag, type.replace(/_/g, ' ')]),
);
/** A master's opening tag with its NAME attribute (the name it has in the books now), then its inner NAME (the name it gets). */
const MASTER = new RegExp(`<(${[...MASTER_WORDS.keys()].join('|')})\\b[^>]*?\\bNAME="([^"]*)"[^>]*>(?:<NAME>([^<]*)</NAME>)?`);

/** Decoded and trimmed text of a match, or '' when there is none. */
function decoded(match: string | undefined): string {
  return match === undefined ? '' : unescapeXmlText(match).trim();
}

/** The job's voucher or master in words, or null when its XML names neither. */
export function describeJobSubject(jobType: 'voucher' | 'master', xml: string | null): string | null {
  if (xml === null) return null;
  return jobType === 'master' ? masterSubject(xml) : voucherSubject(xml);
}

function voucherSubject(xml: string): string | null {
  const type = (voucherTypeNameIn(xml) ?? '').trim() || decoded(VOUCHER_TYPE_ATTRIBUTE.exec(xml)?.[1]);
  const number = decoded(VOUCHER_NUMBER.exec(xml)?.[1]);
  if (number) return `${type || 'voucher'} no. ${number}`;
  return type ? `${type} (no number)` : null;
}

function masterSubject(xml: string): string | null {
  const match = MASTER.exec(xml);
  if (!match) return null;
  const kind = MASTER_WORDS.get(match[1] as string) as string;
  const current = decoded(match[2]);
  const name = decoded(match[3]) || current;
  if (!name) return kind;
  // A rename names the master by its current name and carries the new one inside.
  return current && current !== name ? `${kind} "${name}" (was "${current}")` : `${kind} "${name}"`;
}
