// The console's health at a glance carries the end user's sentence for each connection problem, the
// same one the bridge's health endpoint gives (shared connectionGuidance), and none when healthy.
import type { ConsoleCompanyOverviewOut } from '@ledgerwire/shared';
import { connectionGuidance } from '@ledgerwire/shared';
import { describe, expect, it } from 'vitest';
import { companyHealth } from '../../src/console/app/company-health.js';

const healthy = {
  paired: true,
  connector_machine: 'GODAVARI-PC',
  connector_online: true,
  books_running: true,
  company_open: true,
  books_company_name: 'Godavari Traders 2027',
} as unknown as ConsoleCompanyOverviewOut;

describe('companyHealth', () => {
  it('says nothing to the end user when the company is healthy', () => {
    expect(companyHealth(healthy)).toMatchObject({ label: 'Healthy', userMessage: null, fixBy: null });
  });

  it.each([
    ['company_disconnected', { paired: false }, 'Not paired'],
    ['connector_offline', { connector_online: false }, 'Connector offline'],
    ['books_not_running', { books_running: false }, 'Books not running'],
    ['company_not_open', { company_open: false }, 'Company not open'],
  ] as const)('%s: the end user is told the bridge API\'s sentence', (problem, change, label) => {
    const health = companyHealth({ ...healthy, ...change });
    const expected = connectionGuidance(problem, { machine: 'GODAVARI-PC', books_company_name: 'Godavari Traders 2027' });
    expect(health).toMatchObject({ label, userMessage: expected.user_message, fixBy: 'end_user' });
  });

  it('names the PC and the company in the sentence', () => {
    expect(companyHealth({ ...healthy, company_open: false }).userMessage).toContain('"Godavari Traders 2027" is not open');
    expect(companyHealth({ ...healthy, connector_online: false }).userMessage).toContain('"GODAVARI-PC"');
  });
});
