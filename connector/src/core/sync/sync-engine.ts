// One sync pass: probe the books once (company list with AltMstId / AltVchId); for each paired, open
// company whose counters moved past the confirmed cursors, export only what changed ($AlterID > n),
// vouchers window by window, and send it in batches the relay confirms; every n-th pass, find deletions
// by diffing the books' GUIDs against what the relay holds. Cursors move only on sync.ack, so a pass cut
// short (restart, relay gone) resumes from the last confirmed window; one cut off by the connector's own
// stop is logged as just that, not as the error of the cut connection. An object the relay could not take
// is left out, in words in the log, rather than holding back every object after it (sync-batch-builder).
// Stock items and stock groups carry closing figures that vouchers move without altering the master
// (its AlterID stays): when vouchers changed, they are read again in full (see refreshStockClosings).
import { createHash } from 'node:crypto';
import { MAX_SYNC_BATCH_BYTES, type SyncKind, type SyncMasterItem, type SyncVoucherItem } from '@ledgerwire/shared';
import type { PairingStore, Pairing } from '../state/pairing-store.js';
import type { SyncStateStore } from '../state/sync-state-store.js';
import { findOpenCompany, type BooksCompany } from '../presence/books-company.js';
import type { Logger } from '../support/logger.js';
import { errorText } from '../support/logger.js';
import type { BooksSyncAccess } from './books-sync-access.js';
import { nextDay, todayCompact, VoucherWindowPlan } from './date-windows.js';
import type { OutgoingBatch, SyncChannel } from './sync-channel.js';
import { readCursor, writeCursor, type AlterCursor } from './sync-cursor.js';
import { SyncBatchBuilder } from './sync-batch-builder.js';

const OPEN_END = '29991231';

/** The masters whose fields (closing quantity and value) move with vouchers. */
const STOCK_MASTERS = ['stock_group', 'stock_item'] as const;

export type SyncPhase = 'probe' | 'masters' | 'vouchers' | 'deletions' | 'reports';
export type SyncProgress = Readonly<{ companyId: number; phase: SyncPhase; done: number; total: number; items: number }>;

export type SyncEngineOptions = Readonly<{
  books: BooksSyncAccess;
  state: SyncStateStore;
  pairings: PairingStore;
  channel: SyncChannel;
  log: Logger;
  windowVouchers: number;
  batchItems: number;
  deletionCheckEvery: number;
  onProgress: (progress: SyncProgress | null) => void;
  /** The probe also tells presence what is open. */
  onCompanies?: (companies: BooksCompany[]) => void;
}>;

export type CompanySyncResult = Readonly<{ companyId: number; ok: boolean; summary: string }>;

/** A pass the connector's own stop cut off: no fault of the books, and nothing lost. */
export const SYNC_CUT_SHORT = 'sync cut short because the connector is stopping; it resumes from its saved cursors at the next start';

export class SyncEngine {
  private pass = 0;
  /** Set by stop(): what fails from then on was cut off by the connector stopping. */
  private stopping = false;
  /** Objects of the company being synced that were left out (see sync-batch-builder). */
  private leftOut = 0;
  /** Per company, a digest of each stock item and group as last sent by refreshStockClosings (by GUID). */
  private readonly stockSent = new Map<number, Map<string, string>>();

  constructor(private readonly options: SyncEngineOptions) {}

  /**
   * The connector is stopping and is about to cut its requests to the books and its link to the relay: a
   * pass failing from now on was cut short by that, not by the books (the log says so, not the socket
   * error), and no further company is started.
   */
  stop(): void {
    this.stopping = true;
  }

  /** Runs one pass over every confirmed pairing. Throws when the books cannot be probed. */
  async runPass(force: { deletions?: boolean } = {}): Promise<CompanySyncResult[]> {
    this.pass += 1;
    const pairings = this.options.pairings.list().filter((p) => p.confirmed);
    if (pairings.length === 0 || this.stopping) return [];
    let companies: BooksCompany[];
    try {
      companies = await this.options.books.listCompanies();
    } catch (error) {
      if (!this.stopping) throw error;
      this.options.log.info(SYNC_CUT_SHORT);
      return [];
    }
    this.options.onCompanies?.(companies);
    const checkDeletions = force.deletions === true || this.pass % this.options.deletionCheckEvery === 0;
    const results: CompanySyncResult[] = [];
    for (const pairing of pairings) {
      if (this.stopping) break;
      results.push(await this.syncCompany(pairing, companies, checkDeletions));
    }
    this.options.onProgress(null);
    return results;
  }

