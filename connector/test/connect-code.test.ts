// A connect link's setup code, typed into the connector's CLI as a shop owner would read it: it
// enrols (moving the session on), it is refused the second time in plain words, and pairing the
// company from the connector completes the session. Spawned processes, a real relay and the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConnectorCli } from './helpers/connector-cli.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from './helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from './helpers/customer-relay.js';


let relay: CustomerRelay;
let books: TestEmulator;

beforeAll(async () => {
  relay = await startCustomerRelay();
  books = await startTestEmulator();
});
afterAll(async () => {
  await relay?.close();
  await books?.close();
});

/** A command that prints one JSON document on stdout, parsed. */
async function runCli(args: string[]): Promise<{ code: number | null; json: any }> {
  const { code, stdout } = await runConnectorCli(args);
  try {
    return { code, json: JSON.parse(stdout) };
  } catch {
    throw new Error(`not JSON (exit ${code}): ${stdout}`);
  }
}

describe('connector enrolment with a setup code', { timeout: 120_000 }, () => {
  it('enrols with the code once, refuses it after, and pairing completes the session', async () => {
    const companyId = relay.companyIds[0] as number;
    const { connect_session: session } = await relay.api('POST', '/api/v1/connect-sessions', { customer_id: relay.customerId, company_id: companyId });
    const dataDir = tempDataDir();
    const typed = session.setup_code.toLowerCase().replace('-', ' ');
    const enrolled = await runCli(['enroll', '--relay', relay.baseUrl, '--code', typed, '--books', books.xmlUrl, '--name', 'shop-counter', '--data', dataDir]);
    expect(enrolled).toMatchObject({ code: 0, json: { success: true, connector_id: expect.stringMatching(/^con_/), machine_name: 'shop-counter' } });
    const progress = await relay.api('GET', `/api/v1/connect-sessions/${session.id}`);
    expect(progress.connect_session).toMatchObject({ status: 'connector_enrolled', connector_id: enrolled.json.connector_id });

    const again = await runCli(['enroll', '--relay', relay.baseUrl, '--code', session.setup_code, '--name', 'other-pc', '--data', tempDataDir()]);
    expect(again.code).toBe(1);
    expect(again.json.error).toMatch(/did not accept this setup code: .*works once and only until its link expires.*ask your software provider for a new link/);

    const [company] = await books.companies();
    const paired = await runCli(['pair', '--company-id', String(companyId), '--books-company', company!.name, '--data', dataDir]);
    expect(paired).toMatchObject({ code: 0, json: { success: true, company_id: companyId } });
    const done = await relay.api('GET', `/api/v1/connect-sessions/${session.id}`);
    expect(done.connect_session).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
  });
});
