// Voucher export windows: planned one at a time, each sized to hold about a window's worth of vouchers
// (month by month in a book of ordinary density, runs of days in a dense one, by what the window before
// held), never past a month's end, every day covered once, the last one open-ended.
import { describe, expect, it } from 'vitest';
import { nextDay, VoucherWindowPlan, type DateWindow } from '../src/core/sync/date-windows.js';

const OPEN_END = '29991231';

/** Reads a plan to its end, telling it what each window held by `vouchersIn`. */
function readAll(plan: VoucherWindowPlan, vouchersIn: (window: DateWindow) => number): DateWindow[] {
  const windows: DateWindow[] = [];
  for (let window = plan.next(); window; window = plan.next()) {
    windows.push(window);
    plan.held(window, vouchersIn(window));
    expect(windows.length).toBeLessThan(10_000);
  }
  return windows;
}

/** Every day from `from` on lies in exactly one window, in order, the last one open-ended. */
function expectContiguous(windows: readonly DateWindow[], from: string): void {
  expect(windows[0]?.from).toBe(from);
  expect(windows[windows.length - 1]?.to).toBe(OPEN_END);
  for (let i = 1; i < windows.length; i += 1) expect(windows[i]?.from).toBe(nextDay((windows[i - 1] as DateWindow).to));
  for (const window of windows.slice(0, -1)) {
    expect(window.from <= window.to).toBe(true);
    expect(window.from.slice(0, 6)).toBe(window.to.slice(0, 6));
  }
}

/** Days from..to (inclusive), the open end counted up to `lastDay`. */
function daysIn(window: DateWindow, lastDay: string): number {
  const to = window.to === OPEN_END ? lastDay : window.to;
  const at = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(4, 6)) - 1, Number(d.slice(6, 8)));
  return (at(to) - at(window.from)) / 86_400_000 + 1;
}

describe('voucher window plan', () => {
  it('reads a book of ordinary density month by month', () => {
    // 40,000 vouchers a year: about 3,300 a month, fewer than a window of 5,000.
    const plan = new VoucherWindowPlan([], { from: '20260401', to: '20270331', changes: 40_000, perWindow: 5_000 }, OPEN_END);
    const windows = readAll(plan, (w) => Math.round((daysIn(w, '20270331') * 40_000) / 365));
    expectContiguous(windows, '20260401');
    expect(windows).toHaveLength(12);
    expect(windows[0]).toEqual({ from: '20260401', to: '20260430' });
    expect(windows[11]).toEqual({ from: '20270301', to: OPEN_END });
  });

  it('cuts a dense book into runs of days that hold no more than about a window each', () => {
    // A million vouchers a year: about 2,740 a day, so one day a window.
    const perDay = 1_000_000 / 365;
    const plan = new VoucherWindowPlan([], { from: '20260401', to: '20270331', changes: 1_000_000, perWindow: 5_000 }, OPEN_END);
    const windows = readAll(plan, (w) => Math.round(daysIn(w, '20270331') * perDay));
    expectContiguous(windows, '20260401');
    expect(windows).toHaveLength(365);
    expect(windows.every((w) => daysIn(w, '20270331') * perDay <= 5_000)).toBe(true);
  });

  it('sizes each window by what the one before held, when the vouchers are not spread evenly', () => {
    // Two years of books, all 200,000 vouchers in the second: the even guess (about 270 a day) gives
    // 18-day windows; the empty first year lets them grow to months, and the dense year brings them
    // down to what holds about 5,000 (550 a day: 9 days).
    const dense = (day: string) => (day >= '20260401' ? 200_000 / 365 : 0);
    const held = (w: DateWindow) => {
      let n = 0;
      for (let day = w.from; day <= (w.to === OPEN_END ? '20270331' : w.to); day = nextDay(day)) n += dense(day);
      return Math.round(n);
    };
    const plan = new VoucherWindowPlan([], { from: '20250401', to: '20270331', changes: 200_000, perWindow: 5_000 }, OPEN_END);
    const windows = readAll(plan, held);
    expectContiguous(windows, '20250401');
    expect(windows[0]).toEqual({ from: '20250401', to: '20250418' });
    expect(windows.filter((w) => w.to < '20260401').every((w) => held(w) === 0)).toBe(true);
    expect(windows.filter((w) => w.to < '20260401').length).toBeLessThanOrEqual(14);
    // The first dense window may be large (the books said nothing of it); every later one is near 5,000.
    const later = windows.filter((w) => w.from >= '20260401').slice(1, -1);
    expect(later.length).toBeGreaterThan(30);
    expect(later.every((w) => held(w) <= 5_600)).toBe(true);
  });

  it('lets windows grow across a thin stretch of a dense book to twice the even spread at most', () => {
    // A million vouchers, all in the second of two years: the even guess is 3-day windows; across the
    // empty year they grow to 6 days, not to months, so the first dense window holds some 16,000, not
    // the 85,000 of a month; after it, about 5,000 each.
    const perDay = (day: string) => (day >= '20260401' ? 1_000_000 / 365 : 0);
    const held = (w: DateWindow) => {
      let n = 0;
      for (let day = w.from; day <= (w.to === OPEN_END ? '20270331' : w.to); day = nextDay(day)) n += perDay(day);
      return Math.round(n);
    };
    const plan = new VoucherWindowPlan([], { from: '20250401', to: '20270331', changes: 1_000_000, perWindow: 5_000 }, OPEN_END);
    const windows = readAll(plan, held);
    expectContiguous(windows, '20250401');
    expect(windows[0]).toEqual({ from: '20250401', to: '20250403' });
    expect(Math.max(...windows.map((w) => daysIn(w, '20270331')))).toBe(6);
    expect(Math.max(...windows.map(held))).toBeLessThanOrEqual(6 * 2_740);
    expect(windows.filter((w) => w.from >= '20260401').slice(1).every((w) => held(w) <= 5_500)).toBe(true);
  });

  it('reads the windows it was given first as they are, and sizes only its own', () => {
    const before = { from: '19000101', to: '20250331' };
    const plan = new VoucherWindowPlan([before], { from: '20250401', to: '20250630', changes: 9_000, perWindow: 5_000 }, OPEN_END);
    expect(plan.next()).toBe(before);
    plan.held(before, 1_000_000);
    expect(plan.next()).toEqual({ from: '20250401', to: '20250430' });
  });

  it('is one open-ended window when it plans no days', () => {
    const plan = new VoucherWindowPlan([{ from: '19000101', to: OPEN_END }], undefined, OPEN_END);
    expect(readAll(plan, () => 10)).toEqual([{ from: '19000101', to: OPEN_END }]);
  });
});