  private async syncCompany(pairing: Pairing, open: readonly BooksCompany[], checkDeletions: boolean): Promise<CompanySyncResult> {
    const company = findOpenCompany(open, pairing.booksCompanyGuid, pairing.booksCompanyName);
    const id = pairing.companyId;
    if (!company) {
      const summary = `"${pairing.booksCompanyName}" is not open in the books; open it to sync`;
      this.options.state.recordRun(id, { ok: false, summary, error: summary });
      return { companyId: id, ok: false, summary };
    }
    this.leftOut = 0;
    try {
      const masters = await this.syncMasters(id, company);
      const vouchers = await this.syncVouchers(id, company);
      const deleted = checkDeletions ? await this.findDeletions(id, company) : 0;
      await this.refreshStockClosings(id, company, deleted > 0);
      if (deleted > 0 || this.reportsBehind(id, company)) await this.sendReports(id, company);
      const summary = describeSent(masters, vouchers, deleted, this.leftOut);
      this.options.state.recordRun(id, { ok: true, summary });
      return { companyId: id, ok: true, summary };
    } catch (error) {
      if (this.stopping) {
        // Not recorded as the company's last run: that would read as a failed sync at the next start,
        // and the cursors confirmed so far already say where the pass carries on.
        this.options.log.info(`company ${id}: ${SYNC_CUT_SHORT}`);
        return { companyId: id, ok: false, summary: SYNC_CUT_SHORT };
      }
      const summary = `sync stopped: ${errorText(error)}`;
      this.options.log.warn(`company ${id}: ${summary}`);
      this.options.state.recordRun(id, { ok: false, summary, error: errorText(error) });
      return { companyId: id, ok: false, summary };
    }
  }

  private async syncMasters(companyId: number, company: BooksCompany): Promise<number> {
    const cursor = readCursor(this.options.state.cursor(companyId, 'masters'));
    if (company.altMstId <= cursor.a) return 0;
    this.progress(companyId, 'masters', 0, 1, 0);
    const batcher = this.masterBatcher(companyId, cursor);
    await this.options.books.streamMasters(company, cursor.a, (item) => batcher.add(item));
    // A first pass reads every master, stock closing figures as at this probe included.
    await batcher.finish(writeCursor({ ...cursor, a: company.altMstId, ...(cursor.a === 0 ? { v: company.altVchId } : {}) }));
    return batcher.count;
  }

  /**
   * Stock items and groups read again in full, with their closing figures as the books have them now,
   * when vouchers changed since they were last read (or were deleted): the cursor's `v` holds the
   * AltVchId they were read at. Only those that differ from what this process last sent go to the
   * relay (after a restart, all of them once). They are not counted among the pass's masters: the
   * books did not alter them.
   */
  private async refreshStockClosings(companyId: number, company: BooksCompany, vouchersDeleted: boolean): Promise<void> {
    const cursor = readCursor(this.options.state.cursor(companyId, 'masters'));
    if (!vouchersDeleted && (cursor.v ?? 0) >= company.altVchId) return;
    this.progress(companyId, 'masters', 0, 1, 0);
    const batcher = this.masterBatcher(companyId, cursor);
    const sent = this.stockSent.get(companyId) ?? new Map<string, string>();
    const sending = new Map<string, string>();
    await this.options.books.streamMasters(company, 0, async (item) => {
      const figures = createHash('sha1').update(JSON.stringify(item)).digest('base64');
      if (sent.get(item.guid) === figures) return;
      sending.set(item.guid, figures);
      await batcher.add(item);
    }, STOCK_MASTERS);
    await batcher.finish(writeCursor({ ...cursor, v: company.altVchId }));
    for (const [guid, figures] of sending) sent.set(guid, figures);
    this.stockSent.set(companyId, sent);
  }

