// A stopping connector waits for no sync confirmation: a batch the relay has not confirmed fails the
// pass at once (its cursor does not move, so the next pass sends it again), instead of holding the stop
// until the confirmation's own timeout.
import type { ClientMessage } from '@ledgerwire/shared';
import { describe, expect, it } from 'vitest';
import { SyncChannel, SyncNotConfirmedError } from '../src/core/sync/sync-channel.js';

describe('sync channel', () => {
  it('fails a batch still waiting for its confirmation when the connector stops', async () => {
    const sent: ClientMessage[] = [];
    const channel = new SyncChannel((message) => {
      sent.push(message);
      return true;
    });
    const waiting = channel.deliver({ company_id: 1, kind: 'vouchers', cursor: 'a:0', items: [] } as never);
    expect(sent).toHaveLength(1);
    channel.stop();
    await expect(waiting).rejects.toBeInstanceOf(SyncNotConfirmedError);
    await expect(waiting).rejects.toThrow(/stopping/);
  });

  it('still resolves a batch the relay confirms', async () => {
    const sent: ClientMessage[] = [];
    const channel = new SyncChannel((message) => {
      sent.push(message);
      return true;
    });
    const waiting = channel.deliver({ company_id: 1, kind: 'vouchers', cursor: 'a:0', items: [] } as never);
    const batchId = (sent[0] as { batch_id: string }).batch_id;
    channel.handleAck({ type: 'sync.ack', batch_id: batchId } as never);
    await expect(waiting).resolves.toMatchObject({ batch_id: batchId });
  });
});
