// Support in the console finds out why a tenant's mail does not go out: an address a (simulated)
// hard bounce suppressed — shown with its reason and cleared, after which sends reach the outbox again
// — a send refused for a template that does not exist, shown with the reason the sender got, and
// messages found by tag and by metadata.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchChromium, openPage } from '../support/browser-session.js';
import { call, eventually, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ConsoleShell } from '../pages/console-shell.js';
import { ConsoleDeliverability } from '../pages/console-deliverability.js';

const BOUNCER = 'bounced@simulator.ledgerwire.test';

describe.skipIf(!browserAvailable())('console: deliverability', () => {
  let relay: ConsoleRelay;
  let browser: Browser;

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it('shows and clears a suppressed address, shows a refused send with its reason, and searches by tag and metadata', async (test) => {
    const op = { token: TEST_OPERATOR_TOKEN };
    const { tenant } = (await call<{ tenant: { id: string } }>(relay, 'POST', '/admin/v1/tenants', 201, { ...op, payload: { name: 'Bounce Co', org_id: 4201 } })).body;
    const { api_key: testKey } = (await call<{ api_key: string }>(relay, 'POST', `/admin/v1/tenants/${tenant.id}/api-keys`, 201, { ...op, payload: { mode: 'test' } })).body;
    await call(relay, 'POST', `/admin/v1/tenants/${tenant.id}/templates`, 201, { ...op, payload: { event_key: 'invoice_ready', channel: 'email', subject: 'Invoice {{n}}', html: '<p>Invoice {{n}}</p>' } });
    const send = (body: Record<string, unknown>, status: number) =>
      call<{ message_id?: string }>(relay, 'POST', '/api/messages/send', status, { token: testKey, payload: { channel: 'email', event_key: 'invoice_ready', data: { n: 1 }, ...body } }).then(({ body }) => body);
    await send({ to: BOUNCER, transaction_id: 'bounce-1', tags: ['invoice'], metadata: { invoice_id: 'INV-1042' } }, 200);
    await send({ to: 'ada@example.com', transaction_id: 'typo-1', event_key: 'invoice_redy' }, 422);
    await eventually('the simulated hard bounce suppresses the address', async () => {
      const { suppressions } = (await call<{ suppressions: unknown[] }>(relay, 'GET', '/api/suppressions', 200, { token: testKey })).body;
      return suppressions.length === 1 ? true : undefined;
    });

    const { page } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const panels = new ConsoleDeliverability(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    await panels.openTenant(tenant.id, 'Bounce Co');

    await expect(panels.suppressionRow(BOUNCER).innerText()).resolves.toContain('Hard bounce: the mailbox does not exist');
    await expect(panels.refusedRow('typo-1').innerText()).resolves.toMatch(/Invalid template \(event_key=invoice_redy, channel=email\)/);

    const question = await panels.clearSuppression(BOUNCER);
    expect(question).toContain('asked to receive mail again');
    await panels.suppressionsEmpty().waitFor();
    const { suppressions } = (await call<{ suppressions: unknown[] }>(relay, 'GET', '/api/suppressions', 200, { token: testKey })).body;
    expect(suppressions).toEqual([]);

    const byTag = await panels.searchMessages(tenant.id, { tag: 'invoice' });
    await byTag.getByRole('link', { name: BOUNCER }).waitFor();
    const byMetadata = await panels.searchMessages(tenant.id, { metadata: 'inv-104' });
    await byMetadata.getByRole('link', { name: BOUNCER }).waitFor();
    await panels.searchMessages(tenant.id, { metadata: 'INV-9999' });
    await page.getByText('No message matches this search').waitFor();
  });
});
