// Runs the generated bad input against one in-process relay: provisions a credential of every family
// (operator, messaging tenant, bridge application, enrolled connector) so requests reach validation,
// then sends the seeded requests one at a time with a per-request timeout, and for each refused
// request compares the row count of every table before and after. Used by the trimmed suite in
// `npm test` and by the long run (relay/scripts/bad-input-fuzz.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { BRIDGE_CAPABILITIES } from '@ledgerwire/shared';
import { call } from '@ledgerwire/test-kit';
import { generateBadRequest, seededRandom, type BadRequest } from './bad-input-generator.js';
import { operationsOf, type Credential, type Operation } from './openapi-operations.js';

export const BAD_INPUT_OPERATOR_TOKEN = 'lwop_bad-input-operator-token-0123456789';

/** The environment a relay under bad input runs with: limits out of the way, so every answer is the input's verdict. */
export const BAD_INPUT_RELAY_ENV = Object.freeze({
  RELAY_ADMIN_TOKEN: BAD_INPUT_OPERATOR_TOKEN,
  RELAY_WORKERS: '0',
  LOG_LEVEL: 'silent',
  BRIDGE_RATE_LIMIT_PER_MINUTE: '1000000000',
});

// Not writes of the request's own: counters every authenticated request moves, the operator audit log,
// which records every mutating operator attempt with its status, refused ones included, and the log of
// refused sends that support reads in the console (the refusal and its reason, kept seven days).
const TABLES_NOT_COMPARED = new Set(['rate_limit_counters', 'operator_audit_log', 'msg_refused_sends']);
const UNLIMITED = 1_000_000_000;

export type Outcome = Readonly<{ index: number; operation: string; mutation: string; method: string; url: string; status: number | 'timeout' | 'crash'; rowsChanged?: string }>;

export type RunSummary = Readonly<{
  requests: number;
  operations: number;
  operationsCovered: number;
  byStatus: Record<string, number>;
  outcomes: readonly Outcome[];
  /** 5xx answers, hangs and refused requests that left rows behind. */
  failures: readonly Outcome[];
}>;

export type Fixtures = Readonly<{
  credentials: Record<Credential, string | undefined>;
  values: Record<string, string>;
}>;

/** A fixture call through the kit: answers the body, fails on any status but the expected one. */
async function provisionCall(app: FastifyInstance, expected: number, request: { method: 'GET' | 'POST'; url: string; token?: string; payload?: unknown }) {
  const { body } = await call(app, request.method, request.url, expected, {
    ...(request.token === undefined ? {} : { token: request.token }),
    ...(request.payload === undefined ? {} : { payload: request.payload as string }),
  });
  return body;
}

/** One object of every kind the paths name, provisioned through the APIs as a customer would. */
export async function provision(app: FastifyInstance): Promise<Fixtures> {
  const operator = BAD_INPUT_OPERATOR_TOKEN;
  const limits = { burst_per_minute: UNLIMITED, sustained_per_minute: UNLIMITED, daily_quota: UNLIMITED, events_per_minute: UNLIMITED, webhooks_per_minute: UNLIMITED };
  const tenant = await provisionCall(app, 201, { method: 'POST', url: '/admin/v1/tenants', token: operator, payload: { name: 'Bad Input Ltd', org_id: 4242, limits } });
  const tenantId: string = tenant.tenant.id;
  // PATCHes of a tenant go to this one: a valid PATCH may reset the fixture's limits to the defaults,
  // and then 429s would depend on the clock instead of the input.
  const decoy = await provisionCall(app, 201, { method: 'POST', url: '/admin/v1/tenants', token: operator, payload: { name: 'Decoy Ltd', org_id: 4343 } });
  const apiKey = await provisionCall(app, 201, { method: 'POST', url: `/admin/v1/tenants/${tenantId}/api-keys`, token: operator });
  const template = await provisionCall(app, 201, {
    method: 'POST', url: `/admin/v1/tenants/${tenantId}/templates`, token: operator,
    payload: { event_key: 'invoice_ready', channel: 'email', subject: 'Invoice {{invoice}}', html: '<p>{{name}}</p>', is_active: true },
  });
  const application = await provisionCall(app, 201, { method: 'POST', url: '/admin/v1/applications', token: operator, payload: { name: 'Bad Input Billing' } });
  const applicationId: string = application.application.id;
  const key = await provisionCall(app, 201, { method: 'POST', url: `/admin/v1/applications/${applicationId}/keys`, token: operator, payload: { environment: 'test', capabilities: [...BRIDGE_CAPABILITIES] } });
  const bridge: string = key.credential;
  const customer = await provisionCall(app, 200, { method: 'POST', url: '/api/v1/customers', token: bridge, payload: { name: 'Sharma Traders' } });
  const company = await provisionCall(app, 200, { method: 'POST', url: '/api/v1/companies', token: bridge, payload: { name: 'Sharma FY25', customer_id: customer.customer.id } });
  const connector = await provisionCall(app, 200, { method: 'POST', url: '/api/v1/connectors/enroll', payload: { token: customer.customer.token, machine_name: 'PC-FUZZ', version: '1.0.0' } });
  return {
    credentials: { operator: BAD_INPUT_OPERATOR_TOKEN, messaging: apiKey.api_key, bridge: key.credential, connector: connector.credential, none: undefined },
    values: {
      tenant: tenantId, template: template.template.id, application: applicationId, key: key.key_id,
      customer: customer.customer.id, token: customer.customer.token, company: String(company.company_id),
      connector: connector.connector_id, machine: 'PC-FUZZ', decoyTenant: decoy.tenant.id,
    },
  };
}

