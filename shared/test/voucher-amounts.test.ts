// Amounts, quantities and rates reach the books exactly as the caller wrote them, or are refused in
// words: the schema edges, the renderer's digits, the paise arithmetic of goods posted against a
// ledger line, and a round trip through the books emulator.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_COMPANY, startEmulator } from '@ledgerwire/emulator';
import { describe, expect, it } from 'vitest';
import {
  Amount,
  AMOUNT_LIMIT,
  BOOKS_REQUEST_CONTENT_TYPE,
  booksAmount,
  decodeBooksResponse,
  encodeBooksRequest,
  importSucceeded,
  parseImportResponse,
  parseVoucherExport,
  planInventoryPostings,
  Quantity,
  Rate,
  renderVoucherImport,
  voucherLookupRequest,
  VoucherDocumentIn,
  booksGuidFor,
  companyListRequest,
  parseCompanyList,
  type VoucherDocumentInput,
} from '../src/index.js';
import { booksNumber } from '../src/books-xml/xml-text.js';

function problem(schema: typeof Amount, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues.map((i) => i.message).join('; ');
}

/** A number as a JSON body carries it: the double nearest the digits written (which may not be them). */
const json = (text: string) => JSON.parse(text) as number;

const TOO_LARGE = 'must be less than 10,000,000,000,000 (ten lakh crore): larger amounts cannot be carried exactly';

describe('Amount', () => {
  it.each([
    [0, 0], [-0, 0], [0.01, 0.01], [0.07, 0.07], [1.5, 1.5], [118.5, 118.5], [9999999999999.99, 9999999999999.99],
    ['118.00', 118], [' 0012.30 ', 12.3], ['9999999999999.99', 9999999999999.99], ['1.500', 1.5],
  ])('takes %j as %j', (input, expected) => {
    expect(Amount.parse(input)).toBe(expected);
    expect(Object.is(Amount.parse(input), -0)).toBe(false);
  });

  it.each([
    // The reported defect: each of these was booked as a different amount.
    [json('90071992547409.93'), TOO_LARGE],
    [json('123456789012345678.99'), TOO_LARGE],
    [1e21, TOO_LARGE],
    [AMOUNT_LIMIT, TOO_LARGE],
    [10000000000000.01, TOO_LARGE],
    ['10000000000000.00', TOO_LARGE],
    ['123456789012345678.99', TOO_LARGE],
    [1.005, 'must have at most 2 decimal places (read as 1.005)'],
    [0.1 + 0.2, 'must have at most 2 decimal places (read as 0.30000000000000004)'],
    [json('9999999999999.999'), 'must have at most 2 decimal places (read as 9999999999999.998)'],
    [1e-7, 'must have at most 2 decimal places (read as 1e-7)'],
    // A string is judged by the digits written, even those a double would drop.
    ['0.070000000000000001', 'must have at most 2 decimal places (read as 0.070000000000000001)'],
    ['1.005', 'must have at most 2 decimal places (read as 1.005)'],
    [-0.01, 'must not be negative: give the size of the amount and say the side with is_debit'],
    ['-0.01', 'must not be negative: give the size of the amount and say the side with is_debit'],
    [Number.POSITIVE_INFINITY, 'must be a number'],
    [Number.NaN, 'must be a number'],
    ['1e5', 'must be a number'],
    [null, 'must be a number'],
  ])('refuses %j: %s', (input, message) => {
    expect(problem(Amount, input)).toBe(message);
  });

  it('every whole-paise amount below the limit is taken and rendered digit for digit', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const samples = ['0.00', '0.01', '0.07', '0.10', '1.00', '1.01', '9999999999999.99', '9999999999999.90', '5000000000000.05', '8796093022207.99'];
    for (let digits = 1; digits <= 13; digits += 1) {
      for (let i = 0; i < 500; i += 1) {
        const whole = Math.floor(next() * 10 ** digits);
        samples.push(`${whole}.${String(Math.floor(next() * 100)).padStart(2, '0')}`);
      }
    }
    for (const text of samples) {
      const amount = Amount.parse(JSON.parse(text));
      expect(booksAmount(amount, false)).toBe(text);
      expect(booksAmount(amount, true)).toBe(text === '0.00' ? '0.00' : `-${text}`);
    }
  });
});

describe('Quantity and Rate', () => {
  it.each([
    [2.5, '2.50'], [10, '10.00'], [0.000001, '0.000001'], [123456789.123456, '123456789.123456'], [1500000000, '1500000000.00'],
    ['0.250000', '0.25'], [123456789012.345, '123456789012.345'], [99999999999999.9, '99999999999999.90'],
  ])('take %j exactly and render it as %j', (input, written) => {
    const quantity = Quantity.parse(input);
    expect(Rate.parse(input)).toBe(quantity);
    expect(booksNumber(quantity)).toBe(written);
  });

  it.each([
    ['quantity', Quantity, 1.2345678, 'must have at most 6 decimal places (read as 1.2345678)'],
    ['rate', Rate, 1e-7, 'must have at most 6 decimal places (read as 1e-7)'],
    ['quantity', Quantity, 1234567890.123456, 'must have at most 15 digits in all, integer part and decimals (read as 1234567890.123456): longer numbers cannot be carried exactly'],
    ['rate', Rate, json('12345678901234567'), 'must have at most 15 digits in all, integer part and decimals (read as 12345678901234568): longer numbers cannot be carried exactly'],
    ['rate', Rate, 1e21, 'must have at most 15 digits in all, integer part and decimals (read as 1e+21): longer numbers cannot be carried exactly'],
    ['quantity', Quantity, 0, 'must be greater than 0'],
    ['quantity', Quantity, -1, 'must be greater than 0'],
    ['rate', Rate, -1, 'must not be negative'],
  ])('a %s refuses %j: %s', (_name, schema, input, message) => {
    expect(problem(schema as typeof Amount, input)).toBe(message);
  });

  it('a rate the renderer works out (amount ÷ quantity) is rounded to six places without noise digits', () => {
    expect(booksNumber(100 / 3)).toBe('33.333333');
    expect(booksNumber(1e13 / 3)).toBe('3333333333333.33');
    expect(booksNumber(1e-7)).toBe('0.00');
    expect(() => booksNumber(1e21)).toThrow(RangeError);
  });
});

