// user_message and fix_by: every failure code and connection problem has a sentence an end user can act
// on, naming the ledger, voucher type, company or PC the books' own text named.
import { describe, expect, it } from 'vitest';
import {
  classifyImportFailure,
  CONNECTION_PROBLEMS,
  connectionGuidance,
  failedJobGuidance,
  FIX_BY,
  JOB_ERROR_CODES,
} from '../src/index.js';

const payload = { voucher_type: 'Tax Invoice', voucher_number: 'INV-7', name: 'Mehta Stores' };

function guidanceForBooksText(text: string) {
  const failure = classifyImportFailure([text]);
  return { failure, guidance: failedJobGuidance({ error_code: failure.error_code, error_message: failure.error_message, payload }) };
}

describe('failedJobGuidance', () => {
  it('has a sentence and a fixer for every job error code', () => {
    for (const code of JOB_ERROR_CODES) {
      const guidance = failedJobGuidance({ error_code: code, error_message: null, payload: {} });
      expect(guidance.user_message, code).toMatch(/^[A-Z].{30,}[.]$/);
      expect(FIX_BY, code).toContain(guidance.fix_by);
      expect(guidance.user_message, code).not.toMatch(/undefined|null|\bjob\b|REMOTEID|<\w/);
    }
  });

  it('names the master, voucher type, bill and closed company the books named', () => {
    expect(guidanceForBooksText("Ledger 'Acme Retail' does not exist!").guidance).toEqual({
      user_message: 'TallyPrime has no ledger "Acme Retail" in this company. Create it in TallyPrime with exactly that name (or correct the name where the entry was made), then send the entry again.',
      fix_by: 'end_user',
    });
    expect(failedJobGuidance({ error_code: 'MASTER_NOT_FOUND', error_message: "Godown 'Back Room' does not exist!", payload }).user_message).toMatch(/^TallyPrime has no godown "Back Room"/);
    expect(guidanceForBooksText("Stock Item 'Widget 9mm' does not exist!").guidance.user_message).toMatch(/^TallyPrime has no stock item "Widget 9mm" in this company/);
    expect(guidanceForBooksText("Voucher Type 'GST Sale' does not exist!").guidance).toEqual({
      user_message: expect.stringMatching(/^TallyPrime has no voucher type "GST Sale" in this company\. Create it in TallyPrime/),
      fix_by: 'end_user',
    });
    expect(guidanceForBooksText("Could not set 'SVCurrentCompany' to 'Sharma Traders 2026'").guidance).toEqual({
      user_message: expect.stringContaining('but the company "Sharma Traders 2026" is not open in it: open that company in TallyPrime'),
      fix_by: 'end_user',
    });
    expect(guidanceForBooksText("Bill 'INV-1009' is not pending for Ledger 'Ram & Sons'").guidance).toEqual({
      user_message: expect.stringMatching(/^The bill "INV-1009" is not pending in TallyPrime for this party/),
      fix_by: 'integrator',
    });
    expect(guidanceForBooksText('Voucher totals do not match! Dr: 1,180.00 Cr: 1,000.00').guidance.fix_by).toBe('integrator');
  });

  it('falls back to the books\' cleaned text, for support, when the code says nothing more', () => {
    const { guidance } = guidanceForBooksText('Something TallyPrime has never said before');
    expect(guidance.fix_by).toBe('support');
    expect(guidance.user_message).toContain('Something TallyPrime has never said before');
    expect(guidance.user_message).toMatch(/contact support with this transaction's id\.$/);
  });

  it('uses the write summary where the books text has no name: the voucher type of a mismatch', () => {
    expect(failedJobGuidance({ error_code: 'VOUCHER_TYPE_MISMATCH', error_message: 'x', payload }).user_message).toContain('"Tax Invoice"');
    expect(failedJobGuidance({ error_code: 'MASTER_ALREADY_EXISTS', error_message: 'x', payload }).user_message).toContain('"Mehta Stores"');
  });
});

describe('connectionGuidance', () => {
  it('names the PC and the company when known, and asks the end user', () => {
    for (const problem of CONNECTION_PROBLEMS) {
      const known = connectionGuidance(problem, { machine: 'SHOP-PC', books_company_name: 'Sharma Traders' });
      expect(known.fix_by).toBe('end_user');
      if (problem !== 'company_disconnected') expect(known.user_message, problem).toContain('the PC "SHOP-PC"');
      const unknown = connectionGuidance(problem);
      expect(unknown.user_message, problem).not.toMatch(/undefined|null|""/);
    }
    expect(connectionGuidance('company_not_open', { machine: 'SHOP-PC', books_company_name: 'Sharma Traders' }).user_message).toContain('the company "Sharma Traders" is not open');
  });
});
