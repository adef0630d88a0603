// Import answers of the books, in both envelope styles, judged by the strict success rule; and the
// failures classified into the service's error codes with a message free of XML and internals.
import { describe, expect, it } from 'vitest';
import { booksGuidFor, classifyImportFailure, describeImportFailure, importSucceeded, parseImportResponse, sanitiseBooksText } from '../src/index.js';
import { sample as capture } from './helpers/tally-samples.js';

const sample = (name: string) => capture(`bridge/${name}`);

describe('parseImportResponse on captured answers', () => {
  it('reads a ledger create (legacy RESPONSE, ten counters) as a success', () => {
    const response = parseImportResponse(sample('live_education_w1_ledger_sanitized.xml'));
    expect(response.style).toBe('legacy');
    expect(response.counters).toEqual({ created: 1, altered: 0, deleted: 0, lastVchId: 0, lastMid: 0, combined: 0, ignored: 0, errors: 0, cancelled: 0, exceptions: 0 });
    expect(importSucceeded(response, 'create')).toBe(true);
    expect(importSucceeded(response, 'alter')).toBe(false);
  });

  it('reads LASTVCHID of a voucher create, from which the voucher GUID follows', () => {
    const response = parseImportResponse(sample('live_education_w4_voucher_sanitized.xml'));
    expect(response.counters?.lastVchId).toBe(295);
    expect(importSucceeded(response, 'upsert')).toBe(true);
    // As in the captured GUIDs: MASTERID 4189 → …-0000105d.
    expect(booksGuidFor('bb8ad19e-6aef-4239-a917-87fec0c6215e', 4189)).toBe('bb8ad19e-6aef-4239-a917-87fec0c6215e-0000105d');
    expect(() => booksGuidFor('x', 0)).toThrow();
  });

  it('fails a rejected voucher counted under EXCEPTIONS with its LINEERROR first', () => {
    const response = parseImportResponse(sample('live_education_w7_baddate_sanitized.xml'));
    expect(response.lineErrors).toEqual(['REDACTED_LIVE_LINEERROR']);
    expect(response.counters?.exceptions).toBe(1);
    expect(importSucceeded(response, 'create')).toBe(false);
    expect(describeImportFailure(response)).toEqual({
      error_code: 'BOOKS_IMPORT_FAILED', error_label: 'Import failed', error_message: 'The books refused the import: REDACTED_LIVE_LINEERROR',
    });
  });
});

describe('parseImportResponse on the other shapes', () => {
  it('reads the VERSION-1 envelope with IMPORTRESULT and LINEERROR beside it', () => {
    const xml = '<ENVELOPE><HEADER><VERSION>1</VERSION><STATUS>0</STATUS></HEADER><BODY><DATA><IMPORTRESULT><CREATED>0</CREATED><ALTERED>0</ALTERED>' +
      '<DELETED>0</DELETED><LASTVCHID>0</LASTVCHID><LASTMID>0</LASTMID><COMBINED>0</COMBINED><IGNORED>0</IGNORED><ERRORS>1</ERRORS>' +
      "<CANCELLED>0</CANCELLED><EXCEPTIONS>0</EXCEPTIONS></IMPORTRESULT><LINEERROR>Ledger 'Ram &amp; Sons ' does not exist!</LINEERROR></DATA></BODY></ENVELOPE>";
    const response = parseImportResponse(xml);
    expect([response.style, response.status, response.counters?.errors]).toEqual(['envelope', 0, 1]);
    expect(response.lineErrors).toEqual(["Ledger 'Ram & Sons ' does not exist!"]);
    expect(importSucceeded(response, 'create')).toBe(false);
    expect(describeImportFailure(response).error_code).toBe('MASTER_NOT_FOUND');
  });

  it('recognises "Unknown Request" (no counters) as a failure', () => {
    const response = parseImportResponse('<RESPONSE>Unknown Request, cannot be processed</RESPONSE>\r\n');
    expect([response.style, response.counters, response.rawText]).toEqual(['unknown_request', null, 'Unknown Request, cannot be processed']);
    expect(importSucceeded(response, 'upsert')).toBe(false);
    expect(describeImportFailure(response).error_message).toBe('The books could not read the import request.');
  });

  it('does not throw on an answer that is not XML', () => {
    expect(parseImportResponse('<RESPONSE><CREATED>1</CREATED').style).toBe('unreadable');
  });

  it('reads an answer cut short between two counters as unreadable, not as a success', () => {
    const cut = parseImportResponse('<RESPONSE><CREATED>1</CREATED><ALTERED>0</ALTERED>\r\n');
    expect(cut.style).toBe('unreadable');
    expect(importSucceeded(cut, 'upsert')).toBe(false);
    expect(parseImportResponse('<?xml version="1.0"?>\r\n<RESPONSE><CREATED>1</CREATED><ERRORS>0</ERRORS></RESPONSE >\r\n').style).toBe('legacy');
  });

  it('applies every part of the strict rule', () => {
    const make = (counters: string, extra = '') => parseImportResponse(`<RESPONSE>${extra}${counters}</RESPONSE>`);
    const ok = '<CREATED>1</CREATED><ALTERED>0</ALTERED><DELETED>0</DELETED><ERRORS>0</ERRORS><EXCEPTIONS>0</EXCEPTIONS>';
    expect(importSucceeded(make(ok), 'create')).toBe(true);
    expect(importSucceeded(make(ok, '<LINEERROR>x</LINEERROR>'), 'create')).toBe(false);
    expect(importSucceeded(make(ok.replace('<ERRORS>0', '<ERRORS>1')), 'create')).toBe(false);
    expect(importSucceeded(make(ok.replace('<EXCEPTIONS>0', '<EXCEPTIONS>1')), 'create')).toBe(false);
    expect(importSucceeded(make(ok.replace('<CREATED>1', '<CREATED>0')), 'create')).toBe(false);
    // A failed alter that created a duplicate is not an alter.
    expect(importSucceeded(make(ok), 'alter')).toBe(false);
    expect(importSucceeded(make(ok.replace('<CREATED>1', '<CREATED>0').replace('<ALTERED>0', '<ALTERED>1')), 'upsert')).toBe(true);
    expect(importSucceeded(make(ok.replace('<CREATED>1', '<CREATED>0').replace('<DELETED>0', '<DELETED>1')), 'delete')).toBe(true);
    // Two objects sent, one created: partial success is not success.
    expect(importSucceeded(make(ok), 'create', 2)).toBe(false);
  });

  it('explains EXCEPTIONS without a LINEERROR (a refused duplicate number)', () => {
    const response = parseImportResponse('<RESPONSE><CREATED>0</CREATED><ERRORS>0</ERRORS><EXCEPTIONS>1</EXCEPTIONS></RESPONSE>');
    expect(describeImportFailure(response).error_message).toContain('voucher number already used');
  });
});

