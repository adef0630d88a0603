// Which voucher or master a job is, in the words the books use: a voucher's type and number ("Receipt
// no. RCT/17"), a master's kind and name (ledger "राम & सन्स"); for a voucher also its date, party and
// amount, as the local page's job rows show them. Read from the job's import XML only when
// the local page lists recent jobs, never on the import path: the runner's per-job work stays as it is.
// The XML is the relay's rendering (shared voucher-xml / master-xml), so a few patterns find the fields;
// names come back entity-decoded in whatever script they were written.
import { formatPaise, MASTER_ELEMENT, paiseOf, unescapeXmlText, type MasterType } from '@ledgerwire/shared';
import { voucherTypeNameIn } from '../jobs/import-batching.js';

const VOUCHER_TYPE_ATTRIBUTE = /<VOUCHER\b[^>]*?\bVCHTYPE="([^"]*)"/;
const VOUCHER_NUMBER = /<VOUCHERNUMBER>([^<]*)<\/VOUCHERNUMBER>/;
const VOUCHER_DATE = /<DATE>(\d{4})(\d{2})(\d{2})<\/DATE>/;
const PARTY = /<PARTYLEDGERNAME>([^<]*)<\/PARTYLEDGERNAME>/;
/** One ledger entry of a voucher (accounting or invoice view); bill and other allocations nest inside. */
const LEDGER_ENTRY = /<(ALLLEDGERENTRIES|LEDGERENTRIES)\.LIST>([\s\S]*?)<\/\1\.LIST>/g;
const NESTED_LIST = /<([A-Z.]+\.LIST)>[\s\S]*?<\/\1>/g;
const ENTRY_LEDGER = /<LEDGERNAME>([^<]*)<\/LEDGERNAME>/;
const ENTRY_AMOUNT = /<AMOUNT>\s*(-?\d+(?:\.\d+)?)\s*<\/AMOUNT>/;

/** A voucher's facts for a job row; each null when the XML does not carry it. */
export type VoucherFacts = Readonly<{
  voucherType: string | null;
  voucherNumber: string | null;
  /** YYYY-MM-DD. */
  date: string | null;
  party: string | null;
  /** The voucher's amount as the books write one ("1180.50"): the party's entry, else the sum of the debits. */
  amount: string | null;
}>;

/** Master element → its kind in words (STOCKITEM → "stock item"). */
const MASTER_WORDS: ReadonlyMap<string, string> = new Map(
  (Object.entries(MASTER_ELEMENT) as [MasterType, string][]).map(([type, tag]) => [tag, type.replace(/_/g, ' ')]),
);
/**
 * A master's opening tag with its NAME attribute (the name it has in the books now), then its inner NAME,
 * bare or first in a NAME.LIST (the name it gets). A unit carries no NAME attribute (books-xml EVIDENCE.md).
 */
const MASTER = new RegExp(`<(${[...MASTER_WORDS.keys()].join('|')})\\b(?:[^>]*?\\bNAME="([^"]*)")?[^>]*>(?:<NAME\\.LIST[^>]*>)?(?:<NAME>([^<]*)</NAME>)?`);

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

/** The voucher's type, number, date, party and amount, or null for a master or when the XML is not at hand. */
export function readVoucherFacts(jobType: 'voucher' | 'master', xml: string | null): VoucherFacts | null {
  if (jobType !== 'voucher' || xml === null) return null;
  const type = (voucherTypeNameIn(xml) ?? '').trim() || decoded(VOUCHER_TYPE_ATTRIBUTE.exec(xml)?.[1]);
  const date = VOUCHER_DATE.exec(xml);
  const party = decoded(PARTY.exec(xml)?.[1]);
  return {
    voucherType: type || null,
    voucherNumber: decoded(VOUCHER_NUMBER.exec(xml)?.[1]) || null,
    date: date ? `${date[1]}-${date[2]}-${date[3]}` : null,
    party: party || null,
    amount: voucherAmount(xml, party),
  };
}

/** The party's entry (without its sign), else the debits added up; null when the XML has no entry with an amount. */
function voucherAmount(xml: string, party: string): string | null {
  let debits = 0;
  let seen = false;
  for (const entry of xml.matchAll(LEDGER_ENTRY)) {
    // Bill, cost-centre and other allocations nest in an entry with amounts of their own: not the entry's.
    const own = (entry[2] as string).replace(NESTED_LIST, '');
    const amount = ENTRY_AMOUNT.exec(own)?.[1];
    if (amount === undefined) continue;
    const paise = paiseOf(Number(amount));
    if (party && decoded(ENTRY_LEDGER.exec(own)?.[1]) === party) return formatPaise(BigInt(Math.abs(paise)));
    seen = true;
    // In the books' XML a debit is negative (ISDEEMEDPOSITIVE Yes).
    if (paise < 0) debits -= paise;
  }
  return seen ? formatPaise(BigInt(debits)) : null;
}
