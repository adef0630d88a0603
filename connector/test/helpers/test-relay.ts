// A real relay for connector tests: buildApp from @ledgerwire/relay on SQLite in a temp directory (or,
// asked for, on a fresh PostgreSQL schema), listening on 127.0.0.1:0, with an application, an API key, a
// customer (whose token enrols connectors) and companies attached to that customer.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, loadConfig, MIGRATION_LOCK_KEY } from '@ledgerwire/relay';

export type RelayDatabaseKind = 'sqlite' | 'postgres';

/** The database kinds this run has (PostgreSQL when the global setup found it). */
export function relayDatabaseKinds(): RelayDatabaseKind[] {
  return inject('postgresAvailable') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * The relay's database settings: none for SQLite (under DATA_DIR); for PostgreSQL a schema of its own,
 * dropped by the global setup when the run ends (as relay/test/helpers/test-databases.ts does).
 */
async function databaseEnv(kind: RelayDatabaseKind): Promise<Record<string, string>> {
  if (kind === 'sqlite') return {};
  const url = inject('postgresUrl');
  const schema = `lw_test_${inject('testRunId')}_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`create schema ${schema}`);
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  } finally {
    await client.end();
  }
  return { DATABASE_URL: url, DATABASE_SCHEMA: schema };
}

const OPERATOR_TOKEN = 'lwop_connector-tests-operator-token-0123';

export type TestRelay = Readonly<{
  readonly app: FastifyInstance;
  /** Stops the relay (connections drop); `start` brings it back on the same port and database. */
  stop(): Promise<void>;
  start(): Promise<void>;
  baseUrl: string;
  customerToken: string;
  customerId: string;
  companyIds: number[];
  /** Calls the bridge API with the application's key; fails unless the status is `expected`. */
  api<T = any>(method: string, route: string, body?: unknown, expected?: number): Promise<T>;
  close(): Promise<void>;
}>;

async function call(app: FastifyInstance, method: string, url: string, token: string, body: unknown, expected: number): Promise<any> {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
  if (response.statusCode !== expected) throw new Error(`${method} ${url} → ${response.statusCode} (expected ${expected}): ${response.body.slice(0, 1000)}`);
  return response.json();
}

export async function startTestRelay(options: { companies?: number; env?: Record<string, string>; database?: RelayDatabaseKind } = {}): Promise<TestRelay> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-relay-'));
  const database = await databaseEnv(options.database ?? 'sqlite');
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RELAY_ADMIN_TOKEN: OPERATOR_TOKEN, ...database, ...options.env });
  let app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let running = true;
  const application = await call(app, 'POST', '/admin/v1/applications', OPERATOR_TOKEN, { name: 'Connector tests' }, 201);
  const key = await call(app, 'POST', `/admin/v1/applications/${application.application.id}/keys`, OPERATOR_TOKEN, {
    environment: 'test',
    capabilities: ['pull.master', 'report.stock', 'report.gst'],
  }, 201);
  const credential: string = key.credential;
  const customer = await call(app, 'POST', '/api/v1/customers', credential, { name: 'Acme Traders' }, 200);
  const companyIds: number[] = [];
  for (let i = 0; i < (options.companies ?? 1); i += 1) {
    const company = await call(app, 'POST', '/api/v1/companies', credential, { name: `Acme books ${i + 1}` }, 200);
    await call(app, 'POST', `/api/v1/companies/${company.company_id}/customer`, credential, { customer_id: customer.customer.id }, 200);
    await call(app, 'PATCH', `/admin/v1/companies/${company.company_id}`, OPERATOR_TOKEN, { pull_masters: true, reports: { stock: true, gst: true } }, 200);
    companyIds.push(company.company_id);
  }
  return {
    get app() {
      return app;
    },
    async stop() {
      running = false;
      await app.close();
    },
    async start() {
      app = await buildApp(config);
      await app.listen({ port, host: '127.0.0.1' });
      running = true;
    },
    baseUrl: `http://127.0.0.1:${port}`,
    customerToken: customer.customer.token,
    customerId: customer.customer.id,
    companyIds,
    api: (method, route, body, expected = 200) => call(app, method, route, credential, body, expected),
    async close() {
      if (running) await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
