// The layout of TallyPrime's flattened report answers (Trial Balance, Balance Sheet, Profit and Loss,
// Bills Receivable/Payable, Ledger Vouchers), as captured byte for byte in lamemustafa/bridge
// `bills_receivable_validation_lab.xml` and in shape in MarketingBNG/Tally-MCP's report fixtures: a bare
// <ENVELOPE> (no HEADER, no STATUS) of sibling rows, one element per line with a one-space indent per
// level, CRLF, the closing tag of an element with children at column 0, empty values as `<X></X>`.
// A report with nothing to show is `<ENVELOPE></ENVELOPE>` + CRLF (23 bytes).
import { escapeXml } from '../xml/xml-tree.js';

/** One element of a flattened report: text, or nested elements. */
export type FlatNode = { tag: string; text?: string; children?: FlatNode[] };

export const flat = (tag: string, content: string | FlatNode[] = ''): FlatNode =>
  typeof content === 'string' ? { tag, text: content } : { tag, children: content };

export const EMPTY_REPORT = '<ENVELOPE></ENVELOPE>\r\n';

function render(n: FlatNode, depth: number, out: string[]): void {
  const indent = ' '.repeat(depth);
  if (n.children && n.children.length > 0) {
    out.push(`${indent}<${n.tag}>`);
    for (const c of n.children) render(c, depth + 1, out);
    out.push(`</${n.tag}>`);
    return;
  }
  out.push(`${indent}<${n.tag}>${escapeXml(n.text ?? '')}</${n.tag}>`);
}

export function renderFlatReport(rows: FlatNode[]): string {
  if (rows.length === 0) return EMPTY_REPORT;
  const out: string[] = [];
  render({ tag: 'ENVELOPE', children: rows }, 0, out);
  return `${out.join('\r\n')}\r\n`;
}

/** `20260801` → `1-Aug-26`, the date form of report rows (bills, ledger vouchers). */
export function shortDate(yyyymmdd: string): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${Number(yyyymmdd.slice(6, 8))}-${months[Number(yyyymmdd.slice(4, 6)) - 1]}-${yyyymmdd.slice(2, 4)}`;
}
