// A connector started in-process against a real relay and the emulator, enrolled with the customer
// token and paired to the emulator's demo company: what a user has after setting it up.
import { eventually } from '@ledgerwire/test-kit';
import { startConnectorService, type ConnectorHandle, type LogRecord } from '../../src/index.js';
import type { ConfigOverrides } from '../../src/core/config/load-config.js';
import { tempDataDir, type TestEmulator } from './test-emulator.js';
import type { CustomerRelay } from './customer-relay.js';

export const FAST: ConfigOverrides = { presenceIntervalMs: 100, booksStopConfirmMs: 300, syncIntervalMs: 3_600_000, reconnectBaseMs: 50, reconnectCapMs: 500, logLevel: 'silent' };

/** `log` receives every log record of info and up (the connector's own log closes with it). */
export async function startConnector(books: TestEmulator, dataDir = tempDataDir(), config: ConfigOverrides = {}, log?: (record: LogRecord) => void): Promise<ConnectorHandle> {
  return startConnectorService({ dataDir, booksUrl: books.xmlUrl, config: { ...FAST, ...config }, log });
}

export async function enrolAndPair(connector: ConnectorHandle, relay: CustomerRelay, books: TestEmulator, companyId = relay.companyIds[0] as number) {
  await connector.service.enrol({ relayUrl: relay.baseUrl, token: relay.customerToken, machineName: `pc-${companyId}-${Date.now()}` });
  await eventually('the connector to come online', () => connector.status().relay.state === 'online');
  const company = (await books.companies())[0] as { guid: string; name: string };
  await connector.service.pair(companyId, company.name);
  return company;
}

export async function transactionSettled(relay: CustomerRelay, jobId: string, companyId: number) {
  return eventually(`transaction ${jobId} to settle`, async () => {
    const { transaction } = await relay.api('GET', `/api/v1/transactions/${jobId}?company_id=${companyId}`);
    return transaction.status === 'completed' || transaction.status === 'failed' ? transaction : undefined;
  }, { timeoutMs: 20_000 });
}
