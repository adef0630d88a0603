// Write outcomes pushed to an integrator (issue 21, item 6), with a real relay, the emulator and the
// connector: a receiver subscribed with the default event list gets `transaction.completed` for an
// invoice the books booked and `transaction.failed` for one naming a ledger the books lack, each once,
// each verified with the standardwebhooks library, and each carrying what the transaction read shows.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import type { ConnectorHandle } from '../src/index.js';
import { enrolAndPair, startConnector, transactionSettled } from './helpers/connected-connector.js';
import { startTestEmulator, type TestEmulator } from './helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from './helpers/customer-relay.js';
import { documentsByEndpoint } from './helpers/voucher-documents.js';

type Received = Readonly<{ type: string; body: string; headers: Record<string, string> }>;

/** An integrator's endpoint on 127.0.0.1: answers 204 at once and keeps every request as it came. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ type: (JSON.parse(body) as { type: string }).type, body, headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let relay: CustomerRelay;
let books: TestEmulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let connector: ConnectorHandle | undefined;

beforeEach(async () => {
  relay = await startCustomerRelay({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: '1', CONNECTOR_CLAIM_INTERVAL_MS: '200', CONNECTOR_HEARTBEAT_MS: '1000' } });
  books = await startTestEmulator();
  receiver = await startReceiver();
});
afterEach(async () => {
  await connector?.stop();
  connector = undefined;
  await relay.close();
  await books.close();
  await receiver.close();
});

describe('transaction outcome webhooks', () => {
  it('an integrator gets transaction.completed for a booked invoice and transaction.failed for a missing ledger, signed', async () => {
    const { webhook } = await relay.api('POST', '/api/v1/webhooks', { url: receiver.url }, 200);
    expect(webhook.events).toEqual(expect.arrayContaining(['transaction.completed', 'transaction.failed']));
    connector = await startConnector(books);
    await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;

    const invoice = documentsByEndpoint('WH1').invoices as Record<string, unknown>;
    const booked = await relay.api('POST', `/api/v1/invoices?company_id=${companyId}`, { ...invoice, transaction_id: 'erp-invoice-wh1' });
    const refused = await relay.api('POST', `/api/v1/invoices?company_id=${companyId}`, {
      ...(documentsByEndpoint('WH2').invoices as Record<string, unknown>),
      ledger_entries: [
        { ledger_name: 'Ram & Sons', amount: 500, is_debit: true, is_party: true },
        { ledger_name: 'Consulting Income', amount: 500, is_debit: false },
      ],
    });
    const completedRead = await transactionSettled(relay, booked.transaction_id, companyId);
    const failedRead = await transactionSettled(relay, refused.transaction_id, companyId);
    expect(completedRead.status).toBe('completed');
    expect(failedRead).toMatchObject({ status: 'failed', error_code: 'MASTER_NOT_FOUND' });

    const outcomes = () => receiver.received.filter((r) => r.type.startsWith('transaction.'));
    await eventually('both outcome webhooks', () => outcomes().length >= 2 || undefined);
    const verifier = new Webhook(webhook.secret as string);
    const events = outcomes().map((request) => verifier.verify(request.body, request.headers) as { event_id: string; type: string; data: Record<string, unknown> });

    const completed = events.filter((e) => e.type === 'transaction.completed');
    const failed = events.filter((e) => e.type === 'transaction.failed');
    expect(completed).toHaveLength(1);
    expect(failed).toHaveLength(1);
    expect(completed[0]?.data).toMatchObject({
      company_id: companyId,
      job_id: booked.transaction_id,
      transaction_id: 'erp-invoice-wh1',
      status: 'completed',
      books_voucher_guid: completedRead.books_voucher_guid,
      error_code: null,
      payload: { voucher_kind: 'sales', voucher_type: 'Sales', voucher_number: 'INV-WH1', party_ledger: 'Ram & Sons', amount: 1000 },
    });
    expect(completed[0]?.data.books_voucher_guid).toEqual(expect.any(String));
    expect(failed[0]?.data).toMatchObject({
      company_id: companyId,
      job_id: refused.transaction_id,
      status: 'failed',
      books_voucher_guid: null,
      error_code: 'MASTER_NOT_FOUND',
      error_message: failedRead.error_message,
      payload: { voucher_number: 'INV-WH2' },
    });
    expect(String(failed[0]?.data.error_message)).toMatch(/Consulting Income/);

    // Exactly one event per outcome was raised, whatever the connector re-reported.
    const raised = await relay.app.database.db.selectFrom('webhook_events').select('type').where('type', 'like', 'transaction.%').execute();
    expect(raised.map((row) => row.type).sort()).toEqual(['transaction.completed', 'transaction.failed']);
  });
});
