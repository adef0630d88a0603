// Master writes of all nine types: validation, the All Masters import shape, and a render → parse round
// trip that shows the pulled fields follow the contract's value rules.
import { describe, expect, it } from 'vitest';
import {
  MASTER_TYPES,
  masterWriteSchemaFor,
  parseBooksXml,
  parseMasterExport,
  PULLED_MASTER_FIELD_NAMES,
  renderMasterImport,
  renderMasterImportBatch,
  MasterRenderError,
  type MasterType,
} from '../src/index.js';

const COMPANY = 'Ledgerwire Demo Traders';

const SAMPLES: Record<MasterType, Record<string, unknown>> = {
  group: { name: 'Nested Debtors ', parent: 'Sundry Debtors', is_subledger: 'No', is_billwise: 'yes' },
  ledger: {
    name: 'Ram & Sons', aliases: ['R&S', 'राम'], parent: 'Sundry Debtors', opening_balance: -1500.5, gstin: '29AAACR1234A1Z5',
    gst_registration_type: 'Regular', mobile: '+91 98450 00000', email: 'accounts@ram.example', is_billwise: true,
  },
  currency: { name: '$', mailing_name: 'US Dollar', original_name: '$', expanded_symbol: 'USD', iso_code: 'USD', decimal_places: 2 },
  unit: { name: 'Box of 10', is_simple_unit: 'No', base_units: 'Box', additional_units: 'Nos', conversion: 10 },
  godown: { name: 'Warehouse <B>', parent: 'Main Location' },
  stock_group: { name: 'Electronics', parent: 'Primary', base_units: 'Nos', is_batchwise: 'No' },
  stock_category: { name: 'Standard' },
  stock_item: { name: 'Widget, 12mm', parent: 'Electronics', category: 'Standard', base_units: 'Nos', opening_balance: 100, gst_applicable: 'Yes' },
  voucher_type: { name: 'Tax Invoice', parent: 'Sales', numbering_method: 'Manual', prevent_duplicates: 'Yes', is_active: 'Yes', affects_stock: 'No' },
};

function objectOf(xml: string, tag: string): any {
  const root = parseBooksXml(xml) as any;
  expect(root.ENVELOPE.BODY.IMPORTDATA.REQUESTDESC.REPORTNAME).toBe('All Masters');
  return root.ENVELOPE.BODY.IMPORTDATA.REQUESTDATA.TALLYMESSAGE[0][tag][0];
}