/**
 * The value of a path (or company_id query) parameter: an object that exists, so the request reaches
 * its validation — except on operations that would destroy or rotate a fixture, which get a well-formed
 * id that does not exist (a fixture revoked early would leave the rest of the run answering 401).
 */
export function pathValue(fixtures: Fixtures, operation: Operation, name: string): string {
  const v = fixtures.values;
  const destructive = operation.method === 'DELETE' || /rotate|disconnect|revoke/.test(operation.path);
  if (destructive) return /company|^id$/.test(name) && /compan/.test(operation.path) ? '2147483000' : 'does-not-exist-1';
  if (name === 'company_id') return v['company'] as string;
  if (name === 'type') return 'ledger';
  if (name === 'machine') return v['machine'] as string;
  if (name === 'token') return v['token'] as string;
  if (name === 'prefix' || name === 'key_id') return v['key'] as string;
  if (name === 'template_id') return v['template'] as string;
  if (name !== 'id') return 'does-not-exist-1';
  if (operation.path.startsWith('/admin/v1/tenants')) return (operation.method === 'PATCH' ? v['decoyTenant'] : v['tenant']) as string;
  if (operation.path.startsWith('/admin/v1/console/tenants')) return v['tenant'] as string;
  if (operation.path.includes('/applications/')) return v['application'] as string;
  if (operation.path.includes('/companies/')) return v['company'] as string;
  if (operation.path.includes('/customers/')) return v['customer'] as string;
  return 'does-not-exist-1';
}

/**
 * The relay's tables, from its own schema only (Kysely's introspection scans every schema of the
 * database, and breaks when a parallel suite drops one mid-scan).
 */