  private masterBatcher(companyId: number, cursor: AlterCursor) {
    return this.batcher<SyncMasterItem>(companyId, 'masters', writeCursor(cursor), (m) => ({ guid: m.guid, object: 'master', alterId: m.alter_id }));
  }

  private async syncVouchers(companyId: number, company: BooksCompany): Promise<number> {
    const cursor = readCursor(this.options.state.cursor(companyId, 'vouchers'));
    // A pass under way (cursor with a target) resumes after its last confirmed window.
    const from = cursor.a;
    const target = cursor.t !== undefined ? Math.max(cursor.t, company.altVchId) : company.altVchId;
    if (target <= from) return 0;
    const windows = this.windowsFor(company, target - from, cursor.w);
    let sent = 0;
    let doneThrough = cursor.w;
    for (let index = 0, window = windows.next(); window; index += 1, window = windows.next()) {
      const total = index + 1 + windows.remaining;
      this.progress(companyId, 'vouchers', index, total, sent);
      // Only the last window is open-ended; once it is in, the pass is done.
      const done = window.to === OPEN_END ? writeCursor({ a: target }) : writeCursor({ a: from, t: target, w: window.to });
      const batcher = this.batcher<SyncVoucherItem>(companyId, 'vouchers', writeCursor({ a: from, t: target, ...(doneThrough ? { w: doneThrough } : {}) }), (v) => ({
        guid: v.guid,
        object: 'voucher',
        alterId: v.alter_id,
      }));
      await this.options.books.streamVouchers(company, from, window, async (item) => {
        await batcher.add(item);
        this.progress(companyId, 'vouchers', index, total, sent + batcher.count);
      });
      await batcher.finish(done);
      windows.held(window, batcher.count);
      sent += batcher.count;
      doneThrough = window.to;
    }
    return sent;
  }

  /**
   * Few changes: one window over the whole book. Many: windows sized by the vouchers they hold (month
   * by month in a book of ordinary density, runs of days in a dense one), resuming after `doneThrough`.
   */
  private windowsFor(company: BooksCompany, changes: number, doneThrough: string | undefined): VoucherWindowPlan {
    const start = doneThrough ? nextDay(doneThrough) : '19000101';
    const today = todayCompact();
    const end = company.lastVoucherDate > today ? company.lastVoucherDate : today;
    const whole = new VoucherWindowPlan([{ from: start, to: OPEN_END }], undefined, OPEN_END);
    if (changes <= this.options.windowVouchers || start > end) return whole;
    // Anything dated before the books begin (rare) comes in one window of its own.
    const before = !doneThrough && company.booksFrom && company.booksFrom > start ? [{ from: start, to: previousDay(company.booksFrom) }] : [];
    const from = before.length > 0 ? company.booksFrom : start;
    if (from > end) return whole;
    return new VoucherWindowPlan(before, { from, to: end, changes, perWindow: this.options.windowVouchers }, OPEN_END);
  }

  private async findDeletions(companyId: number, company: BooksCompany): Promise<number> {
    this.progress(companyId, 'deletions', 0, 2, 0);
    const gone: { object: 'voucher' | 'master'; guid: string }[] = [];
    for (const [step, object] of (['master', 'voucher'] as const).entries()) {
      if (this.options.state.knownCount(companyId, object) === 0) continue;
      const present = new Set<string>();
      await this.options.books.streamGuids(company, object, (guid) => void present.add(guid));
      for (const guid of this.options.state.knownGuids(companyId, object)) if (!present.has(guid)) gone.push({ object, guid });
      this.progress(companyId, 'deletions', step + 1, 2, gone.length);
    }
    if (gone.length === 0) return 0;
    for (let i = 0; i < gone.length; i += 5000) {
      const slice = gone.slice(i, i + 5000);
      await this.deliver({ company_id: companyId, kind: 'deletions', cursor: writeCursor({ a: this.pass }), items: slice });
      this.options.state.forgetObjects(companyId, slice.map((g) => g.guid));
    }
    this.options.log.info(`company ${companyId}: ${gone.length} objects deleted in the books`);
    return gone.length;
  }

