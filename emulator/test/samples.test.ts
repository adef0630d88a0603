// The captured TallyPrime samples: native import answers have the same shape as ours, and native
// exports parse back into objects that import and re-export in the same shape.
import { describe, expect, it } from 'vitest';
import { counters, entry, importData, postUtf16, postXml, startTestEmulator, voucher } from './helpers.js';
import { exportedObjects, fetchFor, sampleBytes, sampleText, sampleTree, shape } from './sample-files.js';
import { renderCompact, type XNode } from '../src/xml/xml-tree.js';
import { prepareReferences } from './sample-references.js';

const IDENTITY = new Set(['GUID', 'MASTERID', 'ALTERID', 'VOUCHERKEY']);

/** A captured object as an import sends it: masters need an inner name (exports without one are redacted). */
function asImport(o: XNode): XNode {
  const named = o.children.some((c) => c.tag === 'NAME' || c.tag === 'LANGUAGENAME.LIST');
  if (o.tag === 'VOUCHER' || named) return o;
  return { ...o, children: [{ tag: 'NAME', attrs: {}, text: o.attrs.NAME ?? '', children: [] }, ...o.children] };
}

function dayBookRequest(from: string, to: string): string {
  return `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Data</TYPE><ID>Day Book</ID></HEADER><BODY><DESC><STATICVARIABLES><SVFROMDATE>${from}</SVFROMDATE><SVTODATE>${to}</SVTODATE></STATICVARIABLES></DESC></BODY></ENVELOPE>`;
}

async function roundTrip(file: string, type: string, options: { from?: string; to?: string; dayBook?: boolean; trimmed?: boolean } = {}): Promise<void> {
  const t = await startTestEmulator('demo');
  try {
    const objects = exportedObjects(sampleTree(file));
    expect(objects.length).toBeGreaterThan(0);
    await prepareReferences(t.emulator.xmlUrl, objects);
    const answer = counters(await postUtf16(t.emulator.xmlUrl, importData(objects.map((o) => renderCompact(asImport(o))).join(''))));
    expect(answer.lineErrors).toEqual([]);
    expect((answer.created as number) + (answer.altered as number)).toBe(objects.length);
    const request = options.dayBook ? dayBookRequest(options.from!, options.to!) : collectionRequest(type, fetchFor(objects), options);
    const ours = exportedObjects(sampleTreeFromText(await postUtf16(t.emulator.xmlUrl, request)));
    const byKey = (o: XNode, i: number) => (type === 'Voucher' ? String(i) : (o.attrs.NAME ?? '').toLowerCase());
    const mine = new Map(ours.map((o, i) => [byKey(o, i), o]));
    objects.forEach((sample, i) => {
      const found = mine.get(byKey(sample, i));
      expect(found, `${file}: object ${byKey(sample, i)}`).toBeDefined();
      const sampleTags = new Set(sample.children.map((c) => c.tag));
      // Tally-MCP's captures were trimmed by their maintainers: only the fields they kept are compared.
      const ourTags = found!.children.map((c) => c.tag);
      const extra = new Set(options.trimmed ? ourTags.filter((tag) => !sampleTags.has(tag)) : [...IDENTITY].filter((tag) => !sampleTags.has(tag)));
      // Identity TallyPrime always has may be missing from a trimmed capture; ours always carries it.
      const extraAttrs = new Set(['REMOTEID', 'VCHKEY'].filter((a) => sample.attrs[a] === undefined));
      expect(shape(found!, extra, extraAttrs), `${file}: ${byKey(sample, i)}`).toEqual(shape(sample));
    });
  } finally {
    await t.close();
  }
}

function sampleTreeFromText(text: string): XNode {
  return parseXmlText(text);
}

import { parseXml as parseXmlText } from '../src/xml/xml-tree.js';

function collectionRequest(type: string, fetch: string, options: { from?: string; to?: string }): string {
  const dates = `${options.from ? `<SVFROMDATE>${options.from}</SVFROMDATE>` : ''}${options.to ? `<SVTODATE>${options.to}</SVTODATE>` : ''}`;
  return `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Collection</TYPE><ID>Probe</ID></HEADER><BODY><DESC><STATICVARIABLES><SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>${dates}</STATICVARIABLES><TDL><TDLMESSAGE><COLLECTION NAME="Probe"><TYPE>${type}</TYPE><FETCH>${fetch}</FETCH></COLLECTION></TDLMESSAGE></TDL></DESC></BODY></ENVELOPE>`;
}

