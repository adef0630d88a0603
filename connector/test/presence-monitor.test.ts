// The presence monitor at its edges: what a probe learns after the monitor was stopped (the connector is
// stopping and cut the probe) is no news about the books — a restart must not announce "books stopped";
// and books that stop are told to the relay only when a second look confirms it (a flap is not told).
import { describe, expect, it } from 'vitest';
import { BooksRequestError } from '../src/core/books/books-errors.js';
import type { BooksCompany } from '../src/core/presence/books-company.js';
import { PresenceMonitor, type BooksPicture } from '../src/core/presence/presence-monitor.js';
import { createLogger } from '../src/core/support/logger.js';

const company: BooksCompany = { guid: 'guid-1', name: 'Ledgerwire Demo Traders', booksFrom: '20250401', lastVoucherDate: '', altMstId: 0, altVchId: 0 };

const notRunning = () => Promise.reject(new BooksRequestError('not_running', 'nothing answers at http://127.0.0.1:9000', false));

function monitorWith(answers: (() => Promise<BooksCompany[]>)[], stopConfirmMs = 60_000) {
  const changes: BooksPicture[] = [];
  /** What the relay would hear at each change (booksState().running). */
  const told: boolean[] = [];
  let onTold: (running: boolean) => void = () => undefined;
  const monitor = new PresenceMonitor({
    listCompanies: () => (answers.shift() as () => Promise<BooksCompany[]>)(),
    isBusy: () => false,
    intervalMs: 60_000,
    stopConfirmMs,
    log: createLogger([], 'silent'),
    onChange: (picture) => {
      changes.push(picture);
      told.push(monitor.booksState().running);
      onTold(monitor.booksState().running);
    },
  });
  const toldStopped = new Promise<void>((resolve) => (onTold = (running) => running || resolve()));
  return { monitor, changes, told, toldStopped };
}

describe('presence monitor', () => {
  it('sees books that stop answering their port as stopped at once, and tells the relay once a second look agrees', async () => {
    const { monitor, changes, told, toldStopped } = monitorWith([async () => [company], notRunning, notRunning], 10);
    await monitor.check();
    await monitor.check();
    expect(changes.map((c) => c.running)).toEqual([true, false]);
    expect(monitor.booksState().running).toBe(true);
    await toldStopped;
    expect(told).toEqual([true, true, false]);
    monitor.stop();
  });

  it('does not tell the relay of books that were back before their stop was confirmed', async () => {
    const { monitor, changes, told } = monitorWith([async () => [company], notRunning, async () => [company]]);
    await monitor.check();
    await monitor.check();
    await monitor.check();
    expect(changes.map((c) => c.running)).toEqual([true, false, true]);
    expect(told).toEqual([true, true, true]);
    monitor.stop();
  });

  it('tells at once books that are not running when the connector starts (nothing to confirm a change from)', async () => {
    const { monitor, told } = monitorWith([notRunning]);
    await monitor.check();
    expect(told).toEqual([false]);
    monitor.stop();
  });

  it('reports nothing a probe learns once it has been stopped', async () => {
    let cut: (error: unknown) => void = () => undefined;
    const { monitor, changes } = monitorWith([async () => [company], () => new Promise<BooksCompany[]>((_, reject) => (cut = reject))]);
    await monitor.check();
    const probe = monitor.check();
    monitor.stop();
    cut(new BooksRequestError('not_running', 'nothing answers at http://127.0.0.1:9000', false));
    await probe;
    monitor.observe(null, new BooksRequestError('stopping', 'the connector is stopping', false));
    expect(changes.map((c) => c.running)).toEqual([true]);
    expect(monitor.picture.running).toBe(true);
  });
});
