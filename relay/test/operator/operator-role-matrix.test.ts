// Walks every registered /admin/v1 route and calls it as viewer, support and admin: a role below the
// route's declared role gets 403 operator_role_insufficient before anything runs; a role at or above
// it gets past the check (the fake ids and empty bodies then fail as 4xx, never 401/403/5xx). A route
// registered without a line in operator-route-roles.ts fails the first test.
import { OPERATOR_ROLES, roleAllows } from '@ledgerwire/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATOR_ROUTE_RULES, hasOperatorRouteRule, operatorRouteKey, operatorRouteRule } from '../../src/operator/services/operator-route-roles.js';
import { startBridgeRelay } from '../bridge/bridge-test-kit.js';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { operatorsForEveryRole, type TestOperator } from './operator-test-kit.js';

describeOnDatabases('operator role matrix', (kind) => {
  let relay: TestRelay;
  let operators: Record<(typeof OPERATOR_ROLES)[number], TestOperator>;
  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    operators = await operatorsForEveryRole(relay);
  });
  afterAll(async () => relay.close());

  it('every registered /admin/v1 route declares its role, and every declared role names a registered route', () => {
    const routes = relay.app.operators.routes;
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.filter((r) => !hasOperatorRouteRule(r.method, r.url)).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const registered = new Set(routes.map((r) => operatorRouteKey(r.method, r.url)));
    expect(Object.keys(OPERATOR_ROUTE_RULES).filter((key) => !registered.has(key))).toEqual([]);
    // Every mutating route is audited, except the POSTs that only render a preview.
    const unaudited = routes.filter((r) => r.method !== 'GET' && operatorRouteRule(r.method, r.url).audit === undefined).map((r) => r.url);
    expect(unaudited.every((url) => /preview|sample/.test(url))).toBe(true);
  });

  it('each role is refused exactly the routes above it', async () => {
    const outcomes: string[] = [];
    for (const route of relay.app.operators.routes) {
      const needed = operatorRouteRule(route.method, route.url).role;
      const url = route.url.replace(/:([a-z_]+)/g, (_m, name: string) => (name === 'id' && /companies/.test(route.url) ? '2147480000' : `zz_missing_${name}`));
      for (const role of OPERATOR_ROLES) {
        const response = await relay.app.inject({
          method: route.method as 'GET',
          url,
          headers: { authorization: `Bearer ${operators[role].token}` },
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
        const code = (response.json() as { error?: { code?: string } }).error?.code;
        const allowed = roleAllows(role, needed);
        const ok = allowed ? response.statusCode < 500 && response.statusCode !== 401 && response.statusCode !== 403 : response.statusCode === 403 && code === 'operator_role_insufficient';
        if (!ok) outcomes.push(`${role} ${route.method} ${route.url} (needs ${needed}) → ${response.statusCode} ${code ?? ''}`);
      }
    }
    expect(outcomes).toEqual([]);
  });
});

describeOnDatabases('operator route without a declared role', (kind) => {
  it('is listed as undeclared, needs admin (fail closed) and is audited', async () => {
    const relay = await startBridgeRelay(kind);
    try {
      // Registered before the app is ready, as a plugin's route would be.
      relay.app.get('/admin/v1/zz-undeclared', async () => ({ success: true }));
      const operators = await operatorsForEveryRole(relay);
      const undeclared = relay.app.operators.routes.filter((r) => !hasOperatorRouteRule(r.method, r.url));
      expect(undeclared).toEqual([{ method: 'GET', url: '/admin/v1/zz-undeclared' }]);
      for (const role of ['viewer', 'support'] as const) {
        await call(relay.app, 'GET', '/admin/v1/zz-undeclared', 403, { token: operators[role].token });
      }
      await call(relay.app, 'GET', '/admin/v1/zz-undeclared', 200, { token: operators.admin.token });
      const entries = await relay.app.operators.auditLog.list({ action: 'undeclared_route', limit: 10 });
      expect(entries.entries.map((e) => [e.actor_id, e.status])).toEqual([
        [operators.admin.id, 200],
        [operators.support.id, 403],
        [operators.viewer.id, 403],
      ]);
    } finally {
      await relay.close();
    }
  });
});
