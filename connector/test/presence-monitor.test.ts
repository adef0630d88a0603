// The presence monitor at its edges: what a probe learns after the monitor was stopped (the connector is
// stopping and cut the probe) is no news about the books — a restart must not announce "books stopped".
import { describe, expect, it } from 'vitest';
import { BooksRequestError } from '../src/core/books/books-errors.js';
import type { BooksCompany } from '../src/core/presence/books-company.js';
import { PresenceMonitor, type BooksPicture } from '../src/core/presence/presence-monitor.js';
import { createLogger } from '../src/core/support/logger.js';

const company: BooksCompany = { guid: 'guid-1', name: 'Ledgerwire Demo Traders', booksFrom: '20250401', lastVoucherDate: '', altMstId: 0, altVchId: 0 };

function monitorWith(answers: (() => Promise<BooksCompany[]>)[]) {
  const changes: BooksPicture[] = [];
  const monitor = new PresenceMonitor({
    listCompanies: () => (answers.shift() as () => Promise<BooksCompany[]>)(),
    isBusy: () => false,
    intervalMs: 60_000,
    log: createLogger([], 'silent'),
    onChange: (picture) => changes.push(picture),
  });
  return { monitor, changes };
}

describe('presence monitor', () => {
  it('reports books that stop answering their port as stopped', async () => {
    const { monitor, changes } = monitorWith([
      async () => [company],
      async () => Promise.reject(new BooksRequestError('not_running', 'nothing answers at http://127.0.0.1:9000', false)),
    ]);
    await monitor.check();
    await monitor.check();
    expect(changes.map((c) => c.running)).toEqual([true, false]);
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