  /**
   * Whether the report snapshots at the relay were read before the books' last change (their cursor
   * holds the AltVchId and AltMstId they were read at). A refresh that failed leaves the cursor behind,
   * so the next pass refreshes them even when nothing else changed.
   */
  private reportsBehind(companyId: number, company: BooksCompany): boolean {
    const read = this.options.state.cursor(companyId, 'report');
    if (read === undefined) return true;
    const cursor = readCursor(read);
    return cursor.a < company.altVchId || (cursor.m ?? 0) < company.altMstId;
  }

  private async sendReports(companyId: number, company: BooksCompany): Promise<void> {
    this.progress(companyId, 'reports', 0, 1, 0);
    try {
      const items = await this.options.books.reports(company);
      if (items.length > 0) await this.deliver({ company_id: companyId, kind: 'report', cursor: writeCursor({ a: company.altVchId, m: company.altMstId }), items });
    } catch (error) {
      if (this.stopping) throw error; // cut off by the stop: the pass says so
      // Reports are a convenience: a failure is logged, the sync stands, and the next pass tries again.
      this.options.log.warn(`company ${companyId}: reports not refreshed: ${errorText(error)}`);
    }
  }

  private progress(companyId: number, phase: SyncPhase, done: number, total: number, items: number): void {
    this.options.onProgress({ companyId, phase, done, total, items });
  }

  private async deliver(batch: OutgoingBatch): Promise<void> {
    const ack = await this.options.channel.deliver(batch);
    this.options.state.saveCursor(batch.company_id, ack.kind, ack.cursor);
  }

  /**
   * Collects items into batches of `batchItems` (and at most MAX_SYNC_BATCH_BYTES); each confirmed batch
   * is remembered for the GUID diff.
   */
  private batcher<T extends SyncMasterItem | SyncVoucherItem>(
    companyId: number,
    kind: Extract<SyncKind, 'masters' | 'vouchers'>,
    midCursor: string,
    identity: (item: T) => { guid: string; object: 'voucher' | 'master'; alterId: string },
  ) {
    const builder = new SyncBatchBuilder<T>(kind, { items: this.options.batchItems, bytes: MAX_SYNC_BATCH_BYTES });
    let count = 0;
    const send = async (batch: T[], cursor: string) => {
      await this.deliver({ company_id: companyId, kind, cursor, items: batch } as OutgoingBatch);
      this.options.state.rememberObjects(companyId, batch.map(identity));
      count += batch.length;
    };
    return {
      get count() {
        return count + builder.pending;
      },
      add: async (item: T) => {
        const offered = builder.offer(item);
        if (offered.leftOut) {
          this.leftOut += 1;
          this.options.log.warn(`company ${companyId}: left out of the sync, the relay could not take it: ${offered.leftOut}`);
        }
        for (const batch of offered.full) await send(batch, midCursor);
      },
      /** Sends what is left (possibly nothing) with the cursor the whole window brings the company to. */
      finish: (cursor: string) => send(builder.take(), cursor),
    };
  }
}

function previousDay(compact: string): string {
  const date = new Date(Date.UTC(Number(compact.slice(0, 4)), Number(compact.slice(4, 6)) - 1, Number(compact.slice(6, 8)) - 1));
  return `${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}${String(date.getUTCDate()).padStart(2, '0')}`;
}

/**
 * What a sync sent, in words: "up to date", "1 voucher sent", "3 masters, 12 vouchers and 1 deletion
 * sent", "12 vouchers sent; 1 object left out (see the log)".
 */
export function describeSent(masters: number, vouchers: number, deletions: number, leftOut = 0): string {
  const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const parts = [
    ...(masters > 0 ? [counted(masters, 'master')] : []),
    ...(vouchers > 0 ? [counted(vouchers, 'voucher')] : []),
    ...(deletions > 0 ? [counted(deletions, 'deletion')] : []),
  ];
  const omitted = leftOut > 0 ? `${counted(leftOut, 'object')} left out (see the log)` : '';
  if (parts.length === 0) return omitted || 'up to date';
  const last = parts.pop() as string;
  const sent = `${parts.length > 0 ? `${parts.join(', ')} and ` : ''}${last} sent`;
  return omitted ? `${sent}; ${omitted}` : sent;
}