describe('native import answers', () => {
  it('a ledger create answers exactly like live_education_w1', async () => {
    const t = await startTestEmulator('demo');
    try {
      const text = await postXml(t.emulator.xmlUrl, importData('<LEDGER NAME="Sample Ledger" ACTION="Create"><NAME>Sample Ledger</NAME><PARENT>Sundry Debtors</PARENT></LEDGER>'));
      expect(text.trim()).toBe(sampleText('bridge/live_education_w1_ledger_sanitized.xml').trim());
      const vch = await postXml(t.emulator.xmlUrl, importData(voucher('Journal', entry('Office Rent', '-1.00') + entry('Cash', '1.00'))));
      expect(vch.trim().replace(/<LASTVCHID>\d+/, '<LASTVCHID>295')).toBe(sampleText('bridge/live_education_w4_voucher_sanitized.xml').trim());
      const refused = await postXml(t.emulator.xmlUrl, importData(voucher('Journal', entry('Office Rent', '-1.00') + entry('Cash', '1.00'), { date: 'not-a-date' })));
      expect(refused.trim().replace(/<LINEERROR>[^<]*<\/LINEERROR>/, '<LINEERROR>REDACTED_LIVE_LINEERROR</LINEERROR>')).toBe(sampleText('bridge/live_education_w7_baddate_sanitized.xml').trim());
      expect(counters(refused).lineErrors).toEqual(['Voucher date is missing for: &apos;Journal&apos; voucher .']);
    } finally {
      await t.close();
    }
  });
});

describe('native exports re-export in the same shape', () => {
  it.each([
    ['bridge/group_snapshot_wr2.xml', 'Group'],
    ['bridge/group_snapshot_wr2_with_identity.utf16le.xml', 'Group'],
    ['bridge/ledgers_native_wr2_core_window.xml', 'Ledger'],
    ['bridge/ledger_snapshot_validation_lab.xml', 'Ledger'],
    ['bridge/unit_a_invalid_char_ref_live.xml', 'Ledger'],
    ['bridge/voucher_types_native_wr2.xml', 'VoucherType'],
    ['Tally-MCP/ledger-list.xml', 'Ledger'],
    ['Tally-MCP/groups.xml', 'Group'],
    ['Tally-MCP/voucher-types.xml', 'VoucherType'],
    ['Tally-MCP/stock-items-populated.xml', 'StockItem'],
  ])('%s', async (file, type) => {
    await roundTrip(file, type, { trimmed: file.startsWith('Tally-MCP') });
  });

  it.each([
    ['bridge/vouchers_native_wr2.xml', '20260801', '20260801'],
    ['bridge/unit_a_optional_voucher_live.xml', '20250401', '20270331'],
    ['bridge/unit_a_vouchers_wildcard_live.xml', '20250401', '20270331'],
    ['bridge/response-illegal-svtodate-bound-dropped-wr2.utf16le.xml', '20250401', '20270331'],
  ])('%s', async (file, from, to) => {
    await roundTrip(file, 'Voucher', { from, to });
  });

  it.each([['Tally-MCP/day-book.xml'], ['Tally-MCP/day-book-trading.xml']])('%s (Day Book data export)', async (file) => {
    await roundTrip(file, 'Voucher', { from: '20250401', to: '20270331', dayBook: true });
  });

  it('company collections: same fields and shape for the loaded companies', async () => {
    const t = await startTestEmulator('demo');
    try {
      for (const file of ['bridge/company_collection_live.xml', 'bridge/unit_a_company_extent_live.xml', 'Tally-MCP/company-list.xml']) {
        const sample = exportedObjects(sampleTree(file));
        const ours = exportedObjects(parseXmlText(await postXml(t.emulator.xmlUrl, collectionRequest('Company', fetchFor(sample), {}))));
        expect(ours).toHaveLength(2);
        expect(shape(ours[0]!)).toEqual(shape(sample[0]!));
      }
    } finally {
      await t.close();
    }
  });

  it('an empty voucher window answers byte for byte like the UTF-16 capture', async () => {
    const t = await startTestEmulator('demo');
    try {
      const request = Buffer.from(collectionRequest('Voucher', 'Date', { from: '20260401', to: '20260430' }), 'utf16le');
      const response = await fetch(t.emulator.xmlUrl, { method: 'POST', body: request, headers: { 'Content-Type': 'text/xml;charset=utf-16' } });
      const bytes = Buffer.from(await response.arrayBuffer());
      // CMPINFO numbers are not object counts (they move on every write), so they are masked.
      const mask = (b: Buffer) => b.toString('utf16le').replace(/(<(\w+)>)\d+(<\/\2>)/g, '$10$3');
      const sample = sampleBytes('bridge/empty_voucher_window_wr2.utf16le.xml');
      expect(bytes.length).toBe(sample.length);
      expect(mask(bytes)).toBe(mask(sample));
    } finally {
      await t.close();
    }
  });
});
