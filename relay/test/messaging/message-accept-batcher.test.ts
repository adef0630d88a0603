// The group-commit batcher on its own, with a scripted batch writer: which sends share a batch,
// how repeats of one business-event id inside a batch are answered, and that a failing batch is
// retried one message per transaction so only the message that cannot be stored fails.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/catalogue.js';
import type { AcceptOutcome, PendingMessage } from '../../src/messaging/store/messages/accept-message-batch.js';
import { MessageAcceptBatcher, type AcceptResult } from '../../src/messaging/services/messages/message-accept-batcher.js';
import type { MessageRow } from '../../src/messaging/store/messages/message-repository.js';
import { DEFAULT_TENANT_LIMITS } from '../../src/messaging/store/tenants/tenant-limits.js';

let nextId = 0;

function pending(transactionId: string, tenantId = 'ten_a'): PendingMessage {
  const row = { id: `msg_${++nextId}`, tenant_id: tenantId, business_event_id: `${transactionId}_send`, request_hash: transactionId } as MessageRow;
  return { row, limits: DEFAULT_TENANT_LIMITS };
}

/** A batch writer that records each batch and answers from a script (default: all stored). */
function scriptedWriter(decide: (message: PendingMessage, batch: readonly PendingMessage[]) => AcceptOutcome | 'fail-batch' = () => ({ kind: 'stored' })) {
  const batches: string[][] = [];
  const write = async (batch: readonly PendingMessage[]): Promise<AcceptOutcome[]> => {
    batches.push(batch.map((message) => message.row.business_event_id));
    const outcomes = batch.map((message) => decide(message, batch));
    if (outcomes.includes('fail-batch')) throw new Error('constraint violated');
    return outcomes as AcceptOutcome[];
  };
  return { batches, write };
}

const settled = (promise: Promise<AcceptResult>) =>
  promise.then(
    (result) => result,
    (error: unknown) => ({ kind: 'rejected' as const, error }),
  );

describe('message accept batcher', () => {
  it('writes sends that arrive together as one batch, sorted by (tenant, business-event id)', async () => {
    const writer = scriptedWriter();
    const batcher = new MessageAcceptBatcher(writer.write);
    const results = await Promise.all([pending('c', 'ten_b'), pending('b'), pending('a')].map((message) => batcher.accept(message)));
    expect(results).toEqual([{ kind: 'stored' }, { kind: 'stored' }, { kind: 'stored' }]);
    expect(writer.batches).toEqual([['a_send', 'b_send', 'c_send']]);
  });

  it('a lone send is written on the next turn, without waiting for company', async () => {
    const writer = scriptedWriter();
    const batcher = new MessageAcceptBatcher(writer.write);
    await expect(batcher.accept(pending('solo'))).resolves.toEqual({ kind: 'stored' });
    expect(writer.batches).toEqual([['solo_send']]);
  });

  it('caps the batch size; the rest follow in further batches', async () => {
    const writer = scriptedWriter();
    const batcher = new MessageAcceptBatcher(writer.write, { maxBatch: 4, maxInFlight: 1, maxWaitTurns: 2 });
    const messages = Array.from({ length: 10 }, (_, i) => pending(`t${String(i).padStart(2, '0')}`));
    await Promise.all(messages.map((message) => batcher.accept(message)));
    expect(writer.batches.map((batch) => batch.length)).toEqual([4, 4, 2]);
  });

  it('sends of one business-event id in a batch are written once; the others replay the stored row', async () => {
    const writer = scriptedWriter();
    const batcher = new MessageAcceptBatcher(writer.write);
    const first = pending('same');
    const repeats = Array.from({ length: 49 }, () => pending('same'));
    const results = await Promise.all([first, ...repeats].map((message) => batcher.accept(message)));
    expect(writer.batches).toEqual([['same_send']]);
    expect(results[0]).toEqual({ kind: 'stored' });
    for (const result of results.slice(1)) expect(result).toEqual({ kind: 'existing', row: first.row });
  });

  it('a duplicate of a stored message, and a refusal, answer every send of that id alike', async () => {
    const refusal = new AppError('daily_quota_exceeded', { headers: { 'Retry-After': '10' } });
    const writer = scriptedWriter((message) =>
      message.row.business_event_id === 'old_send' ? { kind: 'duplicate' } : message.row.business_event_id === 'over_send' ? { kind: 'refused', error: refusal } : { kind: 'stored' },
    );
    const batcher = new MessageAcceptBatcher(writer.write);
    const results = await Promise.all([pending('old'), pending('over'), pending('old'), pending('over'), pending('new')].map((message) => batcher.accept(message)));
    expect(results.map((result) => result.kind)).toEqual(['duplicate', 'refused', 'duplicate', 'refused', 'stored']);
    expect(results[3]).toEqual({ kind: 'refused', error: refusal });
  });

  it('a failing batch is retried one message at a time: only the bad message fails', async () => {
    const writer = scriptedWriter((message) => (message.row.business_event_id === 'bad_send' ? 'fail-batch' : { kind: 'stored' }));
    const batcher = new MessageAcceptBatcher(writer.write);
    const results = await Promise.all([pending('a'), pending('bad'), pending('c')].map((message) => settled(batcher.accept(message))));
    expect(results.map((result) => result.kind)).toEqual(['stored', 'rejected', 'stored']);
    expect(writer.batches).toEqual([['a_send', 'bad_send', 'c_send'], ['a_send'], ['bad_send'], ['c_send']]);
  });

  it('when the first send of an id fails, each repeat gets an attempt of its own', async () => {
    let attempts = 0;
    const writer = scriptedWriter((message) => (message.row.business_event_id === 'flaky_send' && ++attempts === 1 ? 'fail-batch' : { kind: 'stored' }));
    const batcher = new MessageAcceptBatcher(writer.write);
    const [first, second, third] = await Promise.all([pending('flaky'), pending('flaky'), pending('flaky')].map((message) => settled(batcher.accept(message))));
    expect(first!.kind).toBe('rejected');
    expect(second).toEqual({ kind: 'stored' });
    expect(third!.kind).toBe('existing');
    expect(writer.batches).toEqual([['flaky_send'], ['flaky_send']]);
  });

  it('a batch that fails every way rejects each send, and the batcher carries on afterwards', async () => {
    let broken = true;
    const writer = scriptedWriter(() => (broken ? 'fail-batch' : { kind: 'stored' }));
    const batcher = new MessageAcceptBatcher(writer.write);
    const results = await Promise.all([pending('x'), pending('y')].map((message) => settled(batcher.accept(message))));
    expect(results.map((result) => result.kind)).toEqual(['rejected', 'rejected']);
    broken = false;
    await expect(batcher.accept(pending('z'))).resolves.toEqual({ kind: 'stored' });
  });

  it('sends arriving while a batch is written go together into the next one', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batches: number[] = [];
    const batcher = new MessageAcceptBatcher(
      async (batch) => {
        batches.push(batch.length);
        if (batches.length === 1) await gate;
        return batch.map(() => ({ kind: 'stored' }) as const);
      },
      { maxBatch: 64, maxInFlight: 1, maxWaitTurns: 2 },
    );
    const first = batcher.accept(pending('first'));
    await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 5 }, (_, i) => batcher.accept(pending(`later-${i}`)));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([1, 5]);
  });
});
