// The connector's own page takes a connect link's setup code in its one field, as a shop owner types
// it (lower case, a space for the dash): the relay's connect session moves on; pairing the company on
// this page completes the session; and a second computer typing the used code is told so plainly.
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import { startConnectorService, type ConnectorHandle } from '../../src/index.js';
import { FAST } from '../helpers/connected-connector.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from '../helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from '../helpers/customer-relay.js';
import { ConnectorHomePage } from './pages/connector-home-page.js';

const browserAvailable = inject('browserAvailable');
const SLOW = { timeout: 30_000 };

describe.skipIf(!browserAvailable)('the connector page with a setup code', { timeout: 120_000 }, () => {
  let relay: CustomerRelay;
  let books: TestEmulator;
  const connectors: ConnectorHandle[] = [];
  let browser: Browser;

  beforeAll(async () => {
    [relay, books] = await Promise.all([startCustomerRelay(), startTestEmulator()]);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });
  afterAll(async () => {
    await browser?.close();
    for (const connector of connectors) await connector.stop();
    await relay?.close();
    await books?.close();
  });

  const startConnector = async () => {
    const connector = await startConnectorService({ dataDir: tempDataDir(), config: FAST });
    connectors.push(connector);
    connector.service.rememberRelayUrl(relay.baseUrl);
    await connector.service.setBooksUrl(books.xmlUrl);
    return connector;
  };

  it('enrols with the code, completes the session on pairing, and refuses the code on a second computer', async () => {
    const companyId = relay.companyIds[0] as number;
    const { connect_session: session } = await relay.api('POST', '/api/v1/connect-sessions', { customer_id: relay.customerId, company_id: companyId });
    const [booksCompany] = await books.companies();

    const first = await startConnector();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = new ConnectorHomePage(await context.newPage());
    await page.open(first.uiUrl);
    await page.enrol(relay.baseUrl, session.setup_code.toLowerCase().replace('-', ' '), 'counter-pc');
    await eventually('page.enrolResult().textContent() toMatch /Connected as con_/', async () => {
      expect(await page.enrolResult().textContent()).toMatch(/Connected as con_/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    await eventually('(await relay.api(\'GET\', `/api/v1/connect-sessions/${session.id}`)).connect_session.status toMatch /^(connector_enrolled|books_found)$/', async () => {
      expect(await (await relay.api('GET', `/api/v1/connect-sessions/${session.id}`)).connect_session.status).toMatch(/^(connector_enrolled|books_found)$/);
      return true;
    }, { timeoutMs: SLOW.timeout });

    await eventually('page.pairForm().count() toBe 1', async () => {
      expect(await page.pairForm().count()).toBe(1);
      return true;
    }, { timeoutMs: SLOW.timeout });
    await page.pair(booksCompany!.name, companyId);
    await eventually('(await relay.api(\'GET\', `/api/v1/connect-sessions/${session.id}`)).connect_session.status toBe \'completed\'', async () => {
      expect(await (await relay.api('GET', `/api/v1/connect-sessions/${session.id}`)).connect_session.status).toBe('completed');
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(page.problems).toEqual([]);

    const second = await startConnector();
    const other = new ConnectorHomePage(await context.newPage());
    await other.open(second.uiUrl);
    await other.enrol(relay.baseUrl, session.setup_code, 'back-office-pc');
    const refusal = other.page.getByRole('alert');
    await eventually('refusal.textContent() toMatch /Not connected:.*did not accept this setup code.*works once.*ask your software provider for a new link/', async () => {
      expect(await refusal.textContent()).toMatch(/Not connected:.*did not accept this setup code.*works once.*ask your software provider for a new link/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    await context.close();
  });
});
