// Before an exported object joins a sync batch: the relay refuses a whole batch for one item it cannot
// take (the message's schema), and the same window would then be exported and refused on every pass —
// every voucher after it would never reach the relay. So each item is checked against that schema
// here, and one the relay could not take is left out (the engine says which, in the log); and a batch
// is cut before its JSON passes a byte limit, so no batch grows past the socket's frame limit.
import { MAX_FRAME_BYTES, SyncMasterItem, SyncVoucherItem } from '@ledgerwire/shared';

/** Room left in a frame for the batch's envelope and cursor. */
const MAX_ITEM_BYTES = MAX_FRAME_BYTES - 64 * 1024;

export type SyncItemKind = 'masters' | 'vouchers';

export type CheckedItem = { ok: true; bytes: number } | { ok: false; problem: string };

/** Whether the relay can take the item, and its size as JSON (bytes) when it can. */
export function checkSyncItem(kind: SyncItemKind, item: unknown): CheckedItem {
  const parsed = (kind === 'vouchers' ? SyncVoucherItem : SyncMasterItem).safeParse(item);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')} ` : '';
    return { ok: false, problem: `${where}${issue?.message ?? 'is not valid'}` };
  }
  const bytes = Buffer.byteLength(JSON.stringify(item));
  if (bytes > MAX_ITEM_BYTES) return { ok: false, problem: `is ${(bytes / 1024 / 1024).toFixed(1)} MB as JSON, more than one message to the relay may carry` };
  return { ok: true, bytes };
}

/** The object in words, for the log: "Sales 42 of 20260415 (GUID …)", "ledger "Ram & Sons" (GUID …)". */
export function describeSyncItem(kind: SyncItemKind, item: unknown): string {
  const field = (key: string) => {
    const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[key] : undefined;
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const guid = `(GUID ${field('guid') ?? 'unknown'})`;
  if (kind === 'masters') return `${field('master_type') ?? 'master'} "${field('name') ?? '?'}" ${guid}`;
  return `${field('voucher_type') ?? 'voucher'} ${field('voucher_number') ?? '(no number)'} of ${field('voucher_date') ?? 'no date'} ${guid}`;
}

export type BatchLimits = Readonly<{ items: number; bytes: number }>;

/** What offering one item gave: batches now full (send them in order), or the item left out and why. */
export type Offered<T> = Readonly<{ full: T[][]; leftOut?: string }>;

/**
 * Collects a window's items into batches of at most `limits.items` items and `limits.bytes` bytes of
 * JSON (an item larger than that alone goes in a batch of its own), leaving out what the relay could
 * not take.
 */
export class SyncBatchBuilder<T> {
  private items: T[] = [];
  private bytes = 0;

  constructor(private readonly kind: SyncItemKind, private readonly limits: BatchLimits) {}

  offer(item: T): Offered<T> {
    const checked = checkSyncItem(this.kind, item);
    if (!checked.ok) return { full: [], leftOut: `${describeSyncItem(this.kind, item)}: ${checked.problem}` };
    const full: T[][] = [];
    if (this.items.length > 0 && this.bytes + checked.bytes > this.limits.bytes) full.push(this.take());
    this.items.push(item);
    this.bytes += checked.bytes;
    if (this.items.length >= this.limits.items) full.push(this.take());
    return { full };
  }

  /** The items not sent yet (possibly none). */
  take(): T[] {
    const batch = this.items;
    this.items = [];
    this.bytes = 0;
    return batch;
  }

  get pending(): number {
    return this.items.length;
  }
}
