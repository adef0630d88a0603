// Every code in the error catalogue is documented in docs/errors.md with its status; every failed
// transaction's error_code and every waiting reason with the fix_by the API gives for it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '@ledgerwire/relay';
import { connectionGuidance, failedJobGuidance, isConnectionProblem, JOB_ERROR_CODES, onTheWayGuidance, WAITING_REASON_CODES } from '@ledgerwire/shared';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('error catalogue', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/errors.md'), 'utf8');
  it.each(Object.entries(errorCatalogue))('%s is documented with its status', (code, entry) => {
    expect(doc).toMatch(new RegExp(`^\\| ${code} \\| ${entry.status} \\|`, 'm'));
  });
});

describe('end-user guidance', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/errors.md'), 'utf8');
  it.each(JOB_ERROR_CODES)('failed transaction code %s is documented with its fix_by', (code) => {
    const { fix_by } = failedJobGuidance({ error_code: code, error_message: null, payload: {} });
    expect(doc).toMatch(new RegExp(`^\\| ${code} \\| ${fix_by} \\|`, 'm'));
  });
  it.each(WAITING_REASON_CODES)('waiting reason %s is documented with its fix_by', (code) => {
    const { fix_by } = isConnectionProblem(code) ? connectionGuidance(code) : onTheWayGuidance(1);
    expect(doc).toMatch(new RegExp(`^\\| ${code} \\| ${fix_by} \\|`, 'm'));
  });
});
