// Low-level text handling for the books' XML: escaping what we send, cleaning what comes back (TallyPrime
// emits `&#4;` markers and raw control characters that XML 1.0 forbids), dates and amounts in the books'
// formats, and a parser configured so that names survive verbatim (no trimming, no number coercion).
import { XMLParser } from 'fast-xml-parser';
import { AMOUNT_LIMIT, MAX_EXACT_DIGITS, MEASURE_PLACES, plainDecimalText } from '../bridge/wire-decimal.js';

// Without the g flag, so test() keeps no lastIndex between calls.
const NEEDS_TEXT_ESCAPE = /[&<>\r\n]/;
const NEEDS_ATTRIBUTE_ESCAPE = /[&<>\r\n"'\t]/;

/** Escapes element text: `& < >`, and CR/LF as character references so they survive the import. */
export function escapeXmlText(value: string): string {
  // Most names and amounts need no escaping: one scan answers them without five replace passes.
  if (!NEEDS_TEXT_ESCAPE.test(value)) return value;
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;');
}

/** Escapes an attribute value (adds quotes to the element-text rules). */
export function escapeXmlAttribute(value: string): string {
  if (!NEEDS_ATTRIBUTE_ESCAPE.test(value)) return value;
  return escapeXmlText(value).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;');
}

const ENTITY = /&(?:amp|lt|gt|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g;
const NAMED_ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };

/** Reads back text escaped by escapeXmlText / escapeXmlAttribute: the five named entities and character references. */
export function unescapeXmlText(text: string): string {
  return text.replace(ENTITY, (entity, decimal: string | undefined, hex: string | undefined) =>
    decimal !== undefined ? String.fromCodePoint(Number(decimal)) : hex !== undefined ? String.fromCodePoint(Number.parseInt(hex, 16)) : (NAMED_ENTITIES[entity] ?? entity),
  );
}

/** `<TAG>text</TAG>` with the text escaped. */
export function element(tag: string, value: string): string {
  return `<${tag}>${escapeXmlText(value)}</${tag}>`;
}

/**
 * Makes a books response parseable by a strict XML parser. Drops the `&#4;` system-value marker with its
 * trailing space (`&#4; Primary` → `Primary`), any other character reference XML 1.0 forbids, and raw
 * control characters (U+0003 appears inside PARENTSTRUCTURE). Tab, LF and CR are kept.
 */
export function cleanBooksXml(xml: string): string {
  return (
    xml
      .replace(/^\uFEFF/, '')
      .replace(/&#4; ?/g, '')
      .replace(/&#x0*4; ?/gi, '')
      .replace(/&#(\d+);/g, (match, code: string) => (isForbiddenCodePoint(Number(code)) ? '' : match))
      .replace(/&#x([0-9a-f]+);/gi, (match, code: string) => (isForbiddenCodePoint(parseInt(code, 16)) ? '' : match))
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
  );
}

function isForbiddenCodePoint(code: number): boolean {
  if (code === 9 || code === 10 || code === 13) return false;
  return code < 32 || code === 0xfffe || code === 0xffff || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff;
}

/** ISO `YYYY-MM-DD` → books `YYYYMMDD`. */
export function booksDate(isoDate: string): string {
  return isoDate.replace(/-/g, '');
}

/** Books `YYYYMMDD` → ISO `YYYY-MM-DD`; '' when the text is not a compact date. */
export function isoFromBooksDate(value: string): string {
  const match = /^\s*(\d{4})(\d{2})(\d{2})\s*$/.exec(value);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : '';
}

/**
 * Signed amount as the books write it: exactly two decimals, debit negative, never `-0.00`. The digits
 * are those of the decimal the number stands for (its shortest round-trip text), not arithmetic on it, so
 * 9999999999999.99 is written as given. Throws a RangeError for a number that is not whole paise below
 * AMOUNT_LIMIT: no such amount passes the voucher schemas, and writing it would change it silently.
 */
export function booksAmount(amount: number, isDebit: boolean): string {
  const text = plainDecimalText(Math.abs(amount));
  const match = text === undefined ? null : /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match || Math.abs(amount) >= AMOUNT_LIMIT) {
    throw new RangeError(`${amount} cannot be written exactly as a books amount (whole paise below ${AMOUNT_LIMIT})`);
  }
  const written = `${match[1]}.${(match[2] ?? '').padEnd(2, '0')}`;
  return written === '0.00' ? written : `${isDebit ? '-' : ''}${written}`;
}

/**
 * A plain number for quantities and rates: at least two decimals, no exponent. Rounded to the 15 digits
 * a double carries and then to six places, and written as the shortest text of that double: a quantity
 * or rate a caller may send (at most six places and 15 digits) comes out digit for digit, and a computed
 * one (a rate worked out as amount ÷ quantity) loses only its noise. Throws a RangeError from 1e21,
 * which has no plain form.
 */
export function booksNumber(value: number): string {
  const text = plainDecimalText(Number(Number(value.toPrecision(MAX_EXACT_DIGITS)).toFixed(MEASURE_PLACES)));
  if (text === undefined) throw new RangeError(`${value} cannot be written as a books number`);
  return withTwoPlaces(text);
}

function withTwoPlaces(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

/**
 * Parses a number out of a books text value: amounts (`-1180.00`), quantities (` 10 Nos`), rates
 * (`100.00/Nos`) and forex forms (`$20 @ ₹ 75/$ = ₹ 1500`, the part after `=` counts). NaN when none.
 */
export function booksNumberValue(text: string): number {
  const afterEquals = text.includes('=') ? text.slice(text.lastIndexOf('=') + 1) : text;
  const match = /-?\d[\d,]*(\.\d+)?/.exec(afterEquals);
  return match ? Number(match[0].replace(/,/g, '')) : Number.NaN;
}

// Elements that repeat in books exports, so the parser always gives them as arrays.
const REPEATING = new Set(['LINEERROR', 'TALLYMESSAGE', 'COMPANY', 'VOUCHER', 'GROUP', 'LEDGER', 'CURRENCY', 'UNIT',
  'GODOWN', 'STOCKGROUP', 'STOCKCATEGORY', 'STOCKITEM', 'VOUCHERTYPE']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  isArray: (name, jpath) => {
    if (name.endsWith('.LIST') || REPEATING.has(name)) return true;
    const path = String(jpath);
    return (name === 'NAME' && path.endsWith('NAME.LIST.NAME')) || (name === 'ADDRESS' && path.endsWith('ADDRESS.LIST.ADDRESS'));
  },
});

/** A parsed element: text, attributes (`@_NAME`) and children. */
export type XmlNode = Record<string, unknown>;

/** The name of the document's first element, past an XML declaration, comments and a DOCTYPE. */
const ROOT_ELEMENT = /^\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*<([A-Za-z_][\w.:-]*)/;

/**
 * Throws when the answer stops before its root element closes. The parser reads a document cut between
 * two elements as a shorter whole one, and the books' STATUS 1 sits at the top of an answer cut short
 * (books-xml.md §5.4): without this, half a list would read as the whole list.
 */
function assertWhole(xml: string): void {
  const root = ROOT_ELEMENT.exec(xml);
  if (!root) return; // no element at all: the parser and the callers say what is missing
  const name = root[1] as string;
  const end = xml.trimEnd();
  if (end.endsWith('/>') && end.indexOf('>', root.index + root[0].length) === end.length - 1) return; // `<ENVELOPE/>`
  const closing = end.lastIndexOf('</');
  if (closing !== -1 && end.endsWith('>') && end.slice(closing + 2, -1).trim() === name) return;
  throw new Error(`the answer stops before its <${name}> element is closed (cut short)`);
}

/** Cleans and parses books XML into plain objects. Throws on XML that is broken beyond the known quirks, or cut short. */
export function parseBooksXml(xml: string): XmlNode {
  const cleaned = cleanBooksXml(xml);
  assertWhole(cleaned);
  return parser.parse(cleaned) as XmlNode;
}

/** Text content of an element, verbatim ('' when absent or empty). */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return textOf(value[0]);
  if (typeof value === 'object') {
    const text = (value as XmlNode)['#text'];
    return text === undefined ? '' : textOf(text);
  }
  return '';
}

/** Child element of a node, as a node (undefined when absent or a bare text). */
export function childOf(node: unknown, tag: string): XmlNode | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const child = (node as XmlNode)[tag];
  const first = Array.isArray(child) ? child[0] : child;
  return first && typeof first === 'object' ? (first as XmlNode) : undefined;
}

/** Repeated child elements as nodes; whitespace-only `<X.LIST>   </X.LIST>` scaffolding is skipped. */
export function listOf(node: unknown, tag: string): XmlNode[] {
  if (!node || typeof node !== 'object') return [];
  const child = (node as XmlNode)[tag];
  const items = Array.isArray(child) ? child : child === undefined ? [] : [child];
  return items.filter((item): item is XmlNode => item !== null && typeof item === 'object');
}

/** Attribute value of a node ('' when absent). */
export function attributeOf(node: unknown, name: string): string {
  if (!node || typeof node !== 'object') return '';
  return textOf((node as XmlNode)[`@_${name}`]);
}
