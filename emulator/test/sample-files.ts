// Reads the captured TallyPrime samples (shared/reference/tally-samples) and reduces XML to its shape:
// element tags in order with attribute names and TYPE values, text ignored.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseXml, type XNode } from '../src/xml/xml-tree.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository's copy (with its SOURCES.md and licences) if present, else the research folder beside it. */
const CANDIDATES = [path.resolve(here, '../../shared/test/fixtures/tally-samples'), path.resolve(here, '../../../shared/reference/tally-samples')];
export const SAMPLES = CANDIDATES.find((dir) => fs.existsSync(path.join(dir, 'bridge'))) ?? CANDIDATES[1]!;

export function sampleBytes(relative: string): Buffer {
  return fs.readFileSync(path.join(SAMPLES, relative));
}

export function sampleText(relative: string): string {
  const bytes = sampleBytes(relative);
  return relative.includes('utf16') ? bytes.toString('utf16le') : bytes.toString('utf8');
}

export function sampleTree(relative: string): XNode {
  return parseXml(sampleText(relative));
}

/** The objects of a native export: under DATA/COLLECTION, or one per DATA/TALLYMESSAGE. */
export function exportedObjects(root: XNode): XNode[] {
  const data = root.children.find((c) => c.tag === 'BODY')?.children.find((c) => c.tag === 'DATA');
  const collection = data?.children.find((c) => c.tag === 'COLLECTION');
  if (collection) return collection.children;
  return (data?.children ?? []).filter((c) => c.tag === 'TALLYMESSAGE').flatMap((m) => m.children);
}

export function shape(n: XNode, skip: Set<string> = new Set(), skipAttrs: Set<string> = new Set()): string[] {
  const out: string[] = [];
  const walk = (node: XNode, depth: number) => {
    const attrs = Object.keys(node.attrs)
      .filter((k) => !(depth === 0 && skipAttrs.has(k)))
      .map((k) => (k === 'TYPE' ? `TYPE=${node.attrs[k]}` : k))
      .join(',');
    out.push(`${depth}:${node.tag}[${attrs}]`);
    for (const c of node.children) if (!(depth === 0 && skip.has(c.tag))) walk(c, depth + 1);
  };
  walk(n, 0);
  return out;
}

/** FETCH list naming every top-level field of the sample objects (lists fetched whole). */
export function fetchFor(objects: XNode[]): string {
  const tags = new Set<string>();
  for (const o of objects) for (const c of o.children) tags.add(c.tag.replace(/\.LIST$/, ''));
  return [...tags].join(', ');
}
