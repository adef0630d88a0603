// Watches the books: running or not, which companies are open. Probes on an interval (skipping a
// probe while the books are busy with a request of ours, which already proves they run), and tells
// the service when the picture changes, so the relay hears `presence` and waiting jobs can run.
// Books that were running and stop are told to the relay (books.stopped) only once a second look,
// `stopConfirmMs` later, still finds them stopped: a flap — TallyPrime gone for a moment — is no news
// for an integrator. This process's own picture (its status, its jobs) follows the books at once.
import type { ConnectorBooksState } from '@ledgerwire/shared';
import { BooksRequestError } from '../books/books-errors.js';
import type { Logger } from '../support/logger.js';
import { errorText } from '../support/logger.js';
import type { BooksCompany } from './books-company.js';

export type BooksPicture = Readonly<{
  /** null until the first probe answered or failed. */
  running: boolean | null;
  /** Plain words when the books cannot be used (not running, not answering, no company open). */
  problem: string | null;
  companies: readonly BooksCompany[];
  checkedAt: string | null;
}>;

export type PresenceMonitorOptions = Readonly<{
  listCompanies: () => Promise<BooksCompany[]>;
  isBusy: () => boolean;
  intervalMs: number;
  /** How long books that stopped must stay stopped before the relay is told (see the top). */
  stopConfirmMs: number;
  log: Logger;
  onChange: (picture: BooksPicture) => void;
  /** After every probe, changed or not (the service nudges waiting jobs). */
  onProbe?: (picture: BooksPicture) => void;
}>;

export class PresenceMonitor {
  private pictureValue: BooksPicture = { running: null, problem: null, companies: [], checkedAt: null };
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<BooksPicture> | undefined;
  private stopped = false;
  /** Set while books that were running are seen stopped and a second look has not confirmed it yet. */
  private unconfirmedStop: NodeJS.Timeout | undefined;

  constructor(private readonly options: PresenceMonitorOptions) {}

  get picture(): BooksPicture {
    return this.pictureValue;
  }

  /** The protocol's view: running (a stop not yet confirmed is not told) and the open companies. */
  booksState(): ConnectorBooksState {
    return {
      running: this.pictureValue.running === true || this.unconfirmedStop !== undefined,
      open_companies: this.pictureValue.companies.map((c) => ({ guid: c.guid, name: c.name })),
    };
  }

  start(): void {
    const tick = () => {
      const run = this.options.isBusy() ? Promise.resolve(this.pictureValue) : this.check();
      void run.finally(() => {
        if (this.timer !== undefined) this.timer = setTimeout(tick, this.options.intervalMs);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  /** No more probes, and nothing learnt afterwards (a probe cut by the stop) is reported as a change. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    clearTimeout(this.unconfirmedStop);
    this.unconfirmedStop = undefined;
  }

  /** Probes now (joining a probe under way). */
  check(): Promise<BooksPicture> {
    this.probing ??= this.probe().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /** Records what a request made for other reasons (a sync probe, an import) learnt about the books. */
  observe(companies: readonly BooksCompany[] | null, error?: unknown): void {
    if (companies) this.update({ running: true, problem: companies.length === 0 ? 'the books are running but no company is open' : null, companies });
    else if (error instanceof BooksRequestError && error.kind === 'not_running') this.update({ running: false, problem: error.message, companies: [] });
  }

  private async probe(): Promise<BooksPicture> {
    try {
      const companies = await this.options.listCompanies();
      this.observe(companies);
    } catch (error) {
      if (error instanceof BooksRequestError && error.kind === 'not_running') this.observe(null, error);
      else {
        // Answering badly or slowly: running, but not usable right now. Keep the last companies.
        this.update({ running: true, problem: `the books are not answering properly: ${errorText(error)}`, companies: this.pictureValue.companies });
      }
    }
    // A probe the stop cut short tells no one: the service is closing its state.
    if (!this.stopped) this.options.onProbe?.(this.pictureValue);
    return this.pictureValue;
  }

  /** The second look: still stopped → the relay is told now (onChange); running again → nothing to tell. */
  private async confirmStop(): Promise<void> {
    await this.check();
    if (this.stopped || this.unconfirmedStop === undefined || this.pictureValue.running !== false) return;
    this.unconfirmedStop = undefined;
    this.options.onChange(this.pictureValue);
  }

  private update(next: Omit<BooksPicture, 'checkedAt'>): void {
    if (this.stopped) return;
    const before = this.pictureValue;
    this.pictureValue = { ...next, checkedAt: new Date().toISOString() };
    const changed =
      before.running !== next.running ||
      before.companies.length !== next.companies.length ||
      before.companies.some((c, i) => c.guid !== next.companies[i]?.guid || c.name !== next.companies[i]?.name);
    if (next.running !== false && this.unconfirmedStop !== undefined) {
      clearTimeout(this.unconfirmedStop);
      this.unconfirmedStop = undefined;
      this.options.log.info('the books are back before their stop was confirmed; the relay was not told of it');
    } else if (next.running === false && before.running === true) {
      this.unconfirmedStop = setTimeout(() => void this.confirmStop(), this.options.stopConfirmMs);
      this.unconfirmedStop.unref();
    }
    if (!changed) return;
    if (next.running === false) this.options.log.warn(`books stopped: ${next.problem ?? ''}`);
    else if (before.running !== true) this.options.log.info(`books running; companies open: ${next.companies.map((c) => c.name).join(', ') || 'none'}`);
    else this.options.log.info(`companies open in the books: ${next.companies.map((c) => c.name).join(', ') || 'none'}`);
    this.options.onChange(this.pictureValue);
  }
}
