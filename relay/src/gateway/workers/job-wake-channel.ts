// Scale mode: a connector's socket lives on one relay process, but a job may be accepted on another.
// On PostgreSQL every process LISTENs on one channel and the accepting process NOTIFYs the company id;
// the notification only wakes the session, the job row stays the delivery path (and the periodic claim
// pass catches anything a lost notification missed). On SQLite there is one process: the wake is local.
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { RelayConfig } from '../../config/load-config.js';
import type { DialectCapabilities } from '../../db/capabilities.js';

export type JobWakeChannel = Readonly<{
  /** Starts listening; `onWake` runs for every company id announced by any process (this one included). */
  start(onWake: (companyId: number) => void): Promise<void>;
  /** Announces a queued job of the company to every process. */
  announce(companyId: number): void;
  close(): Promise<void>;
}>;

export function createJobWakeChannel(deps: {
  database: RelayConfig['database'];
  capabilities: DialectCapabilities;
  log: FastifyBaseLogger;
}): JobWakeChannel {
  const database = deps.database;
  if (!deps.capabilities.notify || database.kind !== 'postgres') return localWakeChannel();
  // Channels are database-wide; the schema in the name keeps relays on different schemas apart.
  const channel = `lw_jobs_${database.schema ?? 'public'}`.slice(0, 63);
  let listener: pg.Client | undefined;
  let closing = false;

  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({
      connectionString: database.url,
      ...(database.schema ? { options: `-c search_path=${database.schema}` } : {}),
    });
    // A dropped connection is logged; the claim pass keeps jobs moving until the next start.
    client.on('error', (error) => {
      if (!closing) deps.log.error({ err: error }, 'job wake channel connection failed; relying on the claim pass');
    });
    await client.connect();
    return client;
  };

  const listen = async (onWake: (companyId: number) => void): Promise<void> => {
    const client = await connect();
    client.on('notification', (message) => {
      const companyId = Number(message.payload);
      if (message.channel === channel && Number.isInteger(companyId) && companyId > 0) onWake(companyId);
    });
    client.once('end', () => listenAgain(onWake));
    await client.query(`LISTEN "${channel}"`);
    listener = client;
  };

  // A lost listening connection is opened again; meanwhile the claim pass keeps jobs moving.
  const listenAgain = (onWake: (companyId: number) => void): void => {
    if (closing) return;
    const retry = setTimeout(() => {
      listen(onWake).catch((error: unknown) => {
        deps.log.error({ err: error }, 'job wake channel could not listen again; relying on the claim pass');
        listenAgain(onWake);
      });
    }, 1000);
    retry.unref();
  };

  // The announcing connection is opened on first use and again after it was lost.
  let announcer: Promise<pg.Client> | undefined;
  let announcements: Promise<unknown> = Promise.resolve();
  const announcerClient = (): Promise<pg.Client> => {
    announcer ??= connect().then((client) => {
      client.once('end', () => (announcer = undefined));
      return client;
    });
    announcer.catch(() => (announcer = undefined));
    return announcer;
  };

  return Object.freeze({
    async start(onWake: (companyId: number) => void) {
      try {
        await listen(onWake);
      } catch (error) {
        listenAgain(onWake);
        throw error;
      }
    },
    announce(companyId: number) {
      if (closing) return;
      // One query at a time on the announcing connection (pg no longer queues them for the caller).
      announcements = announcements
        .then(announcerClient)
        .then((client) => client.query('select pg_notify($1, $2)', [channel, String(companyId)]))
        .catch((error: unknown) => {
          deps.log.warn({ err: error, company_id: companyId }, 'job wake notification failed; the claim pass will deliver the job');
        });
    },
    async close() {
      closing = true;
      await announcements;
      const announcing = announcer?.catch(() => undefined);
      await Promise.all([listener?.end().catch(() => undefined), announcing?.then((client) => client?.end()).catch(() => undefined)]);
    },
  });
}

function localWakeChannel(): JobWakeChannel {
  let wake: ((companyId: number) => void) | undefined;
  return Object.freeze({
    async start(onWake: (companyId: number) => void) {
      wake = onWake;
    },
    announce(companyId: number) {
      wake?.(companyId);
    },
    async close() {
      wake = undefined;
    },
  });
}
