// voucher_kind comes from the reserved name of the built-in type a voucher type derives from — never
// from the display name, which customers rename.
import { describe, expect, it } from 'vitest';
import { RESERVED_VOUCHER_TYPE_NAMES, resolveReservedName, VOUCHER_KINDS, voucherKindFromReservedName } from '../src/index.js';

describe('voucherKindFromReservedName', () => {
  it('maps the contract kinds and every built-in type to a kind of its own', () => {
    expect(voucherKindFromReservedName('Sales')).toBe('sales');
    expect(voucherKindFromReservedName('Purchase')).toBe('purchase');
    expect(voucherKindFromReservedName('Receipt')).toBe('receipt');
    expect(voucherKindFromReservedName('Credit Note')).toBe('credit_note');
    expect(voucherKindFromReservedName('Sales Order')).toBe('sales_order');
    const kinds = RESERVED_VOUCHER_TYPE_NAMES.map(voucherKindFromReservedName);
    expect(new Set(kinds).size).toBe(RESERVED_VOUCHER_TYPE_NAMES.length);
    expect(kinds).not.toContain('other');
    expect([...kinds, 'other'].sort()).toEqual([...VOUCHER_KINDS].sort());
  });

  it('forgives spacing and case of the books\' own identifiers; anything else is other', () => {
    expect(voucherKindFromReservedName(' credit  NOTE ')).toBe('credit_note');
    expect(voucherKindFromReservedName('')).toBe('other');
    expect(voucherKindFromReservedName(undefined)).toBe('other');
    expect(voucherKindFromReservedName('Tax Invoice')).toBe('other');
  });
});

describe('resolveReservedName', () => {
  const types = new Map([
    ['Invoice', { reservedName: 'Sales', parent: 'Sales' }], // the built-in Sales, renamed
    ['Tax Invoice', { reservedName: '', parent: 'Invoice' }],
    ['Export Tax Invoice', { reservedName: '', parent: 'Tax Invoice' }],
    ['Loop A', { reservedName: '', parent: 'Loop B' }],
    ['Loop B', { reservedName: '', parent: 'Loop A' }],
    ['Orphan', { reservedName: '', parent: 'Gone' }],
    ['Bank Receipt', { reservedName: '', parent: 'Receipt' }],
  ]);

  it('walks custom types up to the built-in, through a renamed built-in', () => {
    expect(resolveReservedName('Export Tax Invoice', types)).toBe('Sales');
    expect(resolveReservedName('Invoice', types)).toBe('Sales');
  });

  it('takes a parent missing from the map as the built-in it is spelled as, and gives up on cycles and unknowns', () => {
    expect(resolveReservedName('Bank Receipt', types)).toBe('Receipt');
    expect(resolveReservedName('Loop A', types)).toBe('');
    expect(resolveReservedName('Orphan', types)).toBe('');
    expect(resolveReservedName('Sales', new Map())).toBe('');
  });
});
