// The one way a test starts a relay: in this process, on a database of its own, with a known operator
// token, so suites never assemble config, database and listener each in their own way.
import type { FastifyInstance } from 'fastify';
import { buildApp, loadConfig, type BuildAppOptions, type RelayConfig } from '@ledgerwire/relay';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './test-databases.js';

/** The bootstrap operator token every test relay accepts. */
export const TEST_OPERATOR_TOKEN = 'lwop_test-operator-token-0123456789';

export type StartRelayOptions = Readonly<{
  /** Default SQLite. */
  database?: DatabaseKind;
  /** Relay settings as the environment would give them (LOG_LEVEL is silent unless set here). */
  env?: Readonly<Record<string, string>>;
  /** Listen on 127.0.0.1 at a free port, for clients that need real HTTP (browsers, connectors). */
  listen?: boolean;
  /** The relay's time source (a TestClock, or anything with `now`). */
  clock?: Readonly<{ now: () => number }>;
  /** Where the relay's log lines go, for tests that read them. */
  logStream?: NodeJS.WritableStream;
  /**
   * Exactly these settings instead of a fresh database: a second instance on another relay's database
   * (`relay.config`), or a data directory the test prepared. The caller keeps owning that database.
   */
  config?: RelayConfig;
}>;

export type TestRelay = Readonly<{
  /** The running app (a new one after stop() and start()). */
  readonly app: FastifyInstance;
  config: RelayConfig;
  testDatabase: TestDatabase;
  /** http://127.0.0.1:<port>; only for a listening relay. */
  readonly baseUrl: string;
  /** Stops the app (connections drop) and keeps the database; start() brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}>;

export async function startRelay(options: StartRelayOptions = {}): Promise<TestRelay> {
  const owned = options.config ? undefined : await createTestDatabase(options.database ?? 'sqlite');
  const testDatabase = owned ?? borrowedDatabase(options.config as RelayConfig);
  const config: RelayConfig =
    options.config ??
    Object.freeze({
      ...loadConfig({ DATA_DIR: testDatabase.dataDir, LOG_LEVEL: 'silent', RELAY_ADMIN_TOKEN: TEST_OPERATOR_TOKEN, ...options.env }),
      database: testDatabase.database,
    });
  const appOptions: BuildAppOptions = {
    ...(options.clock ? { now: options.clock.now } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  };
  let port = 0;
  const open = async (): Promise<FastifyInstance> => {
    const app = await buildApp(config, appOptions);
    if (!options.listen) return app;
    try {
      await app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await app.close();
      throw error;
    }
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the test relay is not listening on a TCP port');
    port = address.port;
    return app;
  };
  let app: FastifyInstance;
  try {
    app = await open();
  } catch (error) {
    await owned?.drop();
    throw error;
  }
  let running = true;
  return {
    get app() {
      return app;
    },
    config,
    testDatabase,
    get baseUrl() {
      if (!options.listen) throw new Error('this test relay does not listen: start it with { listen: true }');
      return `http://127.0.0.1:${port}`;
    },
    async stop() {
      running = false;
      await app.close();
    },
    async start() {
      app = await open();
      running = true;
    },
    async close() {
      if (running) await app.close();
      running = false;
      await owned?.drop();
    },
  };
}

function borrowedDatabase(config: RelayConfig): TestDatabase {
  return { kind: config.database.kind, dataDir: config.dataDir, database: config.database, drop: async () => undefined };
}
