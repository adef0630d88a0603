// TallyPrime's text formats, the TDL formula subset and the command-line options, as pure functions.
import { describe, expect, it } from 'vitest';
import { parseCliOptions } from '../src/config/cli-options.js';
import { evaluateFormula, UnsupportedTdlError, type FormulaScope, type TdlValue } from '../src/export/tdl-formula.js';
import { dayNumber, formatAmount, formatQuantity, formatRate, nameKey, parseAmount, parseQuantity, parseTallyDate } from '../src/tally-format.js';

describe('TallyPrime text formats', () => {
  it('dates: YYYYMMDD, d-Mmm-yyyy and dd/mm/yyyy in, day numbers as in VCHKEYs', () => {
    expect(parseTallyDate('20240401')).toBe('20240401');
    expect(parseTallyDate('1-Apr-2024')).toBe('20240401');
    expect(parseTallyDate('01-aug-26')).toBe('20260801');
    expect(parseTallyDate('31/03/2025')).toBe('20250331');
    expect(parseTallyDate('20250230')).toBeUndefined();
    expect(dayNumber('20260707')).toBe(46209);
    expect(dayNumber('20260801')).toBe(0xb49a);
  });

  it('signed amounts, forex text, quantities with units and rates per unit', () => {
    expect(parseAmount('-1180.00')).toBe(-118000);
    expect(parseAmount('$20 @ ₹ 75/$ = ₹ 1500')).toBe(150000);
    expect(parseAmount('(-)25.50')).toBe(-2550);
    expect(parseAmount('')).toBeUndefined();
    expect(formatAmount(-5)).toBe('-0.05');
    expect(formatAmount(1234567)).toBe('12345.67');
    expect(parseQuantity(' 10 Nos')).toEqual({ quantity: 10, unit: 'Nos' });
    expect(formatQuantity(10, 'Nos')).toBe(' 10 Nos');
    expect(formatRate(100, 'Nos')).toBe('100.00/Nos');
  });

  it('name keys: case, outer spaces, hyphen/space and the system mark tolerated; & and and differ', () => {
    expect(nameKey('  Sales-Goods ')).toBe(nameKey('sales goods'));
    expect(nameKey('\u0004 Primary')).toBe('primary');
    expect(nameKey('Freight & Cartage')).not.toBe(nameKey('Freight and Cartage'));
    expect(nameKey('Cafe\u0301')).not.toBe(nameKey('Caf\u00e9'));
  });
});

describe('TDL formulae', () => {
  const fields: Record<string, TdlValue> = { alterid: 42, date: { date: '20240415' }, iscancelled: false, name: 'Cash' };
  const scope: FormulaScope = {
    field: (name) => fields[name.toLowerCase()] ?? '',
    variable: (name) => (name.toLowerCase() === 'svfromdate' ? { date: '20240401' } : name.toLowerCase() === 'svtodate' ? { date: '20240430' } : 'Acme'),
  };
  it('evaluates comparisons, AND/OR/NOT, date windows and $$IsEqual', () => {
    expect(evaluateFormula('$AlterID > 41', scope)).toBe(true);
    expect(evaluateFormula('$AlterID > 42', scope)).toBe(false);
    expect(evaluateFormula('$Date >= ##SVFromDate AND $Date <= ##SVToDate', scope)).toBe(true);
    expect(evaluateFormula('$Date < "1-Apr-2024" OR NOT $IsCancelled', scope)).toBe(true);
    expect(evaluateFormula('$$IsEqual:$Name:"cash"', scope)).toBe(true);
    expect(evaluateFormula('($AlterID = 42) AND ($Name <> "Bank")', scope)).toBe(true);
  });

  it('refuses what it does not support instead of guessing', () => {
    expect(() => evaluateFormula('$$IsSales:$VoucherTypeName', scope)).toThrow(UnsupportedTdlError);
    expect(() => evaluateFormula('$Name =', scope)).toThrow(UnsupportedTdlError);
    expect(() => evaluateFormula('@@Something', scope)).toThrow(UnsupportedTdlError);
  });
});

describe('command-line options', () => {
  it('has the documented defaults and reads every flag', () => {
    expect(parseCliOptions([], '/work')).toEqual({ port: 9000, controlPort: 9001, dataDir: '/work/data/emulator', seed: 'demo', vouchers: 0, host: '127.0.0.1', load: [] });
    expect(parseCliOptions(['--port', '9100', '--control-port', '9101', '--data', '/tmp/x', '--seed', 'empty', '--vouchers', '5'], '/work')).toMatchObject({
      port: 9100, controlPort: 9101, dataDir: '/tmp/x', seed: 'empty', vouchers: 5,
    });
  });

  it('rejects unknown flags and bad values with a clear message', () => {
    expect(() => parseCliOptions(['--seed', 'huge'])).toThrow(/--seed must be one of demo, empty/);
    expect(() => parseCliOptions(['--port', 'x'])).toThrow(/--port needs a whole number/);
    expect(() => parseCliOptions(['--colour'])).toThrow(/unknown option --colour/);
  });
});
