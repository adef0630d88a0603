// Builds a running emulator: books from SQLite under the data directory (seeded when empty), the
// XML port and the control port. `startEmulator` is the programmatic entry used by tests, the bench
// and other workspaces; cli.ts is the command-line one. Companies given in `load` (an integrator's own,
// from TallyPrime XML) are added at start when no company of that name is loaded yet.
import { ControlInputError, ControlServer } from './control/control-server.js';
import { Faults } from './faults.js';
import { CompanyAlreadyLoaded, loadCompany, type CompanyLoadIn } from './seeds/company-load.js';
import { seedBooks, SEED_NAMES, type SeedName } from './seeds/seed-books.js';
import { BooksStore } from './state/books-store.js';
import { XmlServer } from './xml-server.js';

export interface EmulatorOptions {
  /** XML port (TallyPrime's default 9000); 0 picks a free one. */
  port?: number;
  /** Control API port; 0 picks a free one. */
  controlPort?: number;
  dataDir: string;
  seed?: SeedName;
  /** Extra load vouchers booked at seeding time. */
  vouchers?: number;
  host?: string;
  /** Companies to load from TallyPrime XML (masters, opening balances, vouchers) unless already loaded. */
  load?: CompanyLoadIn[];
  /**
   * Counts the process's garbage-collection pauses between requests in GET /busy (collectorMs). Only
   * for an emulator with a process of its own (the command line): in a shared one they are not its own.
   */
  countCollectorPauses?: boolean;
}

export interface RunningEmulator {
  xmlUrl: string;
  controlUrl: string;
  xmlPort: number;
  controlPort: number;
  store: BooksStore;
  close(): Promise<void>;
}

function isSeedName(value: unknown): value is SeedName {
  return typeof value === 'string' && (SEED_NAMES as readonly string[]).includes(value);
}

export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const seed = options.seed ?? 'demo';
  const vouchers = options.vouchers ?? 0;
  const store = BooksStore.open(options.dataDir);
  if (store.isEmpty()) seedBooks(store, seed, vouchers);
  for (const company of options.load ?? []) {
    try {
      loadCompany(store, company);
    } catch (error) {
      // A restart on the same data keeps the company as booked; it is loaded once.
      if (error instanceof CompanyAlreadyLoaded) continue;
      store.close();
      throw error;
    }
  }
  const xml = new XmlServer(store, new Faults(), host);
  try {
    await xml.start(options.port ?? 9000);
  } catch (error) {
    store.close();
    throw error;
  }
  const control = new ControlServer(
    store,
    xml,
    {
      startBooks: () => xml.start(xml.port),
      stopBooks: () => xml.stop(),
      reset: async (body) => {
        const nextSeed = body.seed === undefined ? seed : body.seed;
        const nextVouchers = body.vouchers === undefined ? vouchers : body.vouchers;
        if (!isSeedName(nextSeed)) throw new ControlInputError(`seed must be one of ${SEED_NAMES.join(', ')}`);
        if (typeof nextVouchers !== 'number' || !Number.isInteger(nextVouchers) || nextVouchers < 0) {
          throw new ControlInputError('vouchers must be a whole number');
        }
        if (nextSeed === 'empty' && nextVouchers > 0) throw new ControlInputError('vouchers need the demo seed');
        xml.faults.clear();
        xml.faults.latencyMs = 0;
        await xml.exclusive(() => {
          store.wipe();
          seedBooks(store, nextSeed, nextVouchers);
        });
      },
      importCompany: (input) => xml.exclusive(() => loadCompany(store, input)),
    },
    host,
  );
  try {
    await control.start(options.controlPort ?? 9001);
  } catch (error) {
    await xml.stop();
    store.close();
    throw error;
  }
  const stopCountingCollector = options.countCollectorPauses ? xml.busy.observeCollector() : () => undefined;
  return {
    xmlUrl: `http://${host}:${xml.port}`,
    controlUrl: `http://${host}:${control.port}`,
    xmlPort: xml.port,
    controlPort: control.port,
    store,
    close: async () => {
      xml.faults.clear();
      await control.stop();
      await xml.stop();
      stopCountingCollector();
      store.close();
    },
  };
}
