// What the connector says about its sync in plain words: ages a person reads at a glance rather than
// ISO timestamps, and an idle state that tells "synced" from "never synced"; and about its jobs, that
// only those handed to this connector are counted.
import { describe, expect, it } from 'vitest';
import { describeAge, describePairing, describeQueue, describeSync, expectedVoucherChanges } from '../src/core/service/connector-status.js';
import { describeSent, type SyncPhase } from '../src/core/sync/sync-engine.js';

// Local times, so the expectations hold in any time zone.
const now = new Date(2026, 10, 24, 14, 30, 0);
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const MINUTE = 60_000;

describe('describeAge', () => {
  it('says how long ago in words, down to "just now"', () => {
    expect(describeAge(ago(20_000), now)).toBe('just now');
    expect(describeAge(ago(MINUTE), now)).toBe('a minute ago');
    expect(describeAge(ago(5 * MINUTE + 10_000), now)).toBe('5 minutes ago');
    expect(describeAge(ago(60 * MINUTE), now)).toBe('an hour ago');
    expect(describeAge(ago(3 * 60 * MINUTE), now)).toBe('3 hours ago');
  });

  it('names the day and the time once it is half a day or more ago', () => {
    expect(describeAge(new Date(2026, 10, 24, 1, 5).toISOString(), now)).toBe('today at 01:05');
    expect(describeAge(new Date(2026, 10, 23, 18, 45).toISOString(), now)).toBe('yesterday at 18:45');
    expect(describeAge(new Date(2026, 10, 2, 9, 0).toISOString(), now)).toBe('on 2 Nov 2026 at 09:00');
  });

  it('reads a time a little ahead (another clock) as just now, and leaves text it cannot read as it is', () => {
    expect(describeAge(new Date(now.getTime() + 5_000).toISOString(), now)).toBe('just now');
    expect(describeAge('not a time', now)).toBe('not a time');
  });
});

describe('describePairing', () => {
  const pairing = { companyId: 7, booksCompanyGuid: 'guid-7', booksCompanyName: 'Ledgerwire Demo Traders', confirmed: true };
  const company = { guid: 'guid-7', name: 'Ledgerwire Demo Traders', booksFrom: '20260401', lastVoucherDate: '', altMstId: 0, altVchId: 0 };
  const picture = { running: true, problem: null, companies: [company], checkedAt: now.toISOString() };

  it('says when the company was last synced in words, with what the sync did', () => {
    const run = { companyId: 7, lastSyncAt: ago(5 * MINUTE), lastResult: 'up to date', lastError: null, passes: 3 };
    const status = describePairing(pairing, picture, run, now);
    expect(status.description).toBe('"Ledgerwire Demo Traders" is open; last synced 5 minutes ago (up to date).');
    expect(status.lastSyncAt).toBe(run.lastSyncAt);
  });

  it('says a company is syncing while a pass is on it, not what the last pass found', () => {
    const run = { companyId: 7, lastSyncAt: ago(5 * MINUTE), lastResult: 'up to date', lastError: null, passes: 3 };
    const status = describePairing(pairing, picture, run, now, true);
    expect(status.description).toBe('"Ledgerwire Demo Traders" is open; syncing now.');
    expect(status.syncing).toBe(true);
    expect(describePairing(pairing, picture, run, now).syncing).toBe(false);
  });

  it('says a company never synced is not synced yet', () => {
    const run = { companyId: 7, lastSyncAt: null, lastResult: null, lastError: null, passes: 0 };
    expect(describePairing(pairing, picture, run, now).description).toBe('"Ledgerwire Demo Traders" is open; not synced yet.');
  });
});

describe('describeQueue', () => {
  const none = { waiting: 0, importing: 0, unreported: 0, settled: 0 };

  it('says the jobs counted are those here, not those still queued at the relay', () => {
    expect(describeQueue({ ...none, settled: 12 }).description).toBe('No jobs here waiting for the books (12 done).');
    expect(describeQueue({ ...none, waiting: 3 }).description).toBe('3 jobs here waiting for the books.');
    expect(describeQueue({ ...none, importing: 1 }).description).toBe('1 job here being imported.');
    expect(describeQueue({ ...none, unreported: 1 }).description).toBe('1 job here whose result has not reached the relay yet.');
  });

  it('names each count once, the first with what is counted', () => {
    expect(describeQueue({ waiting: 1, importing: 2, unreported: 3, settled: 9 })).toEqual({
      waiting: 1,
      importing: 2,
      unreported: 3,
      done: 9,
      description: '1 job here waiting for the books, 2 being imported and 3 whose results have not reached the relay yet.',
    });
  });
});

