// FETCH lists and how an object is rendered for them: `*` (everything stored, in stored order),
// named fields (stored order, computed ones at TallyPrime's place), one-level dotted paths
// (`AllLedgerEntries.Amount`, `AllLedgerEntries.*`); two-level paths come back empty, as captured.
import { cloneNode, node, type XNode } from '../xml/xml-tree.js';
import type { ExportObject } from './export-object.js';
import { fieldOrder, fieldTypes, SUB_FIELD_TYPES } from './field-catalogue.js';

export interface FetchItem {
  sub: Set<string>;
  subAll: boolean;
  deep: Set<string>;
  whole: boolean;
}

export interface FetchSpec {
  all: boolean;
  items: Map<string, FetchItem>;
  /** COMPUTE fields: name → value per object. */
  computes: { tag: string; value: (obj: ExportObject) => { text: string; type: string } }[];
}

export function parseFetch(lists: string[]): FetchSpec {
  const spec: FetchSpec = { all: false, items: new Map(), computes: [] };
  for (const raw of lists.flatMap((l) => l.split(','))) {
    const name = raw.trim();
    if (name === '') continue;
    if (name === '*') {
      spec.all = true;
      continue;
    }
    const parts = name.split('.').map((p) => p.trim().toUpperCase());
    const top = parts[0]!;
    const item = spec.items.get(top) ?? { sub: new Set<string>(), subAll: false, deep: new Set<string>(), whole: false };
    if (parts.length === 1) item.whole = true;
    else if (parts.length === 2 && parts[1] === '*') item.subAll = true;
    else if (parts.length === 2) item.sub.add(parts[1]!);
    else item.deep.add(parts[1]!);
    spec.items.set(top, item);
  }
  return spec;
}

function tagMatches(tag: string, fetchName: string): boolean {
  const upper = tag.toUpperCase();
  return upper === fetchName || upper === `${fetchName}.LIST`;
}

function withComputedText(obj: ExportObject, stored: XNode): XNode {
  const compute = obj.computed[stored.tag.toUpperCase()];
  if (!compute || stored.children.length > 0) return stored;
  return { ...stored, text: compute() ?? stored.text };
}

function typed(n: XNode, type: string | undefined): XNode {
  if (!type || Object.keys(n.attrs).length > 0 || n.children.length > 0) return n;
  return { ...n, attrs: { TYPE: type } };
}

function subset(list: XNode, item: FetchItem): XNode {
  if (item.whole || item.subAll) return list;
  const kept: XNode[] = [];
  for (const c of list.children) {
    const tag = c.tag.toUpperCase();
    if ([...item.sub].some((s) => tagMatches(tag, s))) kept.push(typed(c, SUB_FIELD_TYPES[tag]));
    else if ([...item.deep].some((s) => tagMatches(tag, s))) kept.push({ ...c, children: [], text: '' });
  }
  return { ...list, children: kept };
}

/** Places computed fields after the last rendered field that precedes them in TallyPrime's order. */
function place(out: XNode[], created: XNode, order: string[]): void {
  const rank = order.indexOf(created.tag);
  let at = -1;
  if (rank >= 0) {
    out.forEach((n, i) => {
      const r = order.indexOf(n.tag.toUpperCase());
      if (r >= 0 && r < rank) at = i;
    });
    if (at < 0 && out.some((n) => order.indexOf(n.tag.toUpperCase()) > rank)) {
      out.unshift(created);
      return;
    }
  }
  if (at >= 0) out.splice(at + 1, 0, created);
  else out.push(created);
}

export function renderObject(obj: ExportObject, spec: FetchSpec, addTypes: boolean): XNode {
  const types = fieldTypes(obj.tag);
  const order = fieldOrder(obj.tag);
  const out: XNode[] = [];
  const topType = (n: XNode) => (addTypes && n.children.length === 0 && !n.tag.endsWith('.LIST') ? typed(n, types[n.tag.toUpperCase()]) : n);
  if (spec.all) {
    for (const stored of obj.stored) out.push(topType(withComputedText(obj, stored)));
    if (obj.stored.length === 0) {
      for (const tag of order) {
        const value = obj.computed[tag]?.();
        if (value !== undefined) out.push(topType(node(tag, value)));
      }
    }
  }
  const seen = new Set(out.map((n) => n.tag.toUpperCase()));
  for (const stored of obj.stored) {
    const tag = stored.tag.toUpperCase();
    if (spec.all && seen.has(tag)) continue;
    const match = [...spec.items.entries()].find(([name]) => tagMatches(tag, name));
    if (!match) continue;
    out.push(tag.endsWith('.LIST') ? subset(stored, match[1]) : topType(withComputedText(obj, stored)));
  }
  const present = new Set(out.map((n) => n.tag.toUpperCase()));
  for (const [name] of spec.items) {
    if ([...present].some((tag) => tagMatches(tag, name))) continue;
    const value = obj.computed[name]?.();
    if (value !== undefined) place(out, topType(node(name, value)), order);
  }
  for (const extra of spec.computes) {
    const { text, type } = extra.value(obj);
    out.push(node(extra.tag, text, { TYPE: type }));
  }
  return node(obj.tag, '', obj.attrs, out);
}

export function renderWhole(obj: ExportObject): XNode {
  return node(obj.tag, '', obj.attrs, obj.stored.map((s) => withComputedText(obj, cloneNode(s))));
}
