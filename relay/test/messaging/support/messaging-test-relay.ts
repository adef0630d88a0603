// A relay for messaging tests, started by the test kit with workers off (tests drive the loops with
// runOnce) and an optional pinned clock (the kit's testClock), and helpers that provision a tenant, an API key and
// templates through the operator API exactly as an operator would.
import type { FastifyInstance } from 'fastify';
import { call, startRelay, TEST_OPERATOR_TOKEN, type DatabaseKind, type TestRelay } from '@ledgerwire/test-kit';

export type MessagingTestRelay = TestRelay;

export function startMessagingRelay(kind: DatabaseKind, env: Record<string, string> = {}, options: { now?: () => number } = {}): Promise<MessagingTestRelay> {
  return startRelay({ database: kind, env: { RELAY_WORKERS: '0', ...env }, ...(options.now ? { clock: { now: options.now } } : {}) });
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
