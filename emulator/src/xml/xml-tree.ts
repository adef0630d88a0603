// The one in-memory shape of XML in the emulator: an ordered element tree. Requests are parsed into
// it, objects are stored as it (so an imported object re-exports in the order it came), and every
// response is rendered from it in TallyPrime's layout (one element per line, one-space indent, CRLF).
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface XNode {
  tag: string;
  attrs: Record<string, string>;
  /** Text of a leaf element, verbatim (leading spaces matter: ` 10 Nos`). */
  text: string;
  children: XNode[];
}

export class MalformedXmlError extends Error {}

/** TallyPrime writes U+0004 as `&#4;`, which XML parsers refuse; we carry it through a private-use char. */
const CONTROL_BASE = 0xe000;
const ENTITY_OK = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

export function node(tag: string, text = '', attrs: Record<string, string> = {}, children: XNode[] = []): XNode {
  return { tag, attrs, text, children };
}

/** Parses a request; any defect TallyPrime would refuse (raw `&`, bad nesting) throws MalformedXmlError. */
export function parseXml(source: string): XNode {
  if (ENTITY_OK.test(source)) throw new MalformedXmlError('raw ampersand');
  const shielded = source.replace(/&#(x[0-9a-fA-F]+|\d+);/g, (whole, code: string) => {
    const value = code.startsWith('x') ? parseInt(code.slice(1), 16) : parseInt(code, 10);
    return value < 32 && value !== 9 && value !== 10 && value !== 13 ? String.fromCharCode(CONTROL_BASE + value) : whole;
  });
  const verdict = XMLValidator.validate(shielded);
  if (verdict !== true) throw new MalformedXmlError(verdict.err.msg);
  const roots = toNodes(parser.parse(shielded) as unknown[]);
  const root = roots[0];
  if (!root || roots.length !== 1) throw new MalformedXmlError('expected one root element');
  return root;
}

function unshield(text: string): string {
  return text.replace(/[\ue000-\ue01f]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - CONTROL_BASE));
}

function toNodes(items: unknown[]): XNode[] {
  const out: XNode[] = [];
  for (const item of items) {
    const record = item as Record<string, unknown>;
    const tag = Object.keys(record).find((k) => k !== ':@');
    if (!tag || tag === '#text' || tag === '#comment' || tag.startsWith('?')) continue;
    const rawAttrs = (record[':@'] ?? {}) as Record<string, string>;
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(rawAttrs)) attrs[k] = unshield(String(v));
    const content = (record[tag] ?? []) as unknown[];
    const children = toNodes(content);
    let text = '';
    for (const part of content) {
      const t = (part as Record<string, unknown>)['#text'];
      if (t !== undefined) text += String(t);
    }
    if (children.length > 0 && text.trim() === '') text = '';
    out.push({ tag, attrs, text: unshield(text), children });
  }
  return out;
}

// ---- navigation (tags compared case-insensitively, as TallyPrime does) ----

export function child(parent: XNode | undefined, tag: string): XNode | undefined {
  if (!parent) return undefined;
  const upper = tag.toUpperCase();
  return parent.children.find((c) => c.tag.toUpperCase() === upper);
}

export function children(parent: XNode | undefined, tag: string): XNode[] {
  if (!parent) return [];
  const upper = tag.toUpperCase();
  return parent.children.filter((c) => c.tag.toUpperCase() === upper);
}

/** Follows a path of tags (`BODY/DESC/STATICVARIABLES`). */
export function path(root: XNode | undefined, ...tags: string[]): XNode | undefined {
  let current = root;
  for (const tag of tags) current = child(current, tag);
  return current;
}

export function textOf(parent: XNode | undefined, tag: string): string | undefined {
  return child(parent, tag)?.text;
}

export function attr(n: XNode, name: string): string | undefined {
  const upper = name.toUpperCase();
  for (const [k, v] of Object.entries(n.attrs)) if (k.toUpperCase() === upper) return v;
  return undefined;
}

export function cloneNode(n: XNode): XNode {
  return { tag: n.tag, attrs: { ...n.attrs }, text: n.text, children: n.children.map(cloneNode) };
}

// ---- rendering ----

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replaceAll('\u0004', '&#4;');
}

function openTag(n: XNode): string {
  const attrs = Object.entries(n.attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  return `<${n.tag}${attrs}`;
}

/**
 * TallyPrime's layout: empty lists and collections hold their indent as spaces
 * (`<BILLALLOCATIONS.LIST>      </BILLALLOCATIONS.LIST>`), empty scalars with attributes are
 * `<X TYPE="String"></X>`, bare empty scalars are `<X/>`.
 */
export function renderNode(n: XNode, depth: number, out: string[]): void {
  const pad = ' '.repeat(depth);
  if (n.children.length === 0) {
    const isList = n.tag.endsWith('.LIST') || n.tag === 'COLLECTION';
    if (n.text !== '') out.push(`${pad}${openTag(n)}>${escapeXml(n.text)}</${n.tag}>`);
    else if (isList) out.push(`${pad}${openTag(n)}>${pad}</${n.tag}>`);
    else if (Object.keys(n.attrs).length > 0) out.push(`${pad}${openTag(n)}></${n.tag}>`);
    else out.push(`${pad}${openTag(n)}/>`);
    return;
  }
  out.push(`${pad}${openTag(n)}>`);
  for (const c of n.children) renderNode(c, depth + 1, out);
  out.push(`${pad}</${n.tag}>`);
}

export function renderDocument(root: XNode): string {
  const out: string[] = [];
  renderNode(root, 0, out);
  return out.join('\r\n') + '\r\n';
}

/** Compact one-line form used for import answers (`<RESPONSE><CREATED>1</CREATED>…</RESPONSE>`). */
export function renderCompact(n: XNode): string {
  if (n.children.length === 0) return `${openTag(n)}>${escapeXml(n.text)}</${n.tag}>`;
  return `${openTag(n)}>${n.children.map(renderCompact).join('')}</${n.tag}>`;
}
