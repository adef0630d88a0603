// Every code in the error catalogue is documented in docs/errors.md with its status.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCatalogue } from '@ledgerwire/relay';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('error catalogue', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/errors.md'), 'utf8');
  it.each(Object.entries(errorCatalogue))('%s is documented with its status', (code, entry) => {
    expect(doc).toMatch(new RegExp(`^\\| ${code} \\| ${entry.status} \\|`, 'm'));
  });
});