export async function relayTables(app: FastifyInstance): Promise<string[]> {
  const db = app.database.db;
  const query =
    app.config.database.kind === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`;
  const rows = (await query.execute(db)).rows;
  return rows.map((r) => r.name).filter((name) => !TABLES_NOT_COMPARED.has(name) && !name.startsWith('kysely_')).sort();
}

/** The row count of every table but the counters, as one statement. */
export async function rowCounts(app: FastifyInstance, tables: readonly string[]): Promise<Map<string, number>> {
  const query = tables.map((t) => `select '${t}' as t, count(*) as n from "${t}"`).join(' union all ');
  const result = await sql<{ t: string; n: number | string }>`${sql.raw(query)}`.execute(app.database.db);
  return new Map(result.rows.map((row) => [row.t, Number(row.n)]));
}

function difference(before: Map<string, number>, after: Map<string, number>): string | undefined {
  const changed = [...after].filter(([t, n]) => before.get(t) !== n).map(([t, n]) => `${t} ${before.get(t)}→${n}`);
  return changed.length > 0 ? changed.join(', ') : undefined;
}

type Status = number | 'timeout' | 'crash';

/** One request over a real socket: Node's own HTTP parser judges it first (headers over 16 KiB → 431). */
function overHttp(port: number, agent: http.Agent, request: BadRequest, headers: Record<string, string>): Promise<Status> {
  return new Promise((resolve) => {
    const body = request.payload === undefined ? undefined : Buffer.from(request.payload, 'utf8');
    const outgoing = http.request(
      { host: '127.0.0.1', port, agent, method: request.method, path: request.url, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 'crash'));
      },
    );
    outgoing.on('error', () => resolve('crash'));
    outgoing.end(body);
  });
}

async function send(app: FastifyInstance, transport: Transport, request: BadRequest, credential: string | undefined, timeoutMs: number): Promise<Status> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const headers = { ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...request.headers };
  const answer: Promise<Status> =
    transport.kind === 'http'
      ? overHttp(transport.port, transport.agent, request, headers)
      : app
          .inject({ method: request.method as 'GET', url: request.url, headers, ...(request.payload === undefined ? {} : { payload: request.payload }) })
          .then((response) => response.statusCode, () => 'crash' as const);
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Transport = { kind: 'inject' } | { kind: 'http'; port: number; agent: http.Agent };

export type RunOptions = Readonly<{
  seed: number;
  requests: number;
  timeoutMs?: number;
  /** `inject` (in-process, the default) or `http`: a real socket, so Node's parser limits (431) are met too. */
  transport?: 'inject' | 'http';
}>;

/** Sends `requests` seeded bad requests round-robin over every operation of the relay's OpenAPI document. */
export async function runBadInput(app: FastifyInstance, options: RunOptions): Promise<RunSummary> {
  const fixtures = await provision(app);
  const { body: document } = await call(app, 'GET', '/docs/json', 200);
  // The WebSocket endpoint answers an upgrade, not input; every other operation is driven.
  const operations = operationsOf(document).filter((op) => op.path !== '/api/v1/connectors/socket');
  const rng = seededRandom(options.seed);
  const outcomes: Outcome[] = [];
  const failures: Outcome[] = [];
  const byStatus: Record<string, number> = {};
  const transport: Transport =
    options.transport === 'http'
      ? { kind: 'http', port: await listeningPort(app), agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) }
      : { kind: 'inject' };
  const tables = await relayTables(app);
  let before = await rowCounts(app, tables);
  for (let index = 0; index < options.requests; index++) {
    const operation = operations[index % operations.length] as Operation;
    const request = generateBadRequest(rng, operation, (op, name) => pathValue(fixtures, op, name));
    const status = await send(app, transport, request, fixtures.credentials[operation.credential], options.timeoutMs ?? 10_000);
    const after = await rowCounts(app, tables);
    const refused = status === 'timeout' || status === 'crash' || status >= 400;
    const rowsChanged = refused ? difference(before, after) : undefined;
    before = after;
    const outcome: Outcome = {
      index, operation: `${operation.method} ${operation.path}`, mutation: request.mutation, method: request.method,
      url: request.url.length > 200 ? `${request.url.slice(0, 200)}…` : request.url, status, ...(rowsChanged ? { rowsChanged } : {}),
    };
    outcomes.push(outcome);
    const bucket = typeof status === 'number' ? `${Math.floor(status / 100)}xx` : status;
    byStatus[bucket] = (byStatus[bucket] ?? 0) + 1;
    if (typeof status !== 'number' || status >= 500 || rowsChanged) failures.push(outcome);
  }
  if (transport.kind === 'http') transport.agent.destroy();
  return {
    requests: options.requests,
    operations: operations.length,
    operationsCovered: new Set(outcomes.map((o) => o.operation)).size,
    byStatus,
    outcomes,
    failures,
  };
}

async function listeningPort(app: FastifyInstance): Promise<number> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/** Requests whose status differs between two runs of the same seed (on two databases). */
export function verdictDifferences(a: RunSummary, b: RunSummary): { index: number; operation: string; mutation: string; url: string; a: Outcome['status']; b: Outcome['status'] }[] {
  return a.outcomes.flatMap((outcome, i) => {
    const other = b.outcomes[i];
    if (!other || other.status === outcome.status) return [];
    return [{ index: i, operation: outcome.operation, mutation: outcome.mutation, url: outcome.url, a: outcome.status, b: other.status }];
  });
}
