// The fault matrix: for each fault, a fresh installation (books emulator, relay, connector as real
// processes) gets `vouchers` journals through the API while the fault happens once or several times,
// at instants drawn from a seeded generator. Then it waits for every transaction to end and reads the
// books: each accepted voucher must be there exactly once, and every transaction completed or failed
// with a reason. Counted per fault: lost (accepted, not in the books and not failed), duplicated
// (in the books more than once), stuck (not ended by the deadline) and the time to recover (from the
// fault's end until every transaction ended).
import { FaultCluster } from './fault-cluster.js';
import { ThrowawayPostgres } from './throwaway-postgres.js';

export type FaultReport = Readonly<{
  fault: string;
  vouchers: number;
  accepted: number;
  completed: number;
  failed: number;
  lost: number;
  duplicated: number;
  stuck: number;
  recoverMs: number;
  failures: readonly string[];
}>;

/** mulberry32: a small seeded generator, so a failing run can be repeated instant for instant. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultSetting = Readonly<{ cluster: FaultCluster; random: () => number; postgres: ThrowawayPostgres | undefined }>;

export type Fault = Readonly<{
  name: string;
  /** What the installation runs on: one relay on SQLite, or relays on a PostgreSQL of the run's own. */
  database: 'sqlite' | 'postgres';
  relays?: number;
  /** Runs the connector with its wall clock this far from the relay's (needs libfaketime). */
  connectorClock?: string;
  /** Called once the given share of the vouchers has been posted; returns when the fault is over. */
  inject(setting: FaultSetting): Promise<void>;
  /** Shares of the run (0..1) at which `inject` runs. */
  at: readonly number[];
}>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const FAULTS: readonly Fault[] = [
  {
    name: 'connector killed at random instants',
    database: 'sqlite',
    at: [0.2, 0.5, 0.8],
    async inject({ cluster, random }) {
      await pause(Math.floor(random() * 400)); // a random instant: before, during or after an import
      await cluster.kill('connector');
      await cluster.startConnector();
    },
  },
  {
    name: "the books' answer lost after import",
    database: 'sqlite',
    at: [0.25, 0.6],
    async inject({ cluster }) {
      await cluster.booksControl('POST', '/faults', { kind: 'drop-after-import' });
    },
  },
  {
    name: 'books stopped and started',
    database: 'sqlite',
    at: [0.4],
    async inject({ cluster, random }) {
      await cluster.booksControl('POST', '/books/stop');
      await pause(1000 + Math.floor(random() * 1000));
      await cluster.booksControl('POST', '/books/start');
    },
  },
  {
    name: 'relay killed (SQLite)',
    database: 'sqlite',
    at: [0.3, 0.7],
    async inject({ cluster, random }) {
      await pause(Math.floor(random() * 300));
      await cluster.kill('relay');
      await cluster.startRelay();
    },
  },
  {
    name: 'one of two relays killed (PostgreSQL)',
    database: 'postgres',
    relays: 2,
    at: [0.3, 0.6],
    async inject({ cluster, random }) {
      // First the relay the connector is not on (its accepted writes must reach the connector
      // through the other), then the connector's own (it must come back to the restarted one).
      const index = cluster.nextKill++ % 2 === 0 ? 1 : 0;
      await pause(Math.floor(random() * 300));
      await cluster.kill('relay', 'SIGKILL', index);
      await pause(500);
      await cluster.startRelay(index);
    },
  },
  {
    name: 'PostgreSQL itself restarted',
    database: 'postgres',
    at: [0.5],
    async inject({ postgres }) {
      postgres!.restart();
    },
  },
  {
    name: 'clock skew: the connector 3 hours ahead of the relay',
    database: 'sqlite',
    connectorClock: '+3h',
    at: [0.5],
    async inject({ cluster }) {
      // And a reconnection while skewed: the session's timestamps come from the connector's clock.
      await cluster.kill('connector');
      await cluster.startConnector();
    },
  },
  {
    name: 'clock skew: the connector 3 hours behind the relay',
    database: 'sqlite',
    connectorClock: '-3h',
    at: [0.5],
    async inject({ cluster }) {
      await cluster.kill('connector');
      await cluster.startConnector();
    },
  },
  {
    name: 'connector frozen longer than two heartbeats',
    database: 'sqlite',
    at: [0.5],
    async inject({ cluster }) {
      cluster.signal('connector', 'SIGSTOP');
      await pause(3500); // heartbeat 1 s: the relay drops it after 2 s and hands its jobs out again
      cluster.signal('connector', 'SIGCONT');
    },
  },
];

