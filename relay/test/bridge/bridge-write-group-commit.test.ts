// Concurrent writes share one transaction (job-group-commit.ts) yet each keeps its own answer: every
// new job is queued with its document, a repeat of a transaction_id sent in the same batch replays
// the first acceptance, a reuse with another body in the same batch is a 409, and a write that cannot
// be stored fails alone without taking the batch with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/bridge/services/jobs/job-group-commit.js';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

describeOnDatabases('bridge writes under group commit', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { BRIDGE_RATE_LIMIT_PER_MINUTE: '1000' });
    tenant = await provisionTenant(relay);
  });
  afterAll(() => relay.close());

  const write = (body: Record<string, unknown>) =>
    relay.app.inject({
      method: 'POST',
      url: `/api/v1/invoices?company_id=${tenant.companyId}`,
      headers: { authorization: `Bearer ${tenant.credential}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('answers each of a burst of writes as if it were alone', async () => {
    const fresh = Array.from({ length: 12 }, (_, i) => ({ ...sampleInvoice, voucher_number: `GC-${i}`, transaction_id: `gc-${i}` }));
    const repeat = { ...sampleInvoice, voucher_number: 'GC-0', transaction_id: 'gc-0' };
    const reuse = { ...sampleInvoice, voucher_number: 'GC-OTHER', transaction_id: 'gc-1' };
    const responses = await Promise.all([...fresh.map(write), write(repeat), write(reuse)]);
    const [repeated, reused] = responses.slice(fresh.length);

    // Writes that are alone with their transaction_id: each its own first acceptance.
    for (const response of responses.slice(2, fresh.length)) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
    }
    // The same body twice in one burst: whichever reached the queue first is the acceptance, the other
    // replays it (concurrent requests fix no order between them).
    const sameBody = [responses[0]!, repeated!];
    expect(sameBody.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(sameBody.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
    expect(responses[0]!.json().transaction_id).toBe(repeated!.json().transaction_id);
    // The same transaction_id with another body: one is accepted, the other is a 409.
    const otherBody = [responses[1]!, reused!];
    expect(otherBody.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(otherBody.find((r) => r.statusCode === 409)!.json().error.code).toBe('idempotency_conflict');

    const rows = await relay.app.database.db
      .selectFrom('transactions')
      .innerJoin('transaction_documents', 'transaction_documents.transaction_id', 'transactions.id')
      .select(['transactions.client_transaction_id', 'transactions.status', 'transaction_documents.xml'])
      .where('transactions.company_id', '=', tenant.companyId)
      .where('transactions.client_transaction_id', 'like', 'gc-%')
      .orderBy('transactions.id')
      .execute();
    // One job per own id, each with its document. (Their order is the order the writes reached the
    // queue, which concurrent requests do not fix: on PostgreSQL their lookups answer in any order.)
    expect(rows.map((row) => row.client_transaction_id).sort()).toEqual(fresh.map((body) => body.transaction_id).sort());
    expect(rows.every((row) => row.status === 'queued' && row.xml.includes('<VOUCHER'))).toBe(true);
  });
});

describe('group commit', () => {
  it('writes items read in one turn as one batch, and on a failed batch retries each alone so only the bad one fails', async () => {
    const batches: number[][] = [];
    const commit = new GroupCommit<number, string>(async (items) => {
      batches.push([...items]);
      if (items.includes(13)) throw new Error('cannot store 13');
      return items.map((item) => `stored ${item}`);
    });
    const results = await Promise.allSettled([1, 2, 13, 4].map((item) => commit.submit(item)));
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual([
      'stored 1',
      'stored 2',
      'cannot store 13',
      'stored 4',
    ]);
    expect(batches).toEqual([[1, 2, 13, 4], [1], [2], [13], [4]]);
  });
});