describe('master write schemas', () => {
  it('has the nine types, each with a schema', () => {
    expect(MASTER_TYPES).toEqual(['group', 'ledger', 'currency', 'unit', 'godown', 'stock_group', 'stock_category', 'stock_item', 'voucher_type']);
    for (const type of MASTER_TYPES) expect(masterWriteSchemaFor(type).safeParse(SAMPLES[type]).success).toBe(true);
  });

  it('takes Yes/No in any case (or a JSON boolean) and writes Yes/No', () => {
    const ledger = masterWriteSchemaFor('ledger').parse(SAMPLES.ledger);
    expect(ledger.is_billwise).toBe('Yes');
    expect(masterWriteSchemaFor('group').parse(SAMPLES.group).is_billwise).toBe('Yes');
    const bad = masterWriteSchemaFor('group').safeParse({ name: 'G', is_revenue: 'maybe' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('must be "Yes" or "No"');
  });

  it('defaults aliases to an empty list and refuses an alias equal to the name', () => {
    expect(masterWriteSchemaFor('godown').parse({ name: 'G1' }).aliases).toEqual([]);
    const bad = masterWriteSchemaFor('godown').safeParse({ name: 'G1', aliases: ['G1'] });
    expect(bad.error?.issues[0]).toMatchObject({ path: ['aliases', 0], message: 'repeats the name; aliases are other names' });
  });

  it('needs a parent group for a ledger and a base type for a voucher type, and three parts for a compound unit', () => {
    expect(masterWriteSchemaFor('ledger').safeParse({ name: 'X' }).error?.issues[0]?.path).toEqual(['parent']);
    expect(masterWriteSchemaFor('voucher_type').safeParse({ name: 'X' }).error?.issues[0]?.path).toEqual(['parent']);
    expect(masterWriteSchemaFor('unit').safeParse({ name: 'Box of 10', is_simple_unit: 'No' }).error?.issues[0]?.message).toBe(
      'a compound unit needs base_units, additional_units and conversion');
  });
});

describe('renderMasterImport', () => {
  // EVIDENCE.md: `<LEDGER NAME="X" ACTION="Create"><NAME.LIST><NAME>X</NAME></NAME.LIST><PARENT>…` is the shape
  // ripu-nuvanta/tally_agent sends to live TallyPrime (its import builder; without NAME.LIST the books crashed).
  it('writes the name in the NAME attribute and a NAME.LIST under the object, aliases after the name', () => {
    const ledger = objectOf(renderMasterImport('ledger', SAMPLES.ledger as never, { companyName: COMPANY }), 'LEDGER');
    expect(ledger['@_NAME']).toBe('Ram & Sons');
    expect(ledger['@_ACTION']).toBe('Create');
    expect(ledger.NAME).toBeUndefined();
    expect(ledger['LANGUAGENAME.LIST']).toBeUndefined();
    expect(ledger['NAME.LIST'][0].NAME).toEqual(['Ram & Sons', 'R&S', 'राम']);
    expect([ledger.PARENT, ledger.OPENINGBALANCE, ledger.PARTYGSTIN, ledger.ISBILLWISEON, ledger.LEDGERMOBILE]).toEqual(
      ['Sundry Debtors', '-1500.50', '29AAACR1234A1Z5', 'Yes', '+91 98450 00000']);
  });

  it('renders every type with its own element and keeps the name verbatim', () => {
    for (const type of MASTER_TYPES) {
      const xml = renderMasterImport(type, SAMPLES[type] as never, { companyName: COMPANY });
      const tag = { group: 'GROUP', ledger: 'LEDGER', currency: 'CURRENCY', unit: 'UNIT', godown: 'GODOWN', stock_group: 'STOCKGROUP',
        stock_category: 'STOCKCATEGORY', stock_item: 'STOCKITEM', voucher_type: 'VOUCHERTYPE' }[type];
      // A unit travels as its inner NAME alone (tally_agent docs/tally-write-exploration-v4.md, Op 1 and D5).
      if (type === 'unit') expect([objectOf(xml, tag)['@_NAME'], objectOf(xml, tag).NAME, objectOf(xml, tag)['NAME.LIST']]).toEqual([undefined, SAMPLES.unit.name, undefined]);
      else expect(objectOf(xml, tag)['@_NAME']).toBe(SAMPLES[type].name);
    }
    expect(renderMasterImport('godown', SAMPLES.godown as never, { companyName: COMPANY })).toContain('NAME="Warehouse &lt;B&gt;"');
  });

  it('writes stock quantities with their unit, GST applicability in the books\' words, compound unit parts', () => {
    const item = objectOf(renderMasterImport('stock_item', SAMPLES.stock_item as never, { companyName: COMPANY }), 'STOCKITEM');
    expect([item.OPENINGBALANCE, item.GSTAPPLICABLE, item.BASEUNITS]).toEqual([' 100.00 Nos', 'Applicable', 'Nos']);
    const unit = objectOf(renderMasterImport('unit', SAMPLES.unit as never, { companyName: COMPANY }), 'UNIT');
    expect([unit.ISSIMPLEUNIT, unit.BASEUNITS, unit.ADDITIONALUNITS, unit.CONVERSION]).toEqual(['No', 'Box', 'Nos', '10.00']);
  });

  it('deletes and renames by the current name', () => {
    const deleted = objectOf(renderMasterImport('ledger', SAMPLES.ledger as never, { companyName: COMPANY, action: 'Delete' }), 'LEDGER');
    expect(deleted).toEqual({ '@_NAME': 'Ram & Sons', '@_ACTION': 'Delete', 'NAME.LIST': [{ NAME: ['Ram & Sons'] }] });
    const renamed = objectOf(renderMasterImport('godown', { name: 'New Store' }, { companyName: COMPANY, action: 'Alter', currentName: 'Old Store' }), 'GODOWN');
    expect([renamed['@_NAME'], renamed['NAME.LIST'][0].NAME]).toEqual(['Old Store', ['New Store']]);
  });

  it('refuses to delete or rename a unit (TallyPrime crashed on a unit delete with a NAME attribute)', () => {
    expect(() => renderMasterImport('unit', SAMPLES.unit as never, { companyName: COMPANY, action: 'Delete' })).toThrow(MasterRenderError);
    expect(() => renderMasterImport('unit', SAMPLES.unit as never, { companyName: COMPANY, action: 'Alter', currentName: 'Old' })).toThrow(/cannot be renamed/);
    // Aliases need NAME.LIST, which the books refuse on a unit ("BAD UNIT NAME"): refused, not dropped.
    expect(() => renderMasterImport('unit', { ...SAMPLES.unit, aliases: ['Box10'] } as never, { companyName: COMPANY })).toThrow(/cannot carry aliases/);
  });

  it('writes an opening balance exactly, or refuses one a number cannot carry exactly', () => {
    const ledger = (opening_balance: unknown) => ({ name: 'Big Party', parent: 'Sundry Debtors', opening_balance });
    expect(renderMasterImport('ledger', ledger(-9999999999999.99) as never, { companyName: COMPANY })).toContain('<OPENINGBALANCE>-9999999999999.99</OPENINGBALANCE>');
    expect(renderMasterImport('ledger', ledger(0.07) as never, { companyName: COMPANY })).toContain('<OPENINGBALANCE>0.07</OPENINGBALANCE>');
    for (const bad of [1e13, -123456789012345680, 1e21]) {
      expect(masterWriteSchemaFor('ledger').safeParse(ledger(bad)).error?.issues[0]?.message, String(bad)).toMatch(/^must be less than 10,000,000,000,000/);
    }
  });

  it('refuses an invalid master with the problems listed', () => {
    expect(() => renderMasterImport('ledger', { name: '' } as never, { companyName: COMPANY })).toThrow(MasterRenderError);
  });

  it('batches masters of several types in one request', () => {
    const xml = renderMasterImportBatch(COMPANY, [{ type: 'group', document: SAMPLES.group }, { type: 'ledger', document: { name: 'L', parent: 'Nested Debtors ' } }]);
    const messages = (parseBooksXml(xml) as any).ENVELOPE.BODY.IMPORTDATA.REQUESTDATA.TALLYMESSAGE;
    expect(messages.map((m: any) => Object.keys(m).find((k) => k === 'GROUP' || k === 'LEDGER'))).toEqual(['GROUP', 'LEDGER']);
  });
});

describe('render → parse round trip of masters', () => {
  for (const type of MASTER_TYPES) {
    it(`${type}: pulled fields follow the value rules`, () => {
      const [pulled] = parseMasterExport(type, renderMasterImport(type, SAMPLES[type] as never, { companyName: COMPANY }));
      expect(pulled?.name).toBe(SAMPLES[type].name);
      expect(pulled?.aliases).toEqual(SAMPLES[type].aliases ?? []);
      const fields = pulled?.fields ?? {};
      for (const field of PULLED_MASTER_FIELD_NAMES[type]) expect(typeof fields[field]).toBe('string');
      if ('is_billwise' in fields) expect(['Yes', 'No']).toContain(fields.is_billwise);
    });
  }

  it('keeps the values as the books write them', () => {
    const [ledger] = parseMasterExport('ledger', renderMasterImport('ledger', SAMPLES.ledger as never, { companyName: COMPANY }));
    expect(ledger?.fields).toEqual({
      parent: 'Sundry Debtors', currency: '', opening_balance: '-1500.50', gstin: '29AAACR1234A1Z5', gst_registration_type: 'Regular',
      mobile: '+91 98450 00000', email: 'accounts@ram.example', is_billwise: 'Yes',
    });
    const [group] = parseMasterExport('group', renderMasterImport('group', SAMPLES.group as never, { companyName: COMPANY }));
    expect(group?.name).toBe('Nested Debtors ');
    const [voucherType] = parseMasterExport('voucher_type', renderMasterImport('voucher_type', SAMPLES.voucher_type as never, { companyName: COMPANY }));
    expect(voucherType?.fields).toMatchObject({ parent: 'Sales', reserved_name: 'Sales', numbering_method: 'Manual', is_active: 'Yes', affects_stock: 'No' });
  });
});