describe('booksAmount', () => {
  it('writes the exact two-decimal text, debit negative, never -0.00', () => {
    expect(booksAmount(0.07, false)).toBe('0.07');
    expect(booksAmount(0.01, true)).toBe('-0.01');
    expect(booksAmount(0, true)).toBe('0.00');
    expect(booksAmount(-0, true)).toBe('0.00');
    expect(booksAmount(9999999999999.99, true)).toBe('-9999999999999.99');
    expect(booksAmount(1180, false)).toBe('1180.00');
  });

  it('refuses to write what it cannot write exactly, instead of rounding', () => {
    for (const amount of [1.005, 0.1 + 0.2, AMOUNT_LIMIT, json('90071992547409.93'), 1e21, Number.NaN]) {
      expect(() => booksAmount(amount, false), String(amount)).toThrow(RangeError);
    }
  });
});

describe('goods posted against a ledger line', () => {
  const ledger = (amount: number, isDebit = false) => ({ ledger_name: 'Sales', amount, is_debit: isDebit, is_party: false, bill_allocations: [] });
  const item = (amount: number, isDebit = false) => ({ amount, ledger_name: 'Sales', is_debit: isDebit });

  it('leave the rest of the line to the paisa, however many small items are taken off a large one', () => {
    const items = [...Array.from({ length: 100 }, () => item(0.01)), item(8999999999998)];
    const planned = planInventoryPostings([ledger(9000000000000)], items, false);
    expect(planned.ok && planned.plan.ledgerLines.map((l) => [l.amount, l.is_debit])).toEqual([[1, false]]);
  });

  it('a line that grows past the limit because goods post to it from the other side is refused, naming it', () => {
    const planned = planInventoryPostings([ledger(6000000000000)], [item(6000000000000, true)], false);
    expect(planned.ok).toBe(false);
    expect(!planned.ok && planned.issues.map((i) => i.path.join('.'))).toEqual(['ledger_entries.0.amount']);
  });
});

describe('in the books', () => {
  it('the largest amount and the smallest read back exactly as sent', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lw-shared-amounts-'));
    const emulator = await startEmulator({ port: 0, controlPort: 0, dataDir, seed: 'demo' });
    const post = async (xml: string) => {
      const response = await fetch(emulator.xmlUrl, { method: 'POST', headers: { 'content-type': BOOKS_REQUEST_CONTENT_TYPE }, body: encodeBooksRequest(xml) });
      expect(response.status).toBe(200);
      return decodeBooksResponse(new Uint8Array(await response.arrayBuffer()));
    };
    try {
      const document: VoucherDocumentInput = {
        voucher_number: 'LW-AMT-1', voucher_type: 'Journal', party_ledger: 'Office Rent', date: '2026-04-30',
        ledger_entries: [
          { ledger_name: 'Office Rent', amount: 9999999999999.99, is_debit: true },
          { ledger_name: 'Cash', amount: 9999999999999.92, is_debit: false },
          { ledger_name: 'HDFC Bank', amount: 0.07, is_debit: false },
        ],
      };
      expect(VoucherDocumentIn.safeParse(document).success).toBe(true);
      const xml = renderVoucherImport(document, { companyName: DEMO_COMPANY, remoteId: 'lw-amounts-1' });
      expect(xml.match(/<AMOUNT>[^<]*<\/AMOUNT>/g)).toEqual(['<AMOUNT>-9999999999999.99</AMOUNT>', '<AMOUNT>9999999999999.92</AMOUNT>', '<AMOUNT>0.07</AMOUNT>']);
      const response = parseImportResponse(await post(xml));
      expect(importSucceeded(response, 'create'), JSON.stringify(response)).toBe(true);
      const company = parseCompanyList(await post(companyListRequest())).find((c) => c.name === DEMO_COMPANY);
      const guid = booksGuidFor(company?.guid ?? '', response.counters?.lastVchId ?? 0);
      const [booked] = parseVoucherExport(await post(voucherLookupRequest({ companyName: DEMO_COMPANY, date: '2026-04-30', guid })));
      expect(booked?.ledger_entries.map((e) => [e.ledger_name, e.amount, e.is_debit])).toEqual([
        ['Office Rent', '9999999999999.99', true], ['Cash', '9999999999999.92', false], ['HDFC Bank', '0.07', false],
      ]);
    } finally {
      await emulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