/** Runs one fault against a fresh installation and reports what happened to every voucher. */
export async function runFault(fault: Fault, options: { vouchers: number; seed: number; deadlineMs: number }): Promise<FaultReport> {
  const random = seededRandom(options.seed);
  const postgres = fault.database === 'postgres' ? new ThrowawayPostgres() : undefined;
  const failures: string[] = [];
  if (postgres) await postgres.start();
  const cluster = new FaultCluster({
    ...(postgres ? { databaseUrl: postgres.url } : {}),
    relays: fault.relays ?? 1,
    ...(fault.connectorClock ? { connectorClock: fault.connectorClock } : {}),
  });
  try {
    await cluster.start();
    const tags = Array.from({ length: options.vouchers }, (_, i) => `FM-${options.seed}-${i + 1}`);
    const accepted = new Set<string>();
    const triggers = fault.at.map((share) => Math.max(1, Math.floor(share * options.vouchers)));
    let faultEndedAt = Date.now();
    // Posts in small concurrent groups; a post the relay did not answer (it was down) is retried
    // with the same transaction_id until it is accepted, as an integrator's client would.
    for (let i = 0; i < tags.length; i += 5) {
      const group = tags.slice(i, i + 5);
      await Promise.all(
        group.map(async (tag) => {
          for (let attempt = 0; attempt < 200 && !accepted.has(tag); attempt++) {
            if (await cluster.postJournal(tag)) accepted.add(tag);
            else await pause(100);
          }
        }),
      );
      const posted = i + group.length;
      for (const trigger of triggers) {
        if (trigger > i && trigger <= posted) {
          await fault.inject({ cluster, random, postgres });
          faultEndedAt = Date.now();
        }
      }
    }

    const deadline = Date.now() + options.deadlineMs;
    if (cluster.unexpectedExits.length > 0) throw new Error(cluster.unexpectedExits.join('\n'));
    let transactions = await cluster.transactions();
    while (transactions.some((t) => t.status === 'queued' || t.status === 'processing') && Date.now() < deadline) {
      await pause(250);
      transactions = await cluster.transactions().catch(() => transactions);
    }
    const recoverMs = Date.now() - faultEndedAt;
    const vouchers = await cluster.booksVouchers();
    const inBooks = new Map<string, number>();
    for (const v of vouchers) {
      const tag = /^fault matrix (\S+)$/.exec(v.narration)?.[1];
      if (tag) inBooks.set(tag, (inBooks.get(tag) ?? 0) + 1);
    }
    const byTag = new Map(transactions.map((t) => [t.transaction_id, t]));
    let lost = 0;
    let duplicated = 0;
    let stuck = 0;
    let completed = 0;
    let failed = 0;
    for (const tag of accepted) {
      const transaction = byTag.get(tag);
      const count = inBooks.get(tag) ?? 0;
      if (count > 1) {
        duplicated += count - 1;
        failures.push(`${tag} is in the books ${count} times`);
      }
      if (!transaction) {
        lost += 1;
        failures.push(`${tag} was accepted but the relay has no transaction for it`);
        continue;
      }
      if (transaction.status === 'completed') {
        completed += 1;
        if (count === 0) {
          lost += 1;
          failures.push(`${tag} completed but is not in the books`);
        }
      } else if (transaction.status === 'failed') {
        failed += 1;
        if (!transaction.error_code) failures.push(`${tag} failed without a reason`);
        if (count > 0) failures.push(`${tag} failed but is in the books`);
      } else {
        stuck += 1;
        failures.push(`${tag} is still ${transaction.status}`);
      }
    }
    return { fault: fault.name, vouchers: options.vouchers, accepted: accepted.size, completed, failed, lost, duplicated, stuck, recoverMs, failures };
  } finally {
    await cluster.stop();
    postgres?.stop();
  }
}

export function formatReport(report: FaultReport): string {
  const verdict = report.lost === 0 && report.duplicated === 0 && report.stuck === 0 && report.failures.length === 0 ? 'ok  ' : 'FAIL';
  return `${verdict} ${report.fault.padEnd(46)} vouchers ${String(report.accepted).padStart(4)}  completed ${String(report.completed).padStart(4)}  failed ${report.failed}  lost ${report.lost}  duplicated ${report.duplicated}  stuck ${report.stuck}  recovered in ${(report.recoverMs / 1000).toFixed(1)} s`;
}
