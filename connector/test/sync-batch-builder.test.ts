// How a sync window's objects become sync.batch messages: at most so many items and so many bytes each,
// in the books' order, and an object the relay could not take left out — in words — instead of making
// the relay refuse the whole batch on every pass. Real TallyPrime vouchers (a native capture).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeBooksResponse, parseVoucherExport, RESERVED_VOUCHER_TYPE_NAMES, SyncBatchMessage, type SyncVoucherItem } from '@ledgerwire/shared';
import { checkSyncItem, SyncBatchBuilder } from '../src/core/sync/sync-batch-builder.js';

const CAPTURE = new URL('../../shared/test/fixtures/tally-samples/bridge/unit_a_vouchers_wildcard_live.xml', import.meta.url);
const BUILT_IN_TYPES = new Map(RESERVED_VOUCHER_TYPE_NAMES.map((n) => [n as string, { reservedName: n as string, parent: n as string }]));
const vouchers: SyncVoucherItem[] = parseVoucherExport(decodeBooksResponse(new Uint8Array(readFileSync(CAPTURE))), { voucherTypes: BUILT_IN_TYPES });

const jsonBytes = (items: readonly unknown[]) => items.reduce<number>((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0);

/** Offers every item, then takes the rest: the batches in the order they would be sent, and what was left out. */
function batchesOf(builder: SyncBatchBuilder<SyncVoucherItem>, items: readonly SyncVoucherItem[]) {
  const batches: SyncVoucherItem[][] = [];
  const leftOut: string[] = [];
  for (const item of items) {
    const offered = builder.offer(item);
    if (offered.leftOut) leftOut.push(offered.leftOut);
    batches.push(...offered.full);
  }
  const rest = builder.take();
  if (rest.length > 0) batches.push(rest);
  return { batches, leftOut };
}

describe('sync batches', () => {
  it('cut by item count, every voucher once and in order', () => {
    const { batches, leftOut } = batchesOf(new SyncBatchBuilder('vouchers', { items: 20, bytes: 8 * 1024 * 1024 }), vouchers);
    expect(vouchers).toHaveLength(75);
    expect(batches.map((b) => b.length)).toEqual([20, 20, 20, 15]);
    expect(batches.flat()).toEqual(vouchers);
    expect(leftOut).toEqual([]);
  });

  it('cut before the JSON passes the byte limit; an object larger than the limit goes alone', () => {
    const limit = 4096;
    const { batches } = batchesOf(new SyncBatchBuilder('vouchers', { items: 500, bytes: limit }), vouchers);
    expect(batches.flat()).toEqual(vouchers);
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) {
      if (batch.length > 1) expect(jsonBytes(batch)).toBeLessThanOrEqual(limit);
      else expect(batch).toHaveLength(1);
    }
    const big = { ...(vouchers[0] as SyncVoucherItem), narration: 'x'.repeat(limit * 2) };
    const alone = batchesOf(new SyncBatchBuilder('vouchers', { items: 500, bytes: limit }), [vouchers[1] as SyncVoucherItem, big, vouchers[2] as SyncVoucherItem]);
    expect(alone.batches.map((b) => b.length)).toEqual([1, 1, 1]);
  });

  it('leaves out, in words, a voucher the relay could not take; the others still go, as a batch the relay accepts', () => {
    const [first, second, third] = vouchers as [SyncVoucherItem, SyncVoucherItem, SyncVoucherItem];
    const undated = { ...second, voucher_date: '' };
    const { batches, leftOut } = batchesOf(new SyncBatchBuilder('vouchers', { items: 500, bytes: 8 * 1024 * 1024 }), [first, undated, third]);
    expect(batches).toEqual([[first, third]]);
    expect(leftOut).toEqual([`${second.voucher_type} ${second.voucher_number} of no date (GUID ${second.guid}): voucher_date must be YYYYMMDD`]);
    const message = { type: 'sync.batch', v: 1, batch_id: 'sb_1', company_id: 1, cursor: '{"a":1}', kind: 'vouchers', items: batches[0] };
    expect(SyncBatchMessage.safeParse(message).success).toBe(true);
  });

  it('leaves out an object too large for any message to the relay', () => {
    const huge = { ...(vouchers[0] as SyncVoucherItem), narration: 'x'.repeat(33 * 1024 * 1024) };
    expect(checkSyncItem('vouchers', huge)).toEqual({ ok: false, problem: expect.stringMatching(/^is 33\.\d MB as JSON, more than one message to the relay may carry$/) });
  });
});