describe('describeSync', () => {
  it('tells an idle connector that has synced from one that never has', () => {
    expect(describeSync(false, null, ago(2 * MINUTE), now)).toEqual({
      running: false,
      progress: null,
      percent: null,
      expectedVouchers: null,
      lastSyncAt: ago(2 * MINUTE),
      failures: [],
      description: 'Idle; the last sync finished 2 minutes ago.',
    });
    expect(describeSync(false, null, null, now).description).toBe('Idle; nothing has been synced yet.');
  });

  it('gives the share of the pass done and the phase in words while a sync runs', () => {
    const status = describeSync(true, { companyId: 7, phase: 'vouchers', done: 3, total: 4, items: 120 }, null, now);
    expect(status.percent).toBe(70);
    expect(status.description).toBe('Company 7: sending vouchers (120 items so far).');
  });

  it('only moves forward through a pass, phase after phase', () => {
    const steps: [SyncPhase, number, number][] = [
      ['probe', 0, 1], ['masters', 0, 1], ['masters', 1, 1], ['vouchers', 0, 12], ['vouchers', 6, 12], ['vouchers', 12, 12],
      ['deletions', 0, 2], ['deletions', 2, 2], ['reports', 0, 1], ['reports', 1, 1],
    ];
    const percents = steps.map(([phase, done, total]) => describeSync(true, { companyId: 7, phase, done, total, items: 0 }, null, now).percent as number);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect([percents[0], percents[percents.length - 1]]).toEqual([0, 100]);
  });

  it('moves through one big date window voucher by voucher, counted against what the books say is to come', () => {
    // 3,000 vouchers in one window: by windows alone the bar would sit at 10 % until the window ends.
    const at = (items: number) => describeSync(true, { companyId: 7, phase: 'vouchers', done: 0, total: 1, items }, null, now, { expectedVouchers: 3000 });
    expect([0, 300, 1500, 2999, 3000].map((items) => at(items).percent)).toEqual([10, 18, 50, 90, 90]);
    expect(at(1500).expectedVouchers).toBe(3000);
    // Fewer sent than the counters promised (a voucher altered twice counts twice): never past the band.
    expect(describeSync(true, { companyId: 7, phase: 'vouchers', done: 0, total: 1, items: 5000 }, null, now, { expectedVouchers: 3000 }).percent).toBe(90);
    // Windows done are not mixed in: how many are left changes as the pass finds the book's density, so
    // 3 of 4 now can be 3 of 9 at the next window, and the bar would step back.
    expect(describeSync(true, { companyId: 7, phase: 'vouchers', done: 3, total: 4, items: 1500 }, null, now, { expectedVouchers: 3000 }).percent).toBe(50);
    expect(describeSync(true, { companyId: 7, phase: 'vouchers', done: 3, total: 9, items: 1600 }, null, now, { expectedVouchers: 3000 }).percent).toBe(53);
    // Without an expectation from the counters, windows done are all there is.
    expect(describeSync(true, { companyId: 7, phase: 'vouchers', done: 3, total: 4, items: 10 }, null, now, {}).percent).toBe(70);
  });

  it('does not call an idle connector whose last sync failed up to date, nor give it an expectation', () => {
    const failed = describeSync(false, null, ago(2 * MINUTE), now, { expectedVouchers: 12, failures: [{ companyId: 7, error: 'the books stopped answering' }] });
    expect(failed.description).toBe('The last sync failed for company 7 (the books stopped answering); it is tried again at the next pass.');
    expect(failed.expectedVouchers).toBeNull();
    expect(failed.failures).toEqual([{ companyId: 7, error: 'the books stopped answering' }]);
  });
});

describe('expectedVoucherChanges', () => {
  it('is how far the books voucher counter is ahead of the confirmed cursor', () => {
    expect(expectedVoucherChanges({ altVchId: 3100 }, undefined)).toBe(3100);
    expect(expectedVoucherChanges({ altVchId: 3100 }, JSON.stringify({ a: 100 }))).toBe(3000);
    // A pass under way keeps its starting point until its last window is confirmed.
    expect(expectedVoucherChanges({ altVchId: 3100 }, JSON.stringify({ a: 100, t: 3100, w: '20260430' }))).toBe(3000);
    expect(expectedVoucherChanges({ altVchId: 3100 }, JSON.stringify({ a: 3100 }))).toBeNull();
    expect(expectedVoucherChanges(undefined, undefined)).toBeNull();
  });
});

describe('describeSent', () => {
  it('counts only what was sent, in singular or plural', () => {
    expect(describeSent(0, 0, 0)).toBe('up to date');
    expect(describeSent(0, 1, 0)).toBe('1 voucher sent');
    expect(describeSent(2, 0, 0)).toBe('2 masters sent');
    expect(describeSent(0, 12, 1)).toBe('12 vouchers and 1 deletion sent');
    expect(describeSent(3, 12, 2)).toBe('3 masters, 12 vouchers and 2 deletions sent');
  });
});
