// A relay for messaging tests: a fresh database (SQLite or PostgreSQL), workers off (tests drive the
// loops with runOnce), an optional pinned clock, and helpers that provision a tenant, an API key and
// templates through the operator API exactly as an operator would.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.js';
import { loadConfig, type RelayConfig } from '../../../src/config/load-config.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../../helpers/test-databases.js';
import { call, TEST_OPERATOR_TOKEN } from '../../helpers/test-relay.js';

export type MessagingTestRelay = Readonly<{
  app: FastifyInstance;
  config: RelayConfig;
  testDatabase: TestDatabase;
  close(): Promise<void>;
}>;

/** A mutable test clock: tests pin it inside a window so limits never straddle a boundary. */
export class TestClock {
  constructor(public ms: number) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** 30 s into a minute (and far from midnight UTC): every per-minute and daily window is open. */
export function midMinute(): number {
  const day = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  return day + 12 * 3_600_000 + 30_000;
}

export async function startMessagingRelay(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  options: { now?: () => number } = {},
): Promise<MessagingTestRelay> {
  const testDatabase = await createTestDatabase(kind);
  const base = loadConfig({
    DATA_DIR: testDatabase.dataDir,
    LOG_LEVEL: 'silent',
    RELAY_ADMIN_TOKEN: TEST_OPERATOR_TOKEN,
    RELAY_WORKERS: '0',
    ...env,
  });
  const config: RelayConfig = Object.freeze({ ...base, database: testDatabase.database });
  const app = await buildApp(config, options.now ? { now: options.now } : {});
  return {
    app,
    config,
    testDatabase,
    async close() {
      await app.close();
      await testDatabase.drop();
    },
  };
}

export type ProvisionedTenant = Readonly<{ id: string; apiKey: string; prefix: string; orgId: number }>;

let nextOrgId = 1000;

export async function provisionTenant(
  app: FastifyInstance,
  body: { name?: string; limits?: Record<string, number | null>; provider_order?: string[]; org_id?: number } = {},
): Promise<ProvisionedTenant> {
  const orgId = body.org_id ?? nextOrgId++;
  const created = await call(app, 'POST', '/admin/v1/tenants', 201, {
    token: TEST_OPERATOR_TOKEN,
    payload: { name: body.name ?? `Tenant ${orgId}`, org_id: orgId, ...(body.limits ? { limits: body.limits } : {}), ...(body.provider_order ? { provider_order: body.provider_order } : {}) },
  });
  const id = created.body.tenant.id as string;
  const key = await call(app, 'POST', `/admin/v1/tenants/${id}/api-keys`, 201, { token: TEST_OPERATOR_TOKEN });
  return { id, apiKey: key.body.api_key, prefix: key.body.prefix, orgId };
}

export async function createTemplate(
  app: FastifyInstance,
  tenantId: string,
  body: { event_key: string; channel?: string; subject?: string; html?: string; text?: string; is_active?: boolean },
): Promise<string> {
  const created = await call(app, 'POST', `/admin/v1/tenants/${tenantId}/templates`, 201, {
    token: TEST_OPERATOR_TOKEN,
    payload: { channel: 'email', subject: 'Subject {{name}}', html: '<p>Hello {{name}}</p>', is_active: true, ...body },
  });
  return created.body.template.id as string;
}

let transactionCounter = 0;

export function sendBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  transactionCounter += 1;
  return {
    channel: 'email',
    to: 'ada@example.com',
    subject: 'Your invoice {{invoice}}',
    event_key: 'invoice_ready',
    transaction_id: `txn-${process.pid}-${transactionCounter}`,
    data: { name: 'Ada', invoice: 'INV-1' },
    ...overrides,
  };
}