describe('classifyImportFailure', () => {
  const cases: [string, string, string][] = [
    ["Could not set 'SVCurrentCompany' to 'Bridge Ageing Lab'", 'COMPANY_NOT_OPEN', 'The company "Bridge Ageing Lab" is not open in the books. Open it in TallyPrime.'],
    ["Ledger 'Ram & Sons ' does not exist!", 'MASTER_NOT_FOUND', 'The ledger "Ram & Sons " does not exist in the company. Create it, or correct the name: names must match exactly, including case and spaces.'],
    ["Stock Item 'Widget 12mm' does not exist!", 'MASTER_NOT_FOUND', 'The stock item "Widget 12mm" does not exist in the company. Create it, or correct the name: names must match exactly, including case and spaces.'],
    ["Godown 'Warehouse C' does not exist!", 'MASTER_NOT_FOUND', 'The godown "Warehouse C" does not exist in the company. Create it, or correct the name: names must match exactly, including case and spaces.'],
    ["Voucher Type 'Tax Invoice' does not exist!", 'VOUCHER_TYPE_NOT_FOUND', 'The voucher type "Tax Invoice" does not exist in the company. Use a voucher type the company has (names match exactly).'],
    ['Voucher totals do not match! Dr. 1,180.00 Cr 1,000.00 Diff: 180.00', 'UNBALANCED_ENTRIES', 'The debits and credits of the voucher do not balance (debits 1,180.00, credits 1,000.00). Make the debit and credit entries net to zero.'],
    ["Bill 'INV-9' is not pending for Ledger 'Ram & Sons'!", 'BILL_NOT_OUTSTANDING', 'The bill "INV-9" is not outstanding for "Ram & Sons". An "Agst Ref" allocation must name an open bill of that party.'],
    ['GST is not enabled for this Company!', 'GST_VALIDATION_FAILED', 'The books refused the GST details: GST is not enabled for this Company!. Correct the gst block; the company needs GST enabled.'],
    ["Voucher date is missing for: 'Journal' voucher BRIDGE-PROBE-VCH-002.", 'BOOKS_IMPORT_FAILED', "The books refused the voucher date. Check it lies within the company's books period; TallyPrime in Educational mode only accepts the 1st, 2nd and last day of a month."],
    ['No Company is Open', 'COMPANY_NOT_OPEN', 'No company is open in the books. Open the company in TallyPrime.'],
  ];
  for (const [text, code, message] of cases) {
    it(`${code}: ${text}`, () => {
      const failure = classifyImportFailure([text]);
      expect(failure.error_code).toBe(code);
      expect(failure.error_message).toBe(message);
      expect(failure.error_label.length).toBeGreaterThan(0);
    });
  }

  it('never passes XML, stacks or paths through', () => {
    const failure = classifyImportFailure(['<LINEERROR>Internal Error at Foo.bar (C:\\Tally\\tally.exe) in /opt/x/y.tdl</LINEERROR>']);
    expect(failure.error_code).toBe('BOOKS_IMPORT_FAILED');
    expect(failure.error_message).not.toMatch(/[<>]|C:\\|\/opt\//);
    expect(sanitiseBooksText('a <b>c</b> &amp; d')).toBe('a c d');
  });

  it('falls back to a plain message with no texts at all', () => {
    expect(classifyImportFailure([]).error_message).toBe('The books refused the import without giving a reason.');
  });
});
